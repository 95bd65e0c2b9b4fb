package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// Comparison is several runs of one suite side by side.
type Comparison struct {
	Suite  string
	Agents []string              // each run's label: its agent (and model), and its directory when two share one
	Dirs   []string              // the run directories, in Agents order
	Runs   []*results.Definition // each run's definition (nil for runs written before run.json)
	Builds []string              // each run's builds (summary.json), on one line
	// The runs' groups, exactly as their summaries have them (one
	// grouping everywhere: results.GroupKey): a group's label → one group
	// per run, in Agents order (Episodes 0: the run did not play it).
	Groups  map[string][]results.Group
	Keys    []string                // the groups' labels, in results.KeyLess order
	Pairs   []Paired                // every two runs, by group and overall
	Overall []results.Group         // each run's overall row, in Agents order (success, cost)
	Metrics []MetricTable           // every declared metric by group per run
	Times   []results.TimingSummary // each run's wall times (timings.jsonl; zero when it has none)
	Mixed   bool                    // the runs played from different suite locks (unpaired)
	// Open: no run's tasks define success (Crafter's free play), so the
	// page shows no success figure, only Rulesets.
	Open bool
	// Rulesets are the open-ended episodes' Crafter score and progression,
	// one row per ruleset with each run's line (nil: the run has none), as
	// each run's summary computes them: never pooled across rulesets.
	Rulesets []RulesetRow
}

// RulesetRow is one ruleset's open-ended figures, one per run.
type RulesetRow struct {
	Ruleset string
	Runs    []*results.RulesetScore // in Agents order
}

// CompareOptions say how runs may be compared.
type CompareOptions struct {
	// AllowMixed compares runs played from different suite locks: their
	// episodes are not the same, so they are compared unpaired.
	AllowMixed bool
}

// Compare reads the summary.json and results.jsonl of run directories (one
// agent each, same suite), puts their groups side by side, and compares
// every two runs on the episodes they share (paired), group by group and
// overall: no figure pools groups that a run's own report keeps apart. Runs of different suite locks
// are refused unless o.AllowMixed.
func Compare(dirs []string, o CompareOptions) (*Comparison, error) {
	cs := comparing{
		c:        &Comparison{Groups: map[string][]results.Group{}, Open: len(dirs) > 0},
		o:        o,
		order:    map[string]results.GroupKey{},
		rulesets: map[string]*RulesetRow{},
	}
	for _, d := range dirs {
		if err := cs.add(d, dirs[0]); err != nil {
			return nil, err
		}
	}
	return cs.finish(dirs), nil
}

func lockName(h string) string {
	if h == "" {
		return "none (generated tasks)"
	}
	return h[:min(len(h), 12)]
}

// WriteComparison writes a self-contained HTML page: the paired
// comparisons, success by group per agent with 95% Wilson intervals, and
// every metric by group, each figure as the run's own report shows it.
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

// compareChart draws every group's success per run, one labelled row per
// group (the runs' own groups) and one bar per run, with the Wilson
// intervals the runs' summaries give.
func compareChart(c *Comparison) template.HTML {
	var keys []string
	var cells [][]barCell
	for _, k := range c.Keys {
		var row []barCell
		judged := false
		for _, g := range c.Groups[k] {
			row = append(row, barCell{g.Rate, g.Low, g.High, g.Episodes})
			judged = judged || g.Episodes > 0 && !g.NoSuccess
		}
		if judged { // no bar of success where no task defines it
			keys, cells = append(keys, k), append(cells, row)
		}
	}
	return groupBars("success by group per agent", keys, c.Agents, func(_, j int) string { return agentColor(j) }, cells)
}

