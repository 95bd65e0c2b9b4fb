package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/trace"
)

// copyRun copies a run directory's files into a new temporary directory.
func copyRun(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	entries, err := os.ReadDir(from)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Type().IsRegular() {
			require.NoError(t, os.WriteFile(filepath.Join(to, e.Name()), readFile(t, filepath.Join(from, e.Name())), 0o644))
		}
	}
	return to
}

// editLines rewrites dir's results.jsonl, each line (as a JSON object)
// through edit; a line edit returns false for is left out.
func editLines(t *testing.T, dir string, edit func(i int, line map[string]any) bool) {
	t.Helper()
	path := filepath.Join(dir, results.ResultsFile)
	var out bytes.Buffer
	for i, l := range bytes.Split(bytes.TrimSpace(readFile(t, path)), []byte("\n")) {
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(l))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&m))
		if !edit(i, m) {
			continue
		}
		b, err := json.Marshal(m)
		require.NoError(t, err)
		out.Write(append(b, '\n'))
	}
	require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
}

// lineOf reads line i of dir's results.jsonl.
func lineOf(t *testing.T, dir string, i int) results.Result {
	rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
	require.NoError(t, err)
	return rs[i]
}

// TestVerifyNamesWhatDiffers: every edit of a results line, of the
// summary or of the traces is named, and only what differs; a line edit
// of a field no trace proves leaves the lines matching but not the
// summary written from them.
func TestVerifyNamesWhatDiffers(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	_, err := Score(context.Background(), killable(base), nil)
	require.NoError(t, err)
	v, err := Verify(base)
	require.NoError(t, err)
	require.True(t, v.OK(), "%v", v.Problems())
	n := defaultEpisodes(t)
	require.Equal(t, n, v.Checked)
	require.Zero(t, v.Unverified)
	require.Positive(t, v.Steps)

	const k = 7 // the line edited
	r := lineOf(t, base, k)
	id := r.ID
	name := fmt.Sprintf("episode %d (%s): ", k, id)
	set := func(key string, value any) func(dir string) {
		return func(dir string) {
			editLines(t, dir, func(i int, m map[string]any) bool {
				if i == k {
					m[key] = value
				}
				return true
			})
		}
	}
	for _, c := range []struct {
		name    string
		edit    func(dir string)
		line    string // the line's message ("": none)
		trace   string // a trace problem ("": none)
		summary string // a summary field that differs ("": none)
	}{
		{"success", set("success", !r.Success), name + fmt.Sprintf("success %t in results.jsonl, %t by its trace", !r.Success, r.Success), "", ""},
		{"steps", set("steps", r.Steps+1), name + fmt.Sprintf("steps %d in results.jsonl, %d by its trace", r.Steps+1, r.Steps), "", ""},
		{"end", set("end", "goal"), name + fmt.Sprintf("end \"goal\" in results.jsonl, %q by its trace", r.End), "", ""},
		{"host end", set("end", "timeout"), name + fmt.Sprintf("end \"timeout\" in results.jsonl, %q by its trace", r.End), "", ""},
		{"return", set("return", r.Return+1), name + "return", "", ""},
		{"achievements", set("unlocked", r.Unlocked+3), name + fmt.Sprintf("unlocked %d in results.jsonl, %d by its trace", r.Unlocked+3, r.Unlocked), "", ""},
		{"exploration", set("tiles_visited", r.TilesVisited+1), name + "tiles_visited", "", ""},
		{"behaviour", set("valid_action_ratio", 1), name + "valid_action_ratio 1 in results.jsonl", "", ""},
		{"seed", set("seed", r.Seed+1), name + fmt.Sprintf("seed %d in results.jsonl, %d by its trace", r.Seed+1, r.Seed), "", ""},
		{"agent", set("agent", "planner"), name + `agent "planner" in results.jsonl, "random" by its trace`, "", ""},
		{"an error that played", set("error", "no task"), name + `could not be played (error "no task") yet has a trace`, "", "summary.json: errors 0 in summary.json, 1 from the lines"},
		{"metrics edited alone", func(dir string) {
			editLines(t, dir, func(i int, m map[string]any) bool {
				if i == k {
					m["metrics"].(map[string]any)["steps"] = 12345
				}
				return true
			})
		}, name + fmt.Sprintf("metrics.steps 12345 in results.jsonl, its fields give %d", r.Steps), "", ""},
		{"not trace-derived", set("tokens", 5), "", "", "summary.json: overall.tokens 0 in summary.json, 5 from the lines"},
		{"a deleted line", func(dir string) {
			editLines(t, dir, func(i int, _ map[string]any) bool { return i != k })
		}, "", "(" + id + ") has no results line", "summary.json: episodes 36 in summary.json, 35 from the lines"},
		{"a trace twice", func(dir string) {
			tf, err := trace.Open(filepath.Join(dir, results.TraceFile))
			require.NoError(t, err)
			i, err := tf.FindEpisode(id)
			require.NoError(t, err)
			ep, err := tf.Episode(i)
			require.NoError(t, err)
			tf.Close()
			w, err := trace.OpenAppend(filepath.Join(dir, results.TraceFile), nil)
			require.NoError(t, err)
			require.NoError(t, w.Append(ep))
			require.NoError(t, w.Close())
		}, "", "two traces of " + id, ""},
		{"a line twice", func(dir string) {
			path := filepath.Join(dir, results.ResultsFile)
			lines := bytes.SplitAfter(readFile(t, path), []byte("\n"))
			require.NoError(t, os.WriteFile(path, append(readFile(t, path), lines[k]...), 0o644))
		}, name + "two results lines for this episode", "", "summary.json: episodes 36 in summary.json, 37 from the lines"},
		{"the summary", func(dir string) {
			path := filepath.Join(dir, results.SummaryFile)
			require.NoError(t, os.WriteFile(path, bytes.Replace(readFile(t, path), []byte(`"errors": 0`), []byte(`"errors": 2`), 1), 0o644))
		}, "", "", "summary.json: errors 2 in summary.json, 0 from the lines as their traces say"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyRun(t, base)
			c.edit(dir)
			v, err := Verify(dir)
			require.NoError(t, err)
			require.False(t, v.OK())
			check := func(what string, got []string, want string) {
				if want == "" {
					assert.Empty(t, got, what)
					return
				}
				require.NotEmpty(t, got, what)
				assert.Contains(t, strings.Join(got, "\n"), want, what)
			}
			check("lines", v.Lines, c.line)
			check("traces", v.Traces, c.trace)
			// The summary is recomputed from the lines as their traces
			// say: an edited trace-derived field leaves it matching.
			check("summary", v.Summary, c.summary)
			if c.line != "" {
				assert.Len(t, v.Lines, 1, "only the edited line differs")
			}
			var ve *VerifyError
			require.ErrorAs(t, v.Refuse("verify", dir), &ve)
			assert.Equal(t, ExitVerify, ve.ExitCode())
		})
	}
}

