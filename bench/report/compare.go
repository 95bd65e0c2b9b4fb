package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// TierSuccess is one agent's success on one tier, all families pooled.
type TierSuccess struct {
	Run                 int // the run's position in Agents
	Agent, Tier         string
	Episodes, Successes int
	observations        int // the worlds the interval counts (results.Group.Observations)
	Rate, Low, High     float64
	// The tier's episodes the agent failed (agent_error) and the planned
	// ones without a result: its success is not the agent's whole play.
	AgentErrors, Missing int
}

// Comparison is several runs of one suite side by side.
type Comparison struct {
	Suite   string
	Agents  []string                   // each run's label: its agent (and model), and its directory when two share one
	Dirs    []string                   // the run directories, in Agents order
	Runs    []*results.Definition      // each run's definition (nil for runs written before run.json)
	Builds  []string                   // each run's builds (summary.json), on one line
	Tiers   []TierSuccess              // agent-major, tiers in order
	Groups  map[string][]results.Group // "family/tier (view, feedback)" → one group per agent, in Agents order
	Keys    []string                   // sorted family/tier keys
	Pairs   []Paired                   // every two runs, by tier and overall
	Overall []results.Group            // each run's overall row, in Agents order (success, cost)
	Metrics []MetricTable              // every declared metric by family × tier per run
	Times   []results.TimingSummary    // each run's wall times (timings.jsonl; zero when it has none)
	Mixed   bool                       // the runs played from different suite locks (unpaired)
}

// CompareOptions say how runs may be compared.
type CompareOptions struct {
	// AllowMixed compares runs played from different suite locks: their
	// episodes are not the same, so they are compared unpaired.
	AllowMixed bool
}

