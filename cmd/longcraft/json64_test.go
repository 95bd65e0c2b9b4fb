package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/internal/json64"
)

// bigIndex is a scenario's seed index that float64 JSON decoders (jq,
// JavaScript's JSON.parse, json.Unmarshal into any) read as
// 18221634021153780000.
const bigIndex = 18221634021153779795

// asJS decodes JSON lines as jq and JavaScript do (float64 numbers),
// after checking that no integer in them is one a float64 rounds.
func asJS(t *testing.T, what string, data []byte) []map[string]any {
	t.Helper()
	inexact, err := json64.Inexact(data)
	require.NoError(t, err, what)
	assert.Empty(t, inexact, "%s holds integers a float64 decoder rounds", what)
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.TrimSpace(line) == "" || line == "[" {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			// One indented object, not JSON lines.
			require.NoError(t, json.Unmarshal(data, &v), what)
			return []map[string]any{v}
		}
		out = append(out, v)
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// TestJSONOutputsKeep64BitSeeds plays a scenario whose seed index and world
// seeds are over 2^53 and reads every JSON file of the run, and the
// --json outputs of the commands, with a float64 decoder: each seed and
// index comes back exact (as a string), and no integer is one a float64
// would round.
func TestJSONOutputsKeep64BitSeeds(t *testing.T) {
	dir := t.TempDir()
	suiteFile := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(suiteFile, []byte("name: big\nscenarios:\n  - name: far\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 30\n    seeds: {from: "+strconv.FormatUint(bigIndex, 10)+", count: 2}\n"), 0o644))
	run := filepath.Join(dir, "run")
	out, err := runCLI(t, "score", "--suite", suiteFile, "--agent", "random", "--out", run)
	require.NoError(t, err, out)

	// The seeds as Go reads them from the traces (msgpack, exact).
	tf, err := trace.Open(filepath.Join(run, results.TraceFile))
	require.NoError(t, err)
	defer tf.Close()
	seeds := map[string]uint64{}
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		require.NoError(t, err)
		seeds[ep.Header.EpisodeID()] = ep.Header.Seed
	}
	require.Len(t, seeds, 2)
	big := 0
	for _, s := range seeds {
		if s > json64.MaxExact {
			big++
		}
	}
	require.Positive(t, big, "a world seed over 2^53, which a float64 rounds")

	lines := asJS(t, results.ResultsFile, readFile(t, filepath.Join(run, results.ResultsFile)))
	require.Len(t, lines, 2)
	for i, l := range lines {
		id := l["id"].(string)
		assert.Equal(t, strconv.FormatUint(seeds[id], 10), l["seed"], "results line %d", i)
		assert.Equal(t, strconv.FormatUint(bigIndex+uint64(i), 10), l["spec"].(map[string]any)["index"], "results line %d", i)
		assert.NotEmpty(t, l["build"].(map[string]any)["version"], "results line %d names its build", i)
	}
	for _, f := range []string{results.SummaryFile, results.DefinitionFile, results.InvocationsFile, results.TimingsFile, "suite.lock.json"} {
		asJS(t, f, readFile(t, filepath.Join(run, f)))
	}
	summary := asJS(t, results.SummaryFile, readFile(t, filepath.Join(run, results.SummaryFile)))[0]
	assert.Len(t, summary["builds"], 1, "one binary played the run")

	// trace inspect --json.
	out, err = runCLI(t, "trace", "inspect", "--json", filepath.Join(run, results.TraceFile))
	require.NoError(t, err, out)
	inspected := asJS(t, "trace inspect --json", []byte(out))
	require.Len(t, inspected, 2)
	seedOf := map[any]any{} // by the spec's index, as the results lines say
	for _, l := range lines {
		seedOf[l["spec"].(map[string]any)["index"]] = l["seed"]
	}
	indices := map[any]bool{}
	for i, e := range inspected {
		index := e["task"].(map[string]any)["index"]
		indices[index] = true
		require.Contains(t, seedOf, index, "episode %d", i)
		assert.Equal(t, seedOf[index], e["seed"], "episode %d", i)
		assert.NotNil(t, e["build"], "episode %d names its build", i)
	}
	assert.Len(t, indices, 2)

	// task show --json.
	out, err = runCLI(t, "task", "show", "--family", "obtain", "--tier", "easy", "--index", strconv.FormatUint(bigIndex, 10), "--certify=false", "--json")
	require.NoError(t, err, out)
	shown := asJS(t, "task show --json", []byte(out))[0]
	generated, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: bigIndex}, nil)
	require.NoError(t, err)
	assert.Equal(t, strconv.FormatUint(generated.Seed, 10), shown["Seed"])
	assert.Equal(t, strconv.FormatUint(bigIndex, 10), shown["Spec"].(map[string]any)["index"])

	// dataset's steps.jsonl.
	data := filepath.Join(dir, "data")
	out, err = runCLI(t, "dataset", "--episodes", "1", "--max-steps", "3", "--size", "16", "--seed", strconv.FormatUint(bigIndex, 10), "--out", data)
	require.NoError(t, err, out)
	for _, step := range asJS(t, "steps.jsonl", readFile(t, filepath.Join(data, "steps.jsonl"))) {
		assert.Equal(t, strconv.FormatUint(bigIndex, 10), step["seed"])
	}

	// version --json and fidelity --json (no seeds, but no 64-bit integer either).
	out, err = runCLI(t, "version", "--json")
	require.NoError(t, err, out)
	assert.NotEmpty(t, asJS(t, "version --json", []byte(out))[0]["version"])
	out, err = runCLI(t, "fidelity", "--episodes", "4", "--json", "--tolerance", "100000", "-q")
	require.NoError(t, err, out)
	inexact, err := json64.Inexact([]byte(out))
	require.NoError(t, err)
	assert.Empty(t, inexact, "fidelity --json")
}

