package run

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
)

// The memorisation attack: an agent that keys the step-0
// observation (the task text and the view) into a table built from one
// planner run on the public suite, and replays the planner's actions
// blind; noop when it does not know the observation. It is a model
// behind the OpenAI-compatible API, the way such a table would reach a
// language model's training data.

// lookupEntry is what the attacker learnt of one public episode: what it
// sees at step 0, and what the planner did there.
type lookupEntry struct {
	task, view string
	plan       []string // action names
}

// lookupModel answers as the attacker. It plays one episode at a time
// (Workers 1): a request with no assistant turn in its history (History
// ≥ 1) is the first step of the next episode.
type lookupModel struct {
	table []lookupEntry

	mu             sync.Mutex
	plan           []string
	next           int
	episodes, hits int
}

func (m *lookupModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	first, seen := true, ""
	for _, msg := range req.Messages {
		first = first && msg.Role != "assistant"
		seen += msg.Content + "\n"
	}
	m.mu.Lock()
	if first {
		m.episodes++
		m.plan, m.next = nil, 0
		for _, e := range m.table {
			if strings.Contains(seen, e.task) && strings.Contains(seen, e.view) {
				m.plan = e.plan
				m.hits++
				break
			}
		}
	}
	action := "noop"
	if m.next < len(m.plan) {
		action, m.next = m.plan[m.next], m.next+1
	}
	m.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{
		"message": map[string]any{"role": "assistant", "content": fmt.Sprintf(`{"action": %q}`, action)}}}})
}

// learnTable builds the attacker's table from a planner run in dir on the
// public suite suiteName: for every episode, the step-0 observation an
// external player reads (the statement and the text view) and the
// planner's recorded actions.
func learnTable(t testing.TB, dir, suiteName string) []lookupEntry {
	t.Helper()
	lock, err := suite.LoadLock(suiteName)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
	require.NoError(t, err)
	tf, err := trace.Open(filepath.Join(dir, results.TraceFile))
	require.NoError(t, err)
	defer tf.Close()
	plays := map[string][]byte{}
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		require.NoError(t, err)
		plays[ep.Header.EpisodeID()] = ep.Actions
	}
	var table []lookupEntry
	for _, r := range rs {
		tk, err := lock.Rebuild(r.Index, r.Spec)
		require.NoError(t, err)
		w, err := tk.NewWorld()
		require.NoError(t, err)
		b, err := protocol.NewBuilder(tk, protocol.Options{}, nil)
		require.NoError(t, err)
		obs := b.Observe(w, nil)
		e := lookupEntry{task: obs.Task, view: obs.Text}
		for _, a := range plays[r.ID] {
			e.plan = append(e.plan, w.Rules().Actions[a].Name)
		}
		table = append(table, e)
	}
	return table
}

// lookupScore plays the attacker on o's episodes and returns its results
// and how many step-0 observations it found in its table.
func lookupScore(t testing.TB, o Options, table []lookupEntry) ([]results.Result, int) {
	t.Helper()
	m := &lookupModel{table: table}
	srv := httptest.NewServer(m)
	defer srv.Close()
	o.Agent, o.Workers = "openai", 1
	o.External = agent.External{Model: "lookup", BaseURL: srv.URL, History: 1}
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	return rs, m.hits
}

func lookupWins(rs []results.Result) int {
	n := 0
	for _, r := range rs {
		if r.Success {
			n++
		}
	}
	return n
}