// Compare reads the summary.json and results.jsonl of run directories (one
// agent each, same suite), pools success per tier, and compares every two
// runs on the episodes they share (paired). Runs of different suite locks
// are refused unless o.AllowMixed.
func Compare(dirs []string, o CompareOptions) (*Comparison, error) {
	c := &Comparison{Groups: map[string][]results.Group{}}
	order := map[string]results.Group{}
	var missing []map[string]int // each run's missing episodes by scope
	var all [][]results.Result
	var locks, salts []string
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, results.SummaryFile))
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		var s results.Summary
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("compare: %s: %w", filepath.Join(d, results.SummaryFile), err)
		}
		if c.Suite != "" && s.Suite != c.Suite {
			return nil, fmt.Errorf("compare: %s ran suite %s, not %s", d, s.Suite, c.Suite)
		}
		if s.Lock == "" && s.Episodes == 0 && s.Run != nil {
			s.Lock = s.Run.Lock // no result yet (an agent that could not start): the lock it was to play
		}
		if len(locks) > 0 && s.Lock != locks[0] {
			if !o.AllowMixed {
				return nil, fmt.Errorf("compare: %s played from suite lock %s, %s from %s: not the same episodes (--allow-mixed compares them unpaired)",
					d, lockName(s.Lock), dirs[0], lockName(locks[0]))
			}
			c.Mixed = true
		}
		locks = append(locks, s.Lock)
		if len(salts) > 0 && s.SaltCommitment != salts[0] {
			if !o.AllowMixed {
				return nil, fmt.Errorf("compare: %s played on %s, %s on %s: salt commitment differs, not the same worlds (--allow-mixed compares them unpaired)",
					d, task.SeedsLabel(s.SaltCommitment), dirs[0], task.SeedsLabel(salts[0]))
			}
			c.Mixed = true
		}
		salts = append(salts, s.SaltCommitment)
		rs, err := results.Read(filepath.Join(d, results.ResultsFile))
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		all = append(all, rs)
		missing = append(missing, missingByScope(s))
		c.Overall = append(c.Overall, s.Overall)
		ts, err := results.ReadTimings(d)
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		c.Times = append(c.Times, results.SummarizeTimings(ts))
		c.Suite = s.Suite
		label := s.Agent
		if s.Run != nil && s.Run.Model != "" {
			label += " (" + s.Run.Model + ")"
		}
		c.Agents, c.Dirs, c.Runs = append(c.Agents, label), append(c.Dirs, d), append(c.Runs, s.Run)
		c.Builds = append(c.Builds, buildsLine(s))
		byTier := map[string]*TierSuccess{}
		for _, g := range s.Groups {
			if g.AgentErrors == 0 {
				g.AgentErrors = g.Ends[string(task.EndAgentError)] // a summary written before groups counted them
			}
			ts := byTier[g.Tier]
			if ts == nil {
				ts = &TierSuccess{Run: len(c.Agents) - 1, Agent: label, Tier: g.Tier}
				byTier[g.Tier] = ts
			}
			ts.Episodes += g.Episodes
			ts.Successes += g.Successes
			ts.AgentErrors += g.AgentErrors
			ts.Missing += g.Missing
			ts.observations += g.Observations()
			k := fmt.Sprintf("%s/%s (%s view, %s feedback, budget %d)", g.Family, g.Tier, g.Observability, g.Feedback, g.Budget)
			if _, ok := c.Groups[k]; !ok {
				c.Keys = append(c.Keys, k)
				order[k] = g // its family, tier, condition and budget, to sort by
			}
			// One cell per run, in the runs' order: a run that did not
			// play this group leaves its cell empty (Episodes 0, shown
			// "–") rather than shifting the others under the wrong run.
			run := len(c.Agents) - 1
			for len(c.Groups[k]) < run {
				c.Groups[k] = append(c.Groups[k], results.Group{})
			}
			c.Groups[k] = append(c.Groups[k], g)
		}
		for _, t := range task.TierOrder() {
			if ts := byTier[t]; ts != nil {
				ts.Rate = results.Fraction(ts.Successes, ts.Episodes)
				ts.Low, ts.High = results.WilsonRate(ts.Rate, ts.observations) // over worlds: a fixed map's seeds are one
				c.Tiers = append(c.Tiers, *ts)
			}
		}
	}
	for k := range c.Groups {
		for len(c.Groups[k]) < len(c.Agents) {
			c.Groups[k] = append(c.Groups[k], results.Group{})
		}
	}
	// Two runs of one agent are told apart by their directories.
	count := map[string]int{}
	for _, a := range c.Agents {
		count[a]++
	}
	for i, a := range c.Agents {
		if count[a] > 1 {
			c.Agents[i] = a + " [" + filepath.Base(filepath.Clean(dirs[i])) + "]"
		}
	}
	for k := range c.Tiers {
		c.Tiers[k].Agent = c.Agents[c.Tiers[k].Run]
	}
	sort.Slice(c.Keys, func(i, j int) bool {
		a, b := order[c.Keys[i]], order[c.Keys[j]]
		switch {
		case a.Family != b.Family:
			return a.Family < b.Family
		case a.Tier != b.Tier:
			return task.TierRank(a.Tier) < task.TierRank(b.Tier)
		case a.Observability != b.Observability:
			return a.Observability > b.Observability // partial before full
		case a.Feedback != b.Feedback:
			return a.Feedback < b.Feedback
		}
		return a.Budget < b.Budget
	})
	c.Metrics = metricTables(c.Agents, all)
	for i := range dirs {
		for j := i + 1; j < len(dirs); j++ {
			c.Pairs = append(c.Pairs, comparePair(c.Agents[i], c.Agents[j], all[i], all[j], locks[i] == locks[j], missing[i], missing[j])...)
		}
	}
	return c, nil
}

func lockName(h string) string {
	if h == "" {
		return "none (generated tasks)"
	}
	return h[:min(len(h), 12)]
}

// WriteComparison writes a self-contained HTML page: success by tier per
// agent with 95% Wilson intervals, and the per family × tier table.
func WriteComparison(path string, c *Comparison) error {
	var buf bytes.Buffer
	if err := compareTemplate.Execute(&buf, map[string]any{"C": c, "Chart": compareChart(c), "Cost": costChart(c)}); err != nil {
		return fmt.Errorf("comparison: %w", err)
	}
	return results.WriteAtomic(path, buf.Bytes())
}

func agentColor(i int) string {
	return []string{"#c0504d", "#d08c2f", "#3a7ca5", "#2f9e6e", "#7b5ea7", "#6d6d6d"}[i%6]
}

