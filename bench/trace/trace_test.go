package trace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/golden"
	"github.com/longcraft/longcraft/sim"
)

// record plays the named policy on w for at most steps and returns the episode.
func record(t testing.TB, w *sim.World, h Header, name string, steps int, notes bool) *Episode {
	p, err := policy.New(name)
	require.NoError(t, err)
	p.Reset(w.Seed())
	rec := NewRecorder(steps)
	rec.Begin(h, w)
	var last *sim.Outcome
	var out sim.Outcome
	var reward int64
	for i := 0; i < steps && !w.Done(); i++ {
		a := p.Act(w, last)
		out = w.Step(a)
		last = &out
		rec.Step(a, &out, w)
		reward += out.RewardTenths()
		if notes && i%50 == 0 {
			rec.Annotate(Note{Reasoning: "explore east", Tokens: 12, LatencyMs: 340, Belief: "a tree is near"})
		}
	}
	return rec.End(w, Metrics{Died: w.Dead(), Achievements: uint64(w.Achievements()), RewardTenths: reward})
}

func taskWorld(t testing.TB, spec task.Spec) (*sim.World, Header) {
	tk, err := task.Generate(spec, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	return w, Header{Task: &spec, Goal: tk.Goal.String(), Budget: tk.Budget, Feedback: string(tk.Feedback),
		View: string(tk.Observability), Agent: "explorer"}
}

func TestRoundTripAndReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.lctrace")
	wr, err := Create(path)
	require.NoError(t, err)
	var eps []*Episode
	for i, spec := range []task.Spec{
		{Family: task.FamilyObtain, Tier: "medium", Split: task.Eval, Index: 1},
		{Family: task.FamilyWaypoints, Tier: "hard", Split: task.Train, Index: 2},
	} {
		w, h := taskWorld(t, spec)
		ep := record(t, w, h, "explorer", 700, i == 0)
		cp := *ep // the recorder reuses its columns: keep a copy
		cp.Actions, cp.Outcomes = append([]byte(nil), ep.Actions...), append([]byte(nil), ep.Outcomes...)
		cp.Checkpoints = append([]uint64(nil), ep.Checkpoints...)
		eps = append(eps, &cp)
		require.NoError(t, wr.Append(ep))
	}
	// An episode outside any task.
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	w.Reset(77)
	ep := record(t, w, Header{Agent: "random"}, "random", 1000, false)
	eps = append(eps, ep)
	require.NoError(t, wr.Append(ep))
	require.NoError(t, wr.Close())

	f, err := Open(path)
	require.NoError(t, err)
	defer f.Close()
	require.True(t, f.Indexed)
	require.Len(t, f.Index, 3)
	for i, want := range eps {
		got, err := f.Episode(i)
		require.NoError(t, err)
		assert.Equal(t, want.Actions, got.Actions)
		assert.Equal(t, want.Outcomes, got.Outcomes)
		assert.True(t, slices.Equal(want.Checkpoints, got.Checkpoints))
		assert.Equal(t, want.Notes, got.Notes)
		assert.Equal(t, want.Header.Task, got.Header.Task)
		assert.Equal(t, Version, got.Header.Version)
		rep, err := Run(got)
		require.NoError(t, err, "episode %d", i)
		assert.Equal(t, len(got.Actions), rep.Steps)
		assert.Equal(t, len(got.Checkpoints)+2, rep.Checkpoints)
	}
}

func TestReplayFindsTheFirstDivergence(t *testing.T) {
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	w.Reset(5)
	ep := record(t, w, Header{Agent: "random"}, "random", 150, false)
	tampered := *ep
	tampered.Actions = append([]byte(nil), ep.Actions...)
	for i := 40; i < len(tampered.Actions); i++ { // another walk from step 40
		tampered.Actions[i] = byte(sim.ActMoveLeft + sim.Action(i%2)*2)
	}
	_, err = Run(&tampered)
	var div *Divergence
	require.ErrorAs(t, err, &div)
	assert.LessOrEqual(t, div.Step, 150)
	assert.GreaterOrEqual(t, div.Step, 40)
	t.Log(err)

	seeded := *ep
	seeded.Header.Seed++
	_, err = Run(&seeded)
	require.ErrorAs(t, err, &div)
	assert.Equal(t, -1, div.Step, "another seed differs before the first step")

	old := *ep
	old.Header.RulesVersion = 0
	_, err = Run(&old)
	assert.ErrorContains(t, err, "would not be faithful")
}