// TestLookupAgentLosesOnHeldOutSeeds plays the memorisation attack on the
// default suite's goal tasks (obtain, collect, obtain_return, waypoints
// at easy and medium: 24 episodes): on the public seeds it knows every
// episode and wins like the planner it copied; on held-out seeds (the
// same suite and lock, a salt) it knows none and wins no more than noop
// does there, the floor it falls back to. Before --salt existed, or if
// the salt did not change the worlds, the second half fails.
func TestLookupAgentLosesOnHeldOutSeeds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := Options{Suite: "default", Traces: "none", Config: Config{Certify: true, Workers: 2},
		Families: []string{task.FamilyObtain, task.FamilyCollect, task.FamilyObtainReturn, task.FamilyWaypoints}}
	run := func(name, agentName, salt string) Options {
		o := base
		o.Out, o.Agent = filepath.Join(dir, name), agentName
		if salt != "" {
			o.Salt = []byte(salt)
		}
		return o
	}
	planner := run("planner", "planner", "")
	planner.Traces = "all"
	score(t, planner)
	table := learnTable(t, planner.Out, "default")
	prs, err := results.Read(filepath.Join(planner.Out, results.ResultsFile))
	require.NoError(t, err)
	require.Len(t, prs, 24)
	planned := lookupWins(prs)
	require.GreaterOrEqual(t, planned, 20, "the planner wins the tasks the attacker copies")

	pub, pubHits := lookupScore(t, run("lookup-public", "", ""), table)
	salted, saltedHits := lookupScore(t, run("lookup-salted", "", testSalt), table)
	noop := score(t, run("noop-salted", "noop", testSalt)).Summary.Overall.Successes
	t.Logf("planner %d/24; lookup on public seeds %d/24 (%d observations known); on held-out seeds %d/24 (%d known); noop there %d/24",
		planned, lookupWins(pub), pubHits, lookupWins(salted), saltedHits, noop)

	// The attack works on public seeds: that is what "memorisable" means.
	require.Equal(t, len(pub), pubHits, "every public step-0 observation is in the table")
	require.GreaterOrEqual(t, lookupWins(pub), planned-1, "on public seeds the blind replay wins like the planner")
	// And fails on held-out seeds.
	require.LessOrEqual(t, saltedHits, 1, "a held-out world's step-0 observation is not in the table")
	require.LessOrEqual(t, lookupWins(salted), noop+saltedHits, "on held-out seeds the attacker wins no more than noop")
	require.LessOrEqual(t, 4*lookupWins(salted), planned, "and far less than the planner it copied")
}

// BenchmarkLookupAttackStandard measures the memorisation attack on the
// whole standard suite (its own conditions: partial observability, the
// tiers' feedback, and the full/full diagnostic episodes): success by
// tier of the planner it copies, of the attacker on public and on
// held-out seeds, and of noop and the explorer on those held-out seeds.
// It plays about 400,000 model calls: run it once,
//
//	go test ./bench/run -run '^$' -bench LookupAttackStandard -benchtime 1x
func BenchmarkLookupAttackStandard(b *testing.B) {
	if testing.Short() {
		b.Skip("a measurement of minutes, not a check: make benchmarks-once runs -short; run it with go test ./bench/run -run '^$' -bench LookupAttackStandard -benchtime 1x")
	}
	for range b.N {
		dir := b.TempDir()
		run := func(name, agentName, salt string) Options {
			o := Options{Suite: "standard", Out: filepath.Join(dir, name), Agent: agentName, Traces: "none", Config: Config{Certify: true}}
			if salt != "" {
				o.Salt = []byte(salt)
			}
			return o
		}
		play := func(o Options) []results.Result {
			_, err := Score(context.Background(), o, nil)
			require.NoError(b, err)
			rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
			require.NoError(b, err)
			return rs
		}
		planner := run("planner", "planner", "")
		planner.Traces = "all"
		rows := map[string][]results.Result{"planner (public)": play(planner)}
		table := learnTable(b, planner.Out, "standard")
		var hits [2]int
		rows["lookup (public)"], hits[0] = lookupScore(b, run("lookup-public", "", ""), table)
		rows["lookup (held-out)"], hits[1] = lookupScore(b, run("lookup-salted", "", testSalt), table)
		rows["noop (held-out)"] = play(run("noop-salted", "noop", testSalt))
		rows["explorer (held-out)"] = play(run("explorer-salted", "explorer", testSalt))
		rows["explorer (public)"] = play(run("explorer-public", "explorer", ""))
		var out strings.Builder
		fmt.Fprintf(&out, "step-0 observations known: %d of %d public, %d of %d held-out\n", hits[0], len(rows["lookup (public)"]), hits[1], len(rows["lookup (held-out)"]))
		fmt.Fprintf(&out, "%-22s %8s %8s %8s %8s %8s\n", "success", "easy", "medium", "hard", "expert", "all")
		for _, name := range []string{"planner (public)", "lookup (public)", "lookup (held-out)", "noop (held-out)", "explorer (public)", "explorer (held-out)"} {
			fmt.Fprintf(&out, "%-22s", name)
			for _, tier := range []string{"easy", "medium", "hard", "expert", ""} {
				n, won := 0, 0
				for _, r := range rows[name] {
					if tier == "" || r.Spec.Tier == tier {
						n++
						if r.Success {
							won++
						}
					}
				}
				fmt.Fprintf(&out, " %7.1f%%", 100*results.Fraction(won, n))
				if tier == "" {
					b.ReportMetric(100*results.Fraction(won, n), strings.NewReplacer(" ", "_", "(", "", ")", "").Replace(name)+"_%")
				}
			}
			fmt.Fprintln(&out)
		}
		b.Log("\n" + out.String())
	}
}