func compareChart(c *Comparison) template.HTML {
	const barW, h, top, left = 26, 200, 20, 40
	var b, bars bytes.Buffer
	x := left
	for _, t := range []string{"easy", "medium", "hard", "expert"} {
		x0, any := x, false
		for i, a := range c.Agents {
			for _, ts := range c.Tiers {
				if ts.Agent != a || ts.Tier != t {
					continue
				}
				any = true
				y := top + h - int(math.Round(ts.Rate*h))
				fmt.Fprintf(&bars, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s on %s: %.1f%% [%.1f, %.1f] of %d</title></rect>`,
					x, y, barW, top+h-y, agentColor(i), a, t, 100*ts.Rate, 100*ts.Low, 100*ts.High, ts.Episodes)
				lo, hi := top+h-int(math.Round(ts.Low*h)), top+h-int(math.Round(ts.High*h))
				fmt.Fprintf(&bars, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/><line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/><line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/>`,
					x+barW/2, x+barW/2, lo, hi, x+barW/2-5, x+barW/2+5, lo, lo, x+barW/2-5, x+barW/2+5, hi, hi)
				x += barW + 3
			}
		}
		if any {
			fmt.Fprintf(&bars, `<text x="%d" y="%d" text-anchor="middle" font-size="12">%s</text>`, (x0+x)/2, top+h+16, t)
			x += 24
		}
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="success by tier per agent">`, x+130, top+h+30)
	for _, p := range []int{0, 25, 50, 75, 100} {
		y := top + h - p*h/100
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/><text x="%d" y="%d" font-size="10" text-anchor="end">%d%%</text>`, left-4, x, y, y, left-6, y+3, p)
	}
	b.Write(bars.Bytes())
	for i, a := range c.Agents {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" font-size="11">%s</text>`, x+10, top+16*i, agentColor(i), x+24, top+16*i+9, template.HTMLEscapeString(a))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var compareTemplate = template.Must(template.New("compare").Funcs(template.FuncMap{
	"pct": func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	// diff shows a difference with its interval: points for percentages.
	"diff": func(d, lo, hi float64, percent bool) string {
		if percent {
			return fmt.Sprintf("%+.1f [%+.1f, %+.1f] points", 100*d, 100*lo, 100*hi)
		}
		return fmt.Sprintf("%+.3g [%+.3g, %+.3g]", d, lo, hi)
	},
	"pvalue": func(p float64) string {
		if p < 0.001 {
			return "< 0.001"
		}
		return fmt.Sprintf("%.3f", p)
	},
	"lock": lockName,
	"ms": func(x float64) string {
		if x >= 1000 {
			return fmt.Sprintf("%.2f s", x/1000)
		}
		return fmt.Sprintf("%.3g ms", x)
	},
	"mean": func(m MetricCell, percent bool) string {
		switch {
		case m.N == 0:
			return "–"
		case percent:
			return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*m.Mean, 100*m.Lo, 100*m.Hi)
		}
		return fmt.Sprintf("%s [%s, %s]", figure(m.Mean), figure(m.Lo), figure(m.Hi))
	},
	// seeds labels public and held-out seeds (docs/tasks.md).
	"seeds": task.SeedsLabel,
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Longcraft: {{.C.Suite}} suite</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px} td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:right} th{background:#f5f5f5} td.l,th.l{text-align:left}</style></head><body>
<h1>Agents on the {{.C.Suite}} suite</h1>
<h2>Runs</h2>
<table><tr><th class="l">run</th><th class="l">directory</th><th class="l">model</th><th class="l">suite lock, seeds</th><th class="l">rules</th><th class="l">built from</th><th title="wall-clock time of an episode (generation, play, scoring) on the machine that played it: median / 90th percentile, from timings.jsonl">wall time per episode</th><th title="the episode's wall time over the agent's decisions: median / 90th percentile">per decision</th></tr>
{{range $i, $a := .C.Agents}}{{$r := index $.C.Runs $i}}<tr><td class="l">{{$a}}</td><td class="l"><code>{{index $.C.Dirs $i}}</code></td>
<td class="l">{{if $r}}{{if $r.Model}}{{$r.Model}}{{if $r.BaseURL}} at {{$r.BaseURL}}{{end}}, temperature {{$r.Temperature}}{{else}}–{{end}}{{else}}–{{end}}</td>
<td class="l">{{if $r}}<code>{{lock $r.Lock}}</code>, {{seeds $r.SaltCommitment}}{{else}}–{{end}}</td><td class="l">{{if $r}}{{range $r.Rules}}{{.}} {{end}}{{else}}–{{end}}</td><td class="l">{{index $.C.Builds $i}}</td>
{{$t := index $.C.Times $i}}<td>{{if $t.Episodes}}{{ms $t.WallMedianMs}} / {{ms $t.WallP90Ms}}{{else}}–{{end}}</td><td>{{if $t.Episodes}}{{ms $t.PerStepMedianMs}} / {{ms $t.PerStepP90Ms}}{{else}}–{{end}}</td></tr>
{{end}}</table>
{{if .C.Mixed}}<p><b>The runs played from different suite locks or seeds</b>: they did not play the same episodes, so they are compared unpaired.</p>{{end}}
<h2>Comparisons</h2>
<p>Every two runs, by tier and over all tiers. Paired on the episodes both played (the same lock, episode id, world seed and goal): the difference in success with Newcombe's 95% interval for paired proportions (his 1998 method 10) and an exact McNemar test on the discordant episodes; the other metrics' differences get 95% paired bootstrap intervals (2,000 resamples, seeded); unpaired runs get Newcombe's interval for independent proportions and no test.</p>
<ul>{{range .C.Pairs}}<li>{{.Sentence}}</li>{{end}}</ul>
<table><tr><th class="l">A</th><th class="l">B</th><th class="l">scope</th><th>pairs</th><th>A only / B only</th><th>success A − B</th><th>p (McNemar)</th><th class="l">other metrics, A − B (paired bootstrap)</th></tr>
{{range .C.Pairs}}<tr><td class="l">{{.A}}</td><td class="l">{{.B}}</td><td class="l">{{.Scope}}</td>
<td>{{if .Unpaired}}unpaired ({{.NA}}, {{.NB}}){{else}}{{.N}}{{end}}</td><td>{{if .Unpaired}}–{{else}}{{.OnlyA}} / {{.OnlyB}}{{end}}</td>
{{if .Refused}}<td colspan="3" class="l"><b>no difference stated</b>: {{.Refused}}</td>{{else}}<td>{{diff .Diff .Lo .Hi true}}</td><td>{{if .Unpaired}}–{{else}}{{pvalue .P}}{{end}}</td>
<td class="l">{{range .Metrics}}{{.Title}} {{diff .Diff .Lo .Hi .Percent}} (n {{.N}}); {{end}}</td>{{end}}</tr>
{{end}}</table>
<h2>Success by tier (all families pooled, 95% Wilson intervals)</h2>
{{.Chart}}
{{if .Cost}}<h2>Success against cost</h2>
<p>Each run's success over all its episodes (95% Wilson interval) against its cost per episode at its prices (runs without prices are left out).</p>
{{.Cost}}{{end}}
<table><tr><th class="l">agent</th><th class="l">tier</th><th>episodes</th><th>success</th><th>95% CI</th><th title="episodes that ended agent_error: the agent failed, not the task">agent errors</th><th title="planned episodes without a result">missing</th></tr>
{{range .C.Tiers}}<tr><td class="l">{{.Agent}}</td><td class="l">{{.Tier}}</td><td>{{.Episodes}}</td><td>{{pct .Rate}}</td><td>{{pct .Low}}–{{pct .High}}</td><td>{{if .AgentErrors}}<b>{{.AgentErrors}}</b>{{else}}0{{end}}</td><td>{{if .Missing}}<b>{{.Missing}}</b>{{else}}0{{end}}</td></tr>{{end}}</table>
<h2>Every metric by family and tier</h2>
<p>Means over the episodes that measured the metric, with 95% intervals (normal approximation, mean ± 1.96 standard errors); "–": no episode measured it. docs/metrics.md defines each.</p>
{{range .C.Metrics}}<h3 title="{{.Definition}}">{{.Title}}</h3>
<table><tr><th class="l">family/tier</th>{{range $.C.Agents}}<th>{{.}}</th>{{end}}</tr>
{{$m := .}}{{range .Rows}}<tr><td class="l">{{.Key}}</td>{{range .Cells}}<td>{{mean . $m.Percent}}</td>{{end}}</tr>{{end}}</table>{{end}}
<h2>Success by family and tier</h2>
<table><tr><th class="l">family/tier</th>{{range .C.Agents}}<th>{{.}}</th>{{end}}</tr>
{{range $k := .C.Keys}}<tr><td class="l">{{$k}}</td>{{range index $.C.Groups $k}}<td>{{if .Episodes}}{{pct .Rate}} [{{pct .Low}}, {{pct .High}}]{{else}}–{{end}}{{if .AgentErrors}}<br><b>{{.AgentErrors}} agent errors</b>{{end}}{{if .Missing}}<br><b>{{.Missing}} missing</b>{{end}}</td>{{end}}</tr>{{end}}</table>
</body></html>
`))

// costChart plots each priced run's success against its cost per
// episode; "" when no run has prices.
func costChart(c *Comparison) template.HTML {
	const w, h, left, top = 420, 200, 50, 10
	most := 0.0
	for _, g := range c.Overall {
		if g.Cost.OK && g.Episodes > 0 {
			most = math.Max(most, g.Cost.Value/float64(g.Episodes))
		}
	}
	if most == 0 {
		return ""
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="success against cost">`, left+w+160, top+h+34)
	for _, p := range []int{0, 25, 50, 75, 100} {
		y := top + h - p*h/100
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/><text x="%d" y="%d" font-size="10" text-anchor="end">%d%%</text>`, left, left+w, y, y, left-4, y+3, p)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10">$0</text><text x="%d" y="%d" font-size="10" text-anchor="end">$%.4g per episode</text>`, left, top+h+14, left+w, top+h+14, most)
	for i, g := range c.Overall {
		if !g.Cost.OK || g.Episodes == 0 {
			continue
		}
		x := left + int(g.Cost.Value/float64(g.Episodes)/most*w*0.95)
		y, lo, hi := top+h-int(g.Rate*h), top+h-int(g.Low*h), top+h-int(g.High*h)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/><circle cx="%d" cy="%d" r="5" fill="%s"><title>%s: %.1f%% at $%.4g per episode</title></circle><text x="%d" y="%d" font-size="11">%s</text>`,
			x, x, lo, hi, x, y, agentColor(i), template.HTMLEscapeString(c.Agents[i]), 100*g.Rate, g.Cost.Value/float64(g.Episodes), x+8, y+4, template.HTMLEscapeString(c.Agents[i]))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// MetricTable is one metric by family × tier, one cell per run.
type MetricTable struct {
	Name, Title, Definition string
	Percent                 bool
	Rows                    []MetricRow
}

// MetricRow is one family × tier of a MetricTable.
type MetricRow struct {
	Key   string
	Cells []MetricCell // in the runs' order
}

// MetricCell is a metric's mean over one run's episodes of a group, with a
// 95% normal-approximation interval; N = 0: none measured it.
type MetricCell struct {
	N            int
	Mean, Lo, Hi float64
}

// metricTables tabulates every declared metric measured by some run, by
// family and tier (tiers in order).
func metricTables(labels []string, runs [][]results.Result) []MetricTable {
	type key struct{ family, tier string }
	var keys []key
	seen := map[key]bool{}
	for _, rs := range runs {
		for _, r := range rs {
			k := key{r.Spec.Family, r.Spec.Tier}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].family != keys[j].family {
			return keys[i].family < keys[j].family
		}
		return task.TierRank(keys[i].tier) < task.TierRank(keys[j].tier)
	})
	var tables []MetricTable
	for _, m := range results.Metrics() {
		t := MetricTable{Name: m.Name, Title: m.Title, Definition: m.Definition, Percent: m.Percent}
		measured := false
		for _, k := range keys {
			row := MetricRow{Key: k.family + "/" + k.tier}
			for range labels {
				row.Cells = append(row.Cells, MetricCell{})
			}
			for i, rs := range runs {
				var xs []float64
				for _, r := range rs {
					if r.Err == "" && r.Spec.Family == k.family && r.Spec.Tier == k.tier {
						if v, ok := m.Of(r); ok {
							xs = append(xs, v)
						}
					}
				}
				row.Cells[i] = meanInterval(xs, m.Percent)
				measured = measured || len(xs) > 0
			}
			t.Rows = append(t.Rows, row)
		}
		if measured {
			tables = append(tables, t)
		}
	}
	return tables
}

// figure prints a number with three significant digits, in full above
// 1,000 (no "1e+03").
func figure(x float64) string {
	if math.Abs(x) >= 1000 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// meanInterval is the mean of xs with mean ± 1.96 standard errors, the
// interval kept within what the values can be: not below 0 when none is
// negative, not above 1 when none exceeds it and the metric is a fraction
// (the normal approximation overshoots on few episodes).
func meanInterval(xs []float64, fraction bool) MetricCell {
	c := MetricCell{N: len(xs)}
	if c.N == 0 {
		return c
	}
	defer func() {
		if slices.Min(xs) >= 0 {
			c.Lo = math.Max(c.Lo, 0)
		}
		if fraction && slices.Max(xs) <= 1 {
			c.Hi = math.Min(c.Hi, 1)
		}
	}()
	for _, x := range xs {
		c.Mean += x
	}
	c.Mean /= float64(c.N)
	if c.N > 1 {
		ss := 0.0
		for _, x := range xs {
			ss += (x - c.Mean) * (x - c.Mean)
		}
		se := math.Sqrt(ss/float64(c.N-1)) / math.Sqrt(float64(c.N))
		c.Lo, c.Hi = c.Mean-1.96*se, c.Mean+1.96*se
	} else {
		c.Lo, c.Hi = c.Mean, c.Mean
	}
	return c
}

// buildsLine is the builds that played a run's results, on one line.
func buildsLine(s results.Summary) string {
	if len(s.Builds) == 0 {
		return "not recorded"
	}
	parts := make([]string, len(s.Builds))
	for i, b := range s.Builds {
		parts[i] = b.String()
	}
	return strings.Join(parts, "; ")
}