// TestResumeRefusesTheForger: an agent that reached the run directory
// (as an exec agent running as the evaluator's user did, reading --out
// from its parent's command line) rewrites every results line to
// success: true and kills the evaluator; --resume must refuse the run,
// naming the lines. Before, the resumed summary counted the forged
// lines: noop scored 58.3 % on the default suite (21 of 36: 20 forged
// lines, 1 honest success), its honest score 1 of 36.
func TestResumeRefusesTheForger(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	o := killable(out)
	o.Agent = "noop"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Score(ctx, o, func(done, _ int) {
		if done >= 20 {
			cancel() // the evaluator killed mid-run
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	v, err := Verify(out)
	require.NoError(t, err)
	require.True(t, v.OK(), "the partial run as played verifies: %v", v.Problems())
	forged := 0
	editLines(t, out, func(_ int, m map[string]any) bool {
		if m["success"] == false {
			forged++
		}
		m["success"] = true
		return true
	})
	require.GreaterOrEqual(t, forged, 19)
	before := readFile(t, filepath.Join(out, results.ResultsFile))

	o.Resume = true
	oc, err := Score(context.Background(), o, nil)
	require.Error(t, err, "resume accepted forged lines: the summary says %.1f %% success", 100*oc.Summary.Overall.Rate)
	var ve *VerifyError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, ExitVerify, ve.ExitCode())
	assert.Len(t, ve.V.Lines, forged, "every forged line is named")
	assert.Contains(t, err.Error(), "resume: "+out+" does not match its traces: episode ")
	assert.Contains(t, err.Error(), "success true in results.jsonl, false by its trace")
	assert.Equal(t, before, readFile(t, filepath.Join(out, results.ResultsFile)), "a refused resume writes nothing")

	// The honest run, resumed from the same partial state, scores 1 of 36.
	honest := t.TempDir()
	h := killable(honest)
	h.Agent = "noop"
	s, err := Score(context.Background(), h, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, s.Summary.Overall.Successes)
}

// TestHandEditsAreRefused: a hand-edited success or steps in one results
// line is refused by --resume and by merge, each naming the line (before,
// both accepted it and the summary counted it).
func TestHandEditsAreRefused(t *testing.T) {
	t.Parallel()
	whole := t.TempDir()
	_, err := Score(context.Background(), killable(whole), nil)
	require.NoError(t, err)
	shards := playShards(t, 2, killable)
	const k = 3
	for _, field := range []string{"success", "steps"} {
		edit := func(dir string) string {
			r := lineOf(t, dir, k)
			editLines(t, dir, func(i int, m map[string]any) bool {
				if i == k {
					if field == "success" {
						m[field] = !r.Success
					} else {
						m[field] = r.Steps - 1
					}
				}
				return true
			})
			return fmt.Sprintf("episode %d (%s): %s ", r.Index, r.ID, field)
		}
		t.Run("resume/"+field, func(t *testing.T) {
			dir := copyRun(t, whole)
			want := edit(dir)
			o := killable(dir)
			o.Resume = true
			_, err := Score(context.Background(), o, nil)
			var ve *VerifyError
			require.ErrorAs(t, err, &ve)
			assert.Contains(t, err.Error(), want)
		})
		t.Run("merge/"+field, func(t *testing.T) {
			edited := copyRun(t, shards[1])
			want := edit(edited)
			_, err := Merge(t.TempDir(), []string{shards[0], edited})
			var ve *VerifyError
			require.ErrorAs(t, err, &ve)
			assert.Contains(t, err.Error(), "merge: "+edited+" does not match its traces: "+want)
		})
	}
	// The shards as played merge, with nothing unverified.
	s, err := Merge(t.TempDir(), shards)
	require.NoError(t, err)
	assert.Zero(t, s.Unverified)
}

// TestUnverifiedIsCounted: results without traces are counted unverified
// by the one count the summary, the table and the report show, and
// verify recomputes the same summary.
func TestUnverifiedIsCounted(t *testing.T) {
	t.Parallel()
	for _, traces := range []string{"failures", "none"} {
		t.Run(traces, func(t *testing.T) {
			o := killable(t.TempDir())
			o.Agent, o.Traces = "explorer", traces
			oc, err := Score(context.Background(), o, nil)
			require.NoError(t, err)
			want := oc.Summary.Overall.Successes
			if traces == "none" {
				want = oc.Summary.Episodes
			}
			require.Positive(t, want)
			assert.Equal(t, want, oc.Summary.Unverified)
			v, err := Verify(o.Out)
			require.NoError(t, err)
			assert.True(t, v.OK(), "%v", v.Problems())
			assert.Equal(t, want, v.Unverified)
			assert.Contains(t, string(readFile(t, filepath.Join(o.Out, results.ReportFile))), fmt.Sprintf("%d of %d results unverified", want, oc.Summary.Episodes))
		})
	}
}

// TestCopiedTraceScoresAsItsPlayer: a planner's trace copied to
// human.lctrace and scored with --agent trace:human.lctrace is labelled
// the planner's play in its results and summary, not the file's name
// (before: "trace:human.lctrace", 36/36 as if a human had played); the
// run's agent stays trace:FILE, so --resume continues it.
func TestCopiedTraceScoresAsItsPlayer(t *testing.T) {
	t.Parallel()
	o := small(t.TempDir())
	o.Agent, o.Traces, o.Seeds = "planner", "all", 1
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	human := filepath.Join(t.TempDir(), "human.lctrace")
	require.NoError(t, os.WriteFile(human, readFile(t, filepath.Join(o.Out, results.TraceFile)), 0o644))

	r := small(t.TempDir())
	r.Agent, r.Suite, r.Traces = agent.RecordedPrefix+human, agent.RecordedPrefix+human, "all"
	oc, err := Score(context.Background(), r, nil)
	require.NoError(t, err)
	assert.Equal(t, "trace (planner)", oc.Summary.Agent)
	rs, err := results.Read(filepath.Join(r.Out, results.ResultsFile))
	require.NoError(t, err)
	for _, x := range rs {
		assert.Equal(t, "trace (planner)", x.Agent, x.ID)
	}
	def, err := results.ReadDefinition(r.Out)
	require.NoError(t, err)
	assert.Equal(t, agent.RecordedPrefix+human, def.Agent)
	v, err := Verify(r.Out)
	require.NoError(t, err)
	assert.True(t, v.OK(), "%v", v.Problems())

	// The replay's own traces name the player too: scored again, the
	// label stays.
	again := small(t.TempDir())
	file := filepath.Join(r.Out, results.TraceFile)
	again.Agent, again.Suite = agent.RecordedPrefix+file, agent.RecordedPrefix+file
	oc2, err := Score(context.Background(), again, nil)
	require.NoError(t, err)
	assert.Equal(t, "trace (planner)", oc2.Summary.Agent)

	r.Resume = true
	_, err = Score(context.Background(), r, nil)
	require.NoError(t, err, "the run resumes")
	_, err = os.Stat(filepath.Join(r.Out, results.SummaryFile))
	require.False(t, errors.Is(err, os.ErrNotExist))
}

// BenchmarkVerify checks a default-suite run (36 episodes, every trace
// kept) against its traces: steps replayed a second and the cost an
// episode. A 700-episode standard-suite planner run costs about 0.4 s
// on 2 cores (docs/verify.md).
func BenchmarkVerify(b *testing.B) {
	dir := b.TempDir()
	_, err := Score(context.Background(), killable(dir), nil)
	require.NoError(b, err)
	benchVerify(b, dir)
}

// benchVerify verifies the run in dir b.N times, reporting steps
// replayed a second and the cost an episode.
func benchVerify(b *testing.B, dir string) {
	b.ResetTimer()
	steps, episodes := 0, 0
	for range b.N {
		v, err := Verify(dir)
		if err != nil || !v.OK() {
			b.Fatal(err, v.Problems())
		}
		steps, episodes = steps+v.Steps, episodes+v.Checked
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(episodes), "µs/episode")
}

// TestRecordedPlayOnOtherTasks: on a suite with tasks the trace has no
// play of, those episodes are errors labelled with the file's player, so
// the summary still names one player.
func TestRecordedPlayOnOtherTasks(t *testing.T) {
	t.Parallel()
	o := small(t.TempDir())
	o.Agent, o.Traces, o.Seeds = "planner", "all", 1
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	m := small(t.TempDir())
	m.Agent, m.Seeds, m.Traces = agent.RecordedPrefix+filepath.Join(o.Out, results.TraceFile), 2, "all"
	oc, err := Score(context.Background(), m, nil)
	require.NoError(t, err)
	require.Positive(t, oc.Summary.Errors)
	assert.Equal(t, "trace (planner)", oc.Summary.Agent)
	v, err := Verify(m.Out)
	require.NoError(t, err)
	assert.True(t, v.OK(), "%v", v.Problems())
	assert.Equal(t, oc.Summary.Errors, v.Errored)
}

// TestResumeAfterATornFirstTraceOfFailures: with traces of failures
// only, a crash while the first failure's trace was written leaves lines
// (successes, without traces) beside a trace file with no whole record:
// a resume continues it.
func TestResumeAfterATornFirstTraceOfFailures(t *testing.T) {
	t.Parallel()
	o := killable(t.TempDir())
	o.Agent, o.Traces = "explorer", "failures"
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	editLines(t, o.Out, func(_ int, m map[string]any) bool { return m["success"] == true })
	require.NoError(t, os.Remove(filepath.Join(o.Out, results.SummaryFile)))
	require.NoError(t, os.WriteFile(filepath.Join(o.Out, results.TraceFile), []byte("LCTRACE\x01\x90\x03\x8c"), 0o644))
	o.Resume = true
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.True(t, oc.Complete)
	v, err := Verify(o.Out)
	require.NoError(t, err)
	assert.True(t, v.OK(), "%v", v.Problems())
}
