package report

import (
	"bytes"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
)

// TestIntervalsStayInRange: no interval Longcraft prints leaves its
// metric's range, nor the values it was computed from: summary.json's
// (success and every metric's ci95), the terminal table's, the report's
// and the comparison page's. The fixture's groups of three spread steps
// from 1 to 1980 and return from -0.7 to 5.3, where the comparison's
// normal approximation printed steps intervals below 0 (it showed "187
// [-20.5, 395]" for the default suite).
func TestIntervalsStayInRange(t *testing.T) {
	dirs, comparePath := fixturePages(t)
	metrics := map[string]results.Metric{}
	for _, m := range results.Metrics() {
		metrics[m.Name] = m
	}
	// Each group's measured values, by group label and metric.
	type span struct{ lo, hi float64 }
	spans := make([]map[[2]string]span, len(dirs))
	for i, dir := range dirs {
		rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
		require.NoError(t, err)
		spans[i] = map[[2]string]span{}
		keys, groups := results.GroupResults(rs)
		for _, k := range keys {
			for _, m := range results.Metrics() {
				sp := span{math.Inf(1), math.Inf(-1)}
				for _, r := range groups[k] {
					if v, ok := m.Of(r); ok {
						sp = span{math.Min(sp.lo, v), math.Max(sp.hi, v)}
					}
				}
				spans[i][[2]string{k.Label(), m.Name}] = sp
			}
		}
		// summary.json.
		s := results.Summarize("fixture", "x", rs)
		for _, g := range append(s.Groups, s.Overall) {
			assert.True(t, 0 <= g.Low && g.Low <= g.Rate && g.Rate <= g.High && g.High <= 1, "%s: success %v [%v, %v]", g.Key().Label(), g.Rate, g.Low, g.High)
			for name, st := range g.Metrics {
				if st.N == 0 {
					continue
				}
				require.NotNil(t, st.CI95, "%s %s has an interval", g.Key().Label(), name)
				lo, hi := st.CI95[0], st.CI95[1]
				m := metrics[name]
				assert.True(t, lo <= st.Mean && st.Mean <= hi, "%s %s: %v outside its interval [%v, %v]", g.Key().Label(), name, st.Mean, lo, hi)
				assert.True(t, m.Signed || lo >= m.Min, "%s %s: interval [%v, %v] below the metric's least value %v", g.Key().Label(), name, lo, hi, m.Min)
				assert.True(t, m.Max == 0 || hi <= m.Max, "%s %s: interval [%v, %v] above the metric's greatest value %v", g.Key().Label(), name, lo, hi, m.Max)
				if g.Family != "all" {
					sp := spans[i][[2]string{g.Key().Label(), name}]
					assert.True(t, lo >= sp.lo && hi <= sp.hi, "%s %s: interval [%v, %v] leaves the values' span [%v, %v]", g.Key().Label(), name, lo, hi, sp.lo, sp.hi)
				}
			}
		}
		// The terminal table: success intervals within 0–100%.
		var table bytes.Buffer
		require.NoError(t, results.WriteTable(&table, s))
		for _, m := range regexp.MustCompile(`([0-9.]+)% \[\s*([0-9.-]+),\s*([0-9.-]+)\]`).FindAllStringSubmatch(table.String(), -1) {
			lo, hi := atof(t, m[2]), atof(t, m[3])
			assert.True(t, 0 <= lo && lo <= atof(t, m[1]) && atof(t, m[1]) <= hi && hi <= 100, "table: %s", m[0])
		}
	}

	// The pages: every figure marked with its group and metric.
	intervalRe := regexp.MustCompile(`^([-0-9.]+)%?(?:<br><small>\[([-0-9.]+), ([-0-9.]+)\]</small>| \[([-0-9.]+), ([-0-9.]+)\])?`)
	check := func(page string, run int, onCompare bool) int {
		checked := 0
		for k, fig := range cells(page) {
			if onCompare && k[2] != strconv.Itoa(run) {
				continue
			}
			m := intervalRe.FindStringSubmatch(fig)
			if fig == "–" || m == nil || m[2]+m[4] == "" {
				continue
			}
			mean, lo, hi := atof(t, m[1]), atof(t, m[2]+m[4]), atof(t, m[3]+m[5])
			assert.True(t, lo <= mean && mean <= hi, "%v: %s", k, fig)
			if k[1] == "success" {
				assert.True(t, lo >= 0 && hi <= 100, "%v: %s", k, fig)
				checked++
				continue
			}
			metric := metrics[k[1]]
			sp := spans[run][[2]string{k[0], k[1]}]
			scale := 1.0
			if metric.Percent {
				scale = 100
			}
			// Printed to three significant digits (a tenth of a point for
			// percentages): allow that rounding.
			tol := func(x float64) float64 { return math.Max(math.Abs(x)*0.005, 0.05) }
			assert.GreaterOrEqual(t, lo+tol(lo), scale*sp.lo, "%v: %s below the least value measured", k, fig)
			assert.LessOrEqual(t, hi-tol(hi), scale*sp.hi, "%v: %s above the greatest value measured", k, fig)
			assert.True(t, metric.Signed || lo >= scale*metric.Min-tol(lo), "%v: %s below the metric's range", k, fig)
			checked++
		}
		return checked
	}
	compare := readPage(t, comparePath)
	for i, dir := range dirs {
		assert.Positive(t, check(readPage(t, filepath.Join(dir, results.ReportFile)), i, false), "the report's intervals were read")
		assert.Positive(t, check(compare, i, true), "the comparison's intervals were read")
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	require.NoError(t, err, s)
	return x
}