var compareTemplate = template.Must(template.New("compare").Funcs(template.FuncMap{
	"pct":     results.Percent,
	"success": successText,
	"stat":    statCell,
	// diff shows a difference with its interval: points for percentages.
	"diff": func(d, lo, hi float64, percent bool) string {
		if percent {
			return fmt.Sprintf("%+.1f [%+.1f, %+.1f] points", 100*d, 100*lo, 100*hi)
		}
		return results.SignedNumber(d) + " [" + results.SignedNumber(lo) + ", " + results.SignedNumber(hi) + "]"
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
		return results.Number(x) + " ms"
	},
	// seeds labels public and held-out seeds (docs/tasks.md).
	"seeds": task.SeedsLabel,
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Longcraft: {{.C.Suite}} suite</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px} td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:right} th{background:#f5f5f5} td.l,th.l{text-align:left}
.wide{overflow-x:auto;max-width:100%} .wide svg{display:block} small{color:#555} td[data-metric]{white-space:nowrap}</style></head><body>
<h1>Agents on the {{.C.Suite}} suite</h1>
<h2>Runs</h2>
<div class="wide"><table><tr><th class="l">run</th><th class="l">directory</th><th class="l">model</th><th class="l">suite lock, seeds</th><th class="l">rules</th><th class="l">built from</th><th title="wall-clock time of an episode (generation, play, scoring) on the machine that played it: median / 90th percentile, from timings.jsonl">wall time per episode</th><th title="the episode's wall time over the agent's decisions: median / 90th percentile">per decision</th></tr>
{{range $i, $a := .C.Agents}}{{$r := index $.C.Runs $i}}<tr><td class="l">{{$a}}</td><td class="l"><code>{{index $.C.Dirs $i}}</code></td>
<td class="l">{{if $r}}{{if $r.Model}}{{$r.Model}}{{if $r.BaseURL}} at {{$r.BaseURL}}{{end}}, temperature {{$r.Temperature}}{{else}}–{{end}}{{else}}–{{end}}</td>
<td class="l">{{if $r}}<code>{{lock $r.Lock}}</code>, {{seeds $r.SaltCommitment}}{{else}}–{{end}}</td><td class="l">{{if $r}}{{range $r.Rules}}{{.}} {{end}}{{else}}–{{end}}</td><td class="l">{{index $.C.Builds $i}}</td>
{{$t := index $.C.Times $i}}<td>{{if $t.Episodes}}{{ms $t.WallMedianMs}} / {{ms $t.WallP90Ms}}{{else}}–{{end}}</td><td>{{if $t.Episodes}}{{ms $t.PerStepMedianMs}} / {{ms $t.PerStepP90Ms}}{{else}}–{{end}}</td></tr>
{{end}}</table></div>
{{if .C.Mixed}}<p><b>The runs played from different suite locks or seeds</b>: they did not play the same episodes, so they are compared unpaired.</p>{{end}}
{{if .C.Rulesets}}<h2>Open-ended episodes: Crafter score and progression, per ruleset</h2>
<p>{{if .C.Open}}No task of this suite defines success, so the runs are compared on Crafter's score and progression. {{end}}Each ruleset over its own achievements, never pooled, as each run's report computes them: Crafter's score exp(mean ln(1 + s<sub>i</sub>)) − 1, progression the mean share of the ruleset's achievements unlocked ± its standard error (docs/metrics.md).</p>
<div class="wide"><table class="open"><tr><th class="l">ruleset</th>{{range .C.Agents}}<th>{{.}}: Crafter score</th><th>progression</th>{{end}}</tr>
{{range .C.Rulesets}}<tr data-ruleset="{{.Ruleset}}"><td class="l">{{.Ruleset}}</td>{{range .Runs}}{{if .}}{{if .Err}}<td colspan="2" class="l">{{.Err}}</td>{{else}}<td data-metric="crafter_score">{{printf "%.2f" .CrafterScore}}%</td><td data-metric="progression">{{printf "%.2f" .Progression}}% ± {{printf "%.2f" .ProgressionSE}} <small>({{.Episodes}} episodes)</small></td>{{end}}{{else}}<td>–</td><td>–</td>{{end}}{{end}}</tr>
{{end}}</table></div>{{end}}
<h2>Comparisons</h2>
<p>Every two runs, group by group (the groups of the runs' own reports) and over all their episodes. Paired on the episodes both played (the same lock, episode id, world seed and goal): the difference in success with Newcombe's 95% interval for paired proportions (his 1998 method 10) and an exact McNemar test on the discordant episodes; the other metrics' differences get 95% paired bootstrap intervals (2,000 resamples, seeded); unpaired runs get Newcombe's interval for independent proportions and no test.</p>
{{if not .C.Open}}<ul>{{range .C.Pairs}}{{if eq .Scope "all tiers"}}<li>{{.Sentence}}</li>{{end}}{{end}}</ul>
<h2>Success by group (95% Wilson intervals)</h2>
<div class="wide">{{.Chart}}</div>{{end}}
{{if .Cost}}<h2>Success against cost</h2>
<p>Each run's success over all its episodes (95% Wilson interval) against its cost per episode at its prices (runs without prices are left out).</p>
{{.Cost}}{{end}}
<h2>Comparisons by group</h2>
<div class="wide"><table><tr><th class="l">A</th><th class="l">B</th><th class="l">scope</th><th>pairs</th>{{if not .C.Open}}<th>A only / B only</th><th>success A − B</th><th>p (McNemar)</th>{{end}}<th class="l">other metrics, A − B (paired bootstrap)</th></tr>
{{range .C.Pairs}}<tr><td class="l">{{.A}}</td><td class="l">{{.B}}</td><td class="l">{{.Scope}}</td>
<td>{{if .Unpaired}}unpaired ({{.NA}}, {{.NB}}){{else}}{{.N}}{{end}}</td>{{if not $.C.Open}}<td>{{if or .Unpaired .NoSuccess}}–{{else}}{{.OnlyA}} / {{.OnlyB}}{{end}}</td>{{end}}
{{if .Refused}}<td colspan="{{if $.C.Open}}1{{else}}3{{end}}" class="l"><b>no difference stated</b>: {{.Refused}}</td>{{else}}{{if not $.C.Open}}<td>{{if .NoSuccess}}– <small>(no success defined)</small>{{else}}{{diff .Diff .Lo .Hi true}}{{end}}</td><td>{{if or .Unpaired .NoSuccess}}–{{else}}{{pvalue .P}}{{end}}</td>{{end}}
<td class="l">{{range .Metrics}}{{.Title}} {{diff .Diff .Lo .Hi .Percent}} (n {{.N}}); {{end}}</td>{{end}}</tr>
{{end}}</table></div>
{{if not .C.Open}}<h2>Success by group (table)</h2>
<div class="wide"><table class="groups"><tr><th class="l">group</th>{{range .C.Agents}}<th>{{.}}</th>{{end}}</tr>
{{range $k := .C.Keys}}<tr data-group="{{$k}}"><td class="l">{{$k}}</td>{{range $i, $g := index $.C.Groups $k}}<td data-run="{{$i}}" data-metric="success">{{if and .Episodes (not .NoSuccess)}}{{success .}}{{else}}–{{end}}{{if .AgentErrors}}<br><b>{{.AgentErrors}} agent errors</b>{{end}}{{if .Missing}}<br><b>{{.Missing}} missing</b>{{end}}</td>{{end}}</tr>{{end}}</table></div>{{end}}
<h2>Every metric by group</h2>
<p>Means over the episodes that measured the metric, with 95% intervals (a percentile bootstrap over worlds, which stays within the values' range; docs/metrics.md), as each run's report shows them; "–": no episode measured it. docs/metrics.md defines each.</p>
{{range .C.Metrics}}<h3 title="{{.Metric.Definition}}">{{.Metric.Title}}</h3>
<div class="wide"><table class="metric"><tr><th class="l">group</th>{{range $.C.Agents}}<th>{{.}}</th>{{end}}</tr>
{{$m := .Metric}}{{range .Rows}}<tr data-group="{{.Key}}"><td class="l">{{.Key}}</td>{{range $i, $st := .Cells}}<td data-run="{{$i}}" data-metric="{{$m.Name}}">{{stat $st $m}}</td>{{end}}</tr>{{end}}</table></div>{{end}}
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
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10">$0</text><text x="%d" y="%d" font-size="10" text-anchor="end">$%s per episode</text>`, left, top+h+14, left+w, top+h+14, results.Number(most))
	for i, g := range c.Overall {
		if !g.Cost.OK || g.Episodes == 0 {
			continue
		}
		x := left + int(g.Cost.Value/float64(g.Episodes)/most*w*0.95)
		y, lo, hi := top+h-int(g.Rate*h), top+h-int(g.Low*h), top+h-int(g.High*h)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/><circle cx="%d" cy="%d" r="5" fill="%s"><title>%s: %s at $%s per episode</title></circle><text x="%d" y="%d" font-size="11">%s</text>`,
			x, x, lo, hi, x, y, agentColor(i), template.HTMLEscapeString(c.Agents[i]), results.Percent(g.Rate), results.Number(g.Cost.Value/float64(g.Episodes)), x+8, y+4, template.HTMLEscapeString(c.Agents[i]))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// MetricTable is one metric by group, one cell per run: the stat of the
// run's summary group, so the comparison shows what the run's report does.
type MetricTable struct {
	Metric results.Metric
	Rows   []MetricRow
}

// MetricRow is one group of a MetricTable.
type MetricRow struct {
	Key   string         // the group's label
	Cells []results.Stat // in the runs' order; N 0: none measured it, or the run did not play the group
}

// metricTables tabulates every declared metric some run measured, by the
// comparison's groups.
func metricTables(c *Comparison) []MetricTable {
	var tables []MetricTable
	for _, m := range results.Metrics() {
		t := MetricTable{Metric: m}
		measured := false
		for _, k := range c.Keys {
			row := MetricRow{Key: k}
			for _, g := range c.Groups[k] {
				st := g.Metrics[m.Name]
				row.Cells = append(row.Cells, st)
				measured = measured || st.N > 0
			}
			t.Rows = append(t.Rows, row)
		}
		if measured {
			tables = append(tables, t)
		}
	}
	return tables
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
