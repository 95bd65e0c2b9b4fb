package run

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/sim"
)

// TestSummaryRecomputesFromResultsLines: every figure of summary.json
// (each group's and the overall row's counts, success rate and Wilson
// interval, ends, failed ids, every metric's mean, median and n, and the
// open-ended lines per ruleset) is what a reader of results.jsonl alone
// computes, reading the lines as plain JSON (as jq or pandas would: no
// Go type of Longcraft's), for the standard suite's four built-in agents.
// Under -short the first seed of each family × tier (26 episodes an
// agent), and the planner, whose planning is slow under the race
// detector, on the easy and medium tiers only (the others cover the
// extended rules); the whole suite (700 episodes an agent) otherwise.
func TestSummaryRecomputesFromResultsLines(t *testing.T) {
	t.Parallel()
	for _, agentName := range []string{"noop", "random", "explorer", "planner"} {
		t.Run(agentName, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			o := Options{Suite: "standard", Agent: agentName, Out: dir, Traces: "none", Config: Config{Workers: 2}}
			if testing.Short() {
				o.Seeds = 1
				if agentName == "planner" {
					o.Tiers = []string{"easy", "medium"}
				}
			}
			_, err := Score(context.Background(), o, nil)
			require.NoError(t, err)
			lines := readLines(t, filepath.Join(dir, results.ResultsFile))
			var summary map[string]any
			data, err := os.ReadFile(filepath.Join(dir, results.SummaryFile))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &summary))

			assert.Equal(t, float64(len(lines)), summary["episodes"])
			groups := summary["groups"].([]any)
			byKey := map[string][]map[string]any{}
			for _, l := range lines {
				byKey[groupKey(l)] = append(byKey[groupKey(l)], l)
			}
			require.Len(t, groups, len(byKey), "one group per family × tier × condition × budget")
			for _, g := range groups {
				g := g.(map[string]any)
				key := fmt.Sprintf("%s/%s/%s/%s/%v", g["family"], g["tier"], g["observability"], g["feedback"], g["budget"])
				require.Contains(t, byKey, key)
				checkGroup(t, key, g, byKey[key])
			}
			checkGroup(t, "overall", summary["overall"].(map[string]any), lines)
			checkOpenEnded(t, summary, lines)
		})
	}
}

func readLines(t *testing.T, path string) []map[string]any {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		out = append(out, l)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out)
	return out
}

// groupKey is a line's group: family, tier, condition and budget (the
// spec's, or its tier's as the summary records it).
func groupKey(l map[string]any) string {
	spec := l["spec"].(map[string]any)
	budget, ok := spec["budget"]
	if !ok {
		budget = float64(tierBudget[spec["tier"].(string)])
	}
	return fmt.Sprintf("%s/%s/%s/%s/%v", spec["family"], spec["tier"], l["observability"], l["feedback"], budget)
}

// tierBudget is docs/tasks.md's table of the tiers' step budgets.
var tierBudget = map[string]int{"easy": 1000, "medium": 3000, "hard": 6000, "expert": 10000}

// checkGroup recomputes a summary group from its lines.
func checkGroup(t *testing.T, name string, g map[string]any, lines []map[string]any) {
	t.Helper()
	successes, agentErrors, ends, failed := 0, 0, map[string]any{}, []any{}
	values := map[string][]float64{}
	calls, tokens := 0.0, 0.0
	for _, l := range lines {
		end := l["end"].(string)
		ends[end] = number(ends[end]) + 1
		if end == "agent_error" {
			agentErrors++
		}
		if l["success"] == true {
			successes++
		} else {
			failed = append(failed, l["id"])
		}
		calls += l["model_calls"].(float64)
		tokens += l["tokens"].(float64)
		for m, v := range l["metrics"].(map[string]any) {
			if v != nil {
				values[m] = append(values[m], v.(float64))
			}
		}
	}
	n := len(lines)
	assert.Equal(t, float64(n), g["episodes"], name)
	assert.Equal(t, float64(successes), g["successes"], name)
	rate := 0.0
	if n > 0 {
		rate = float64(successes) / float64(n)
	}
	lo, hi := wilson(successes, n)
	assert.Equal(t, rate, g["success_rate"], name)
	assert.Equal(t, lo, g["success_low"], name)
	assert.Equal(t, hi, g["success_high"], name)
	assert.Equal(t, ends, g["ends"], name)
	assert.Equal(t, float64(agentErrors), g["agent_errors"], name)
	if name != "overall" { // the overall row lists no ids: its groups do
		assert.Equal(t, failed, g["failed"], name)
	}
	assert.Equal(t, calls, g["model_calls"], name)
	assert.Equal(t, tokens, g["tokens"], name)
	if successes > 0 {
		assert.Equal(t, tokens/float64(successes), g["tokens_per_success"], name)
	} else {
		assert.Nil(t, g["tokens_per_success"], name)
	}
	metrics := g["metrics"].(map[string]any)
	assert.Len(t, metrics, len(values), "%s: a statistic for each metric some episode measured, none for the others", name)
	for m, vs := range values {
		st, ok := metrics[m].(map[string]any)
		require.True(t, ok, "%s: %s", name, m)
		mean, median := meanMedian(vs)
		assert.Equal(t, float64(len(vs)), st["n"], "%s %s n", name, m)
		assert.Equal(t, mean, st["mean"], "%s %s mean", name, m)
		assert.Equal(t, median, st["median"], "%s %s median", name, m)
	}
}

