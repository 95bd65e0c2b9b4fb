package run

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/longcraft/longcraft/bench/results"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
)

// TestEmbeddedLocksAreFresh regenerates and certifies a sample of every
// embedded suite's episodes, as `longcraft suite lock` does, and compares
// them with the shipped lock: a generator, planner or rules change that
// moves a task fails here until the lock is rewritten (and committed).
func TestEmbeddedLocksAreFresh(t *testing.T) {
	t.Parallel()
	every := map[string]int{"default": 1, "standard": 35}
	if testing.Short() {
		every = map[string]int{"default": 3, "standard": 140}
	}
	for _, name := range suite.Embedded() {
		s, err := suite.Load(name)
		require.NoError(t, err)
		l, err := suite.LoadLock(name)
		require.NoError(t, err)
		require.NoError(t, l.Check(s, relockCommand(name)))
		step := every[name]
		if step == 0 {
			step = 50
		}
		specs := s.Expand()
		for i := 0; i < len(specs); i += step {
			tk, err := task.GenerateWith(specs[i], certifiers(Certify))
			require.NoError(t, err)
			want := suite.Locked{ID: tk.ID, Seed: tk.Seed, Goal: tk.Goal.String(), Attempts: tk.Attempts,
				Certified: tk.Certified, PlannerSteps: tk.PlannerSteps}
			require.Equal(t, want, l.Episodes[i], "suite %s episode %d is stale: %s", name, i, relockCommand(name))
		}
	}
}

// TestScoreLocksASuiteFile: a suite file without a lock is certified once
// and its lock kept in the run; the results carry its hash; a resumed run
// whose lock differs is refused.
func TestScoreLocksASuiteFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	require.NoError(t, os.WriteFile(file, []byte("name: mine\nepisodes:\n  - families: [obtain, waypoints]\n    tiers: [easy]\n    split: eval\n    seeds: {from: 0, count: 2}\n"), 0o644))
	out := filepath.Join(dir, "run")
	o := Options{Suite: file, Agent: "random", Out: out, Config: Config{Certify: true, Workers: 2}, Traces: "none"}
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	require.True(t, oc.Complete)
	data, err := os.ReadFile(filepath.Join(out, LockFile))
	require.NoError(t, err)
	l, err := suite.ParseLock("kept", data)
	require.NoError(t, err)
	assert.Equal(t, l.Hash, oc.Summary.Lock)
	rs, err := results.Read(filepath.Join(out, results.ResultsFile))
	require.NoError(t, err)
	for _, r := range rs {
		assert.Equal(t, l.Hash, r.Lock)
	}
	// The same suite played again from the kept lock gives the same results.
	o.Out = filepath.Join(dir, "run2")
	require.NoError(t, os.MkdirAll(o.Out, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(o.Out, LockFile), data, 0o644))
	oc2, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, oc.Summary, oc2.Summary)

	// Results played from another lock: refused on resume.
	rows := filepath.Join(out, results.ResultsFile)
	b, err := os.ReadFile(rows)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(rows, bytes.ReplaceAll(b, []byte(l.Hash), []byte("0123456789abcdef")), 0o644))
	o.Out, o.Resume = out, true
	_, err = Score(context.Background(), o, nil)
	assert.ErrorContains(t, err, "not the same tasks")
	// A run begun uncertified (no lock), resumed with certification: refused,
	// and the refusal leaves no lock behind, so the run can still be resumed
	// as it began.
	plain := filepath.Join(dir, "plain")
	p := Options{Suite: file, Agent: "random", Out: plain, Config: Config{Workers: 2}, Traces: "none", Seeds: 1}
	_, err = Score(context.Background(), p, nil)
	require.NoError(t, err)
	p.Resume, p.Certify = true, true
	_, err = Score(context.Background(), p, nil)
	assert.ErrorContains(t, err, "not the run it continues (lock: ")
	assert.NoFileExists(t, filepath.Join(plain, LockFile))
	p.Certify = false
	_, err = Score(context.Background(), p, nil)
	assert.NoError(t, err, "resumed as it began")

	// An edited kept lock: refused.
	require.NoError(t, os.WriteFile(rows, b, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(out, LockFile), bytes.Replace(data, []byte(`"attempts":1`), []byte(`"attempts":2`), 1), 0o644))
	_, err = Score(context.Background(), o, nil)
	assert.ErrorContains(t, err, "does not match its content")
}