// TestOlderRunDirectoriesStillRead: a run directory as Longcraft wrote it
// before seeds were strings and lines named their build (bare numbers, no
// build) still verifies, resumes and merges.
func TestOlderRunDirectoriesStillRead(t *testing.T) {
	dir := t.TempDir()
	suiteFile := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(suiteFile, []byte("name: big\nscenarios:\n  - name: far\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 30\n    seeds: {from: "+strconv.FormatUint(bigIndex, 10)+", count: 2}\n"), 0o644))
	run := filepath.Join(dir, "run")
	out, err := runCLI(t, "score", "--suite", suiteFile, "--agent", "random", "--out", run)
	require.NoError(t, err, out)
	// Back to the older form: numbers, no build in the lines or the summary.
	unquote := regexp.MustCompile(`"(seed|index)":"([0-9]+)"`)
	noBuild := regexp.MustCompile(`,"build":\{[^}]*\}`)
	resultsPath := filepath.Join(run, results.ResultsFile)
	old := noBuild.ReplaceAll(unquote.ReplaceAll(readFile(t, resultsPath), []byte(`"$1":$2`)), nil)
	require.Contains(t, string(old), `"index":`+strconv.FormatUint(bigIndex, 10)+`,`)
	require.NotContains(t, string(old), `"build"`)
	require.NoError(t, os.WriteFile(resultsPath, old, 0o644))
	var s map[string]any
	require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(run, results.SummaryFile)), &s))
	delete(s, "builds")
	summary, err := json.MarshalIndent(s, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(run, results.SummaryFile), summary, 0o644))

	rs, err := results.Read(resultsPath)
	require.NoError(t, err)
	require.Len(t, rs, 2)
	assert.Equal(t, uint64(bigIndex), rs[0].Spec.Index)
	assert.True(t, rs[0].Build.IsZero())

	out, err = runCLI(t, "verify", run)
	require.NoError(t, err, out)
	out, err = runCLI(t, "score", "--suite", suiteFile, "--agent", "random", "--out", run, "--resume")
	require.NoError(t, err, out)
	merged := filepath.Join(dir, "merged")
	out, err = runCLI(t, "merge", "--out", merged, run)
	require.NoError(t, err, out)
	out, err = runCLI(t, "verify", merged)
	require.NoError(t, err, out)
}

// TestVersion: the build version prints, and says so when the binary
// carries no VCS revision (go test never stamps one; the stamped case is
// buildinfo's test, and `go build` in a checkout shows it).
func TestVersion(t *testing.T) {
	b := buildinfo.Build{Version: "v0.0.0-20261203065030-13929d2e4007+dirty", Revision: "13929d2e400751d60afad2f1f4ae1415de497f48", Modified: true, Time: "2026-12-03T06:50:30Z"}
	for _, c := range []struct {
		build buildinfo.Build
		want  []string
	}{
		{b, []string{"longcraft v0.0.0-20261203065030-13929d2e4007+dirty\n", "revision  13929d2e400751d60afad2f1f4ae1415de497f48\n", "modified  true\n", "committed 2026-12-03T06:50:30Z\n", "go        go1."}},
		{buildinfo.Build{Version: "(devel)"}, []string{"longcraft (devel)\n", "revision  unknown: built without VCS stamping"}},
	} {
		cmd := newVersionCmd(c.build)
		var buf strings.Builder
		cmd.SetOut(&buf)
		cmd.SetArgs(nil)
		require.NoError(t, cmd.Execute())
		for _, w := range c.want {
			assert.Contains(t, buf.String(), w)
		}
	}
	cmd := newVersionCmd(b)
	var buf strings.Builder
	cmd.SetOut(&buf)
	cmd.SetArgs([]string{"--json"})
	require.NoError(t, cmd.Execute())
	var got buildinfo.Build
	require.NoError(t, json.Unmarshal([]byte(buf.String()), &got))
	assert.Equal(t, b, got)
	out, err := runCLI(t, "version")
	require.NoError(t, err)
	assert.Contains(t, out, "longcraft ")
}