// checkOpenEnded recomputes the per-ruleset lines of the achievements
// episodes: Crafter's score exp(mean ln(1 + s_i)) − 1 over the ruleset's
// achievements, progression mean(unlocked / achievements) and its
// standard error, as docs/metrics.md defines them.
func checkOpenEnded(t *testing.T, summary map[string]any, lines []map[string]any) {
	t.Helper()
	lists := map[string][]string{"classic": sim.Classic().Achievements, "extended": sim.Extended().Achievements, "extended+variants": sim.Extended().Achievements}
	masks := map[string][]uint64{}
	for _, l := range lines {
		if l["spec"].(map[string]any)["family"] == "achievements" && l["error"] == nil {
			masks[l["ruleset"].(string)] = append(masks[l["ruleset"].(string)], mask(t, l["achievements"]))
		}
	}
	got, _ := summary["open_ended"].([]any)
	require.Len(t, got, len(masks), "one line per ruleset")
	for _, x := range got {
		line := x.(map[string]any)
		name := line["ruleset"].(string)
		eps, list := masks[name], lists[name]
		require.NotEmpty(t, list, name)
		assert.Equal(t, float64(len(eps)), line["episodes"], name)
		assert.Equal(t, float64(len(list)), line["achievements"], name)
		logSum, rates := 0.0, line["achievement_rates"].([]any)
		require.Len(t, rates, len(list), name)
		for a, achName := range list {
			k := 0
			for _, m := range eps {
				k += int(m >> a & 1)
			}
			pct := 100 * float64(k) / float64(len(eps))
			assert.Equal(t, map[string]any{"name": achName, "percent": pct}, rates[a], name)
			logSum += math.Log1p(pct)
		}
		assert.InDelta(t, math.Expm1(logSum/float64(len(list))), line["crafter_score"], 1e-9, name)
		var progs []float64
		total := 0
		for _, m := range eps {
			u := 0
			for a := range list {
				u += int(m >> a & 1)
			}
			total += u
			progs = append(progs, 100*float64(u)/float64(len(list)))
		}
		mean := 100 * float64(total) / float64(len(eps)*len(list))
		assert.InDelta(t, mean, line["progression"], 1e-9, name)
		assert.LessOrEqual(t, mean, 100.0, name)
		se := 0.0
		if len(progs) > 1 {
			for _, p := range progs {
				se += (p - mean) * (p - mean)
			}
			se = math.Sqrt(se/float64(len(progs)-1)) / math.Sqrt(float64(len(progs)))
		}
		assert.InDelta(t, se, line["progression_se"], 1e-9, name)
	}
}

// mask reads an achievements bit set, a JSON number or a string of one.
func mask(t *testing.T, v any) uint64 {
	switch x := v.(type) {
	case float64:
		return uint64(x)
	case string:
		m, err := strconv.ParseUint(x, 10, 64)
		require.NoError(t, err)
		return m
	}
	t.Fatalf("achievements %v: not a number", v)
	return 0
}

func number(v any) float64 {
	f, _ := v.(float64)
	return f
}

// meanMedian sums in ascending order, as the summary does, so the mean
// is the same float to the last bit.
func meanMedian(vs []float64) (mean, median float64) {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	for _, v := range s {
		mean += v
	}
	mean /= float64(len(s))
	if n := len(s); n%2 == 1 {
		median = s[n/2]
	} else {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	return mean, median
}

// wilson is the 95% Wilson score interval (docs/metrics.md).
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 0
	}
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(c-h, 0), min(c+h, 1)
}