func TestCompactness(t *testing.T) {
	for _, c := range []struct {
		policy string
		steps  int
	}{{"random", 10000}, {"explorer", 10000}} {
		var total, steps int
		for seed := uint64(0); seed < 20; seed++ {
			w, err := sim.New(sim.Config{})
			require.NoError(t, err)
			w.Reset(seed)
			ep := record(t, w, Header{Agent: c.policy}, c.policy, c.steps, false)
			data, err := MarshalEpisode(ep)
			require.NoError(t, err)
			total += len(data) + 3 // and its length prefix
			steps += len(ep.Actions)
		}
		perStep := float64(total) / float64(steps)
		t.Logf("%s: %.2f bytes/step over %d steps (checkpoints and header included)", c.policy, perStep, steps)
		assert.LessOrEqual(t, perStep, 2.2, c.policy)
	}
}

func TestRecorderStepAllocatesNothing(t *testing.T) {
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	w.Reset(1)
	rec := NewRecorder(10000)
	rec.Begin(Header{}, w)
	out := w.Step(sim.ActNoop)
	assert.Zero(t, testing.AllocsPerRun(1000, func() { rec.Step(sim.ActNoop, &out, w) }))
}

func TestTruncatedFileKeepsWholeEpisodes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cut.lctrace")
	wr, err := Create(path)
	require.NoError(t, err)
	for seed := uint64(0); seed < 3; seed++ {
		w, err := sim.New(sim.Config{})
		require.NoError(t, err)
		w.Reset(seed)
		require.NoError(t, wr.Append(record(t, w, Header{}, "random", 300, false)))
	}
	require.NoError(t, wr.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	// A crash during the third episode: no index, a torn last record.
	f, err := Open(path)
	require.NoError(t, err)
	cut := f.Index[2].Offset + 10
	f.Close()
	require.NoError(t, os.WriteFile(path, data[:cut], 0o644))
	f, err = Open(path)
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, f.Indexed)
	require.Len(t, f.Index, 2)
	for i := range f.Index {
		ep, err := f.Episode(i)
		require.NoError(t, err)
		_, err = Run(ep)
		require.NoError(t, err)
	}
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	_, err := Open(write("empty", nil))
	assert.ErrorContains(t, err, "offset 0: not a Longcraft trace")
	_, err = Open(write("future", []byte("LCTRACE\x02xxxx")))
	assert.True(t, errors.Is(err, ErrVersion), "%v", err)
	_, err = Open(write("hostile", []byte("LCTRACE\x01\xff\xff\xff\xff\x0f")))
	assert.ErrorContains(t, err, "no whole episode record")

	// A record claiming a huge binary: refused by length, not allocated.
	var b bytes.Buffer
	b.Write([]byte{0x81, 0xa1, 'a'})              // map of 1, key "a" (actions)
	b.Write([]byte{0xc6, 0x7f, 0xff, 0xff, 0xff}) // bin32 of 2 GB
	_, err = UnmarshalEpisode(b.Bytes())
	assert.ErrorContains(t, err, "field a: length")

	// Deep nesting under an unknown key.
	b.Reset()
	b.Write([]byte{0x82, 0xa1, 'v', 0x01, 0xa3, 'x', 'y', 'z'}) // a key no flipped byte makes of a known one
	for i := 0; i < 100; i++ {
		b.WriteByte(0x91) // array of 1
	}
	b.WriteByte(0xc0)
	_, err = UnmarshalEpisode(b.Bytes())
	assert.ErrorContains(t, err, "nested deeper than")

	// A later major version.
	b.Reset()
	b.Write([]byte{0x81, 0xa1, 'v', 0x02})
	_, err = UnmarshalEpisode(b.Bytes())
	assert.True(t, errors.Is(err, ErrVersion), "%v", err)
}

// FuzzUnmarshalEpisode: never a panic; anything decoded is consistent.
func FuzzUnmarshalEpisode(f *testing.F) {
	w, _ := sim.New(sim.Config{})
	w.Reset(3)
	ep := record(f, w, Header{Agent: "random"}, "random", 300, true)
	data, _ := MarshalEpisode(ep)
	f.Add(data)
	f.Add([]byte{0x81, 0xa1, 'v', 0x01})
	// A scenario's skill-level episode: the scenario whole ("scn") and
	// the decisions ("dec").
	sc := *ep
	sc.Header.Task = &task.Spec{Family: "x", Tier: task.TierScenario, Split: task.Eval, Budget: 50,
		Scenario: &task.Scenario{Name: "x", Ruleset: "classic", Map: "@.T\n...\n.~.\n", Goal: task.Reach(2, 2), Actions: task.ActionsSkills, Decisions: 4}}
	sc.Decisions = []Decision{{0, "collect wood", "ok"}, {2, "fly", "invalid"}}
	data, _ = MarshalEpisode(&sc)
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		ep, err := UnmarshalEpisode(data)
		if err != nil {
			return
		}
		require.Equal(t, len(ep.Actions), len(ep.Outcomes))
		require.Equal(t, len(ep.Actions)/ep.CheckpointEvery, len(ep.Checkpoints))
	})
}

// FuzzOpenReader: hostile files give errors, never panics.
func FuzzOpenReader(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "golden.lctrace"))
	if err == nil {
		f.Add(data)
	}
	f.Add([]byte("LCTRACE\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := OpenReader("fuzz", bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for i := range tf.Index {
			_, _ = tf.Episode(i)
		}
	})
}

// TestGoldenTrace replays a committed trace: it must give the recorded
// hashes here and under GOOS=js GOARCH=wasm (make wasm runs this test).
func TestGoldenTrace(t *testing.T) {
	path := filepath.Join("testdata", "golden.lctrace")
	if golden.Rewrite() {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		wr, err := Create(path)
		require.NoError(t, err)
		w, h := taskWorld(t, task.Spec{Family: task.FamilyObtain, Tier: "hard", Split: task.Eval, Index: 4})
		require.NoError(t, wr.Append(record(t, w, h, "explorer", 2000, true)))
		w2, err := sim.New(sim.Config{})
		require.NoError(t, err)
		w2.Reset(12345)
		require.NoError(t, wr.Append(record(t, w2, Header{Agent: "random"}, "random", 2000, false)))
		require.NoError(t, wr.Close())
	}
	f, err := Open(path)
	require.NoError(t, err, "run go test ./bench/trace -run TestGoldenTrace -rewrite")
	defer f.Close()
	require.Len(t, f.Index, 2)
	for i := range f.Index {
		ep, err := f.Episode(i)
		require.NoError(t, err)
		rep, err := Run(ep)
		require.NoError(t, err)
		assert.Positive(t, rep.Steps)
	}
}

// TestPythonReader runs the documented Python reader on the golden trace.
func TestPythonReader(t *testing.T) {
	python := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import msgpack").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("SKIPPED: no python3 with msgpack on this machine (make test installs python3-msgpack)")
	}
	// The committed golden trace, the same episodes as written before the
	// end marker (with the older flat index), and a trace written now.
	data, _ := sixEpisodes(t)
	fresh := filepath.Join(t.TempDir(), "fresh.lctrace")
	require.NoError(t, os.WriteFile(fresh, data, 0o644))
	for _, path := range []string{filepath.Join("testdata", "golden.lctrace"), filepath.Join("testdata", "golden_flat_index.lctrace"), fresh} {
		out, err := exec.Command(python, filepath.Join("..", "..", "docs", "read_trace.py"), path).CombinedOutput()
		require.NoError(t, err, string(out))
		f, err := Open(path)
		require.NoError(t, err)
		var index []string
		for i, e := range f.Index {
			ep, err := f.Episode(i)
			require.NoError(t, err)
			assert.Contains(t, string(out), fmt.Sprintf("episode %d: seed %d", i, ep.Header.Seed))
			assert.Contains(t, string(out), fmt.Sprintf("steps %d ", len(ep.Actions)))
			index = append(index, fmt.Sprintf("%d+%d:%d", e.Offset, e.Length, e.Steps))
		}
		f.Close()
		assert.Contains(t, string(out), fmt.Sprintf("index: %d episodes: %s\n", len(index), strings.Join(index, " ")), "the index, read from the doc's description")
	}
}

// BenchmarkReplay replays a 10,000-step episode (explorer policy, on
// rules without hunger or hostiles so that it lives that long): the
// replay loop's throughput, world generation excluded (one Reset per
// 10,000 steps).
func BenchmarkReplay(b *testing.B) {
	r := sim.Classic()
	r.Vitals.HungerLimit, r.Vitals.ThirstLimit, r.Vitals.FatigueLimit = 30000, 30000, 30000
	r.Gen.Hostility = 1
	for _, k := range []sim.ObjectKind{sim.ObjZombie, sim.ObjSkeleton} { // no zombies or skeletons spawn
		b := r.Creatures[k].Balance
		b.MinBase, b.MaxBase = 0, 0
		b.MinLight, b.MaxLight = 0, 0
	}
	r.Vitals.RecoverLimit = 2 // and wounds heal fast
	w, err := sim.New(sim.Config{Rules: r})
	require.NoError(b, err)
	w.Reset(9)
	ep := record(b, w, Header{}, "explorer", 10000, false)
	require.Equal(b, 10000, len(ep.Actions), "the episode lives 10,000 steps")
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		w.Reset(9)
		rep, err := RunOn(w, ep)
		if err != nil {
			b.Fatal(err)
		}
		steps += rep.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkEncode writes explorer episodes (10,000 steps at most; the
// explorer dies earlier on most seeds) with a trace Writer, as a scoring
// run does: the encoder's throughput in steps/s and the size in bytes per
// step (header, checkpoints and length prefix included).
func BenchmarkEncode(b *testing.B) {
	var eps []*Episode
	for seed := uint64(0); seed < 8; seed++ {
		w, err := sim.New(sim.Config{})
		require.NoError(b, err)
		w.Reset(seed)
		ep := record(b, w, Header{Agent: "explorer"}, "explorer", 10000, false)
		c := *ep // the recorder's columns are reused by the next record
		c.Actions, c.Outcomes = append([]byte(nil), ep.Actions...), append([]byte(nil), ep.Outcomes...)
		c.Checkpoints = append([]uint64(nil), ep.Checkpoints...)
		eps = append(eps, &c)
	}
	var out countingWriter
	tw, err := NewWriter("bench", &out)
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		ep := eps[i%len(eps)]
		if err := tw.Append(ep); err != nil {
			b.Fatal(err)
		}
		steps += len(ep.Actions)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(out.n-len(fileMagic))/float64(steps), "B/step")
}

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// TestOlderFilesStillRead: golden_flat_index.lctrace is the golden trace
// as committed before the end marker (its index one flat array of numbers,
// its explorer episode recorded by an older explorer): it opens through
// its index and every episode still replays to its recorded hashes.
func TestOlderFilesStillRead(t *testing.T) {
	old, err := Open(filepath.Join("testdata", "golden_flat_index.lctrace"))
	require.NoError(t, err)
	defer old.Close()
	assert.True(t, old.Indexed)
	require.Len(t, old.Index, 2)
	for i := range old.Index {
		ep, err := old.Episode(i)
		require.NoError(t, err)
		rep, err := Run(ep)
		if mismatch := (*RulesMismatch)(nil); errors.As(err, &mismatch) {
			// Recorded under rules this build has moved past: refused,
			// as it must be, rather than replayed unfaithfully.
			t.Logf("episode %d: %v", i, err)
			continue
		}
		require.NoError(t, err, "episode %d", i)
		assert.Equal(t, len(ep.Actions), rep.Steps)
	}
}
