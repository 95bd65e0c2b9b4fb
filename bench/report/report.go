// Package report turns run directories into pages a researcher reads:
// report.html for one run (success by group with Wilson intervals, the
// declared metrics per group with their intervals, the failures) and the
// comparison of several runs, group by group (results.GroupKey, the one
// grouping). Every figure comes from bench/results; nothing here computes a
// metric of its own.
//
// It must not import the runner, the agents or any host: a report is
// written from results alone.
package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"slices"
	"sort"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// WriteReport writes report.html: one self-contained page (inline CSS and
// SVG, no scripts from anywhere) with success by tier and family, metric
// distributions, the per-group table and the failed episodes as evidence.
func WriteReport(path string, s results.Summary, rs []results.Result) error {
	var buf bytes.Buffer
	if err := reportTemplate.Execute(&buf, reportData(s, rs)); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return results.WriteAtomic(path, buf.Bytes())
}

type reportView struct {
	S        results.Summary
	Anytime  template.HTML    // success by step, per tier
	Open     bool             // no task defines success (crafter, balrog-crafter): Crafter's score and progression lead, no success figure or chart
	Rulesets []rulesetView    // the open-ended episodes' figures, per ruleset
	Reasons  template.HTML    // failed actions by reason, and failed episodes by end
	Sweeps   []Sweep          // success against each swept axis (budget, scenario knobs)
	All      []results.Metric // every declared metric, for the definitions
	Cols     []results.Metric // the per-group table's metrics
	XCols    []results.Metric // the external agents' table's
	Success  template.HTML    // chart
	Hists    []template.HTML
	Groups   []results.Group
	Failures []results.Result
	More     int
}

func reportData(s results.Summary, rs []results.Result) reportView {
	v := reportView{S: s, Groups: s.Groups, All: results.Metrics(), Open: s.SuccessUndefined()}
	if !v.Open {
		v.Success = successChart(s.Groups)
		v.Anytime = anytimeChart(rs)
		v.Sweeps = sweepCharts(s.Groups)
	}
	v.Rulesets = rulesetViews(s, rs)
	v.Reasons = reasonChart(rs)
	for _, m := range results.Metrics() {
		if m.External {
			v.XCols = append(v.XCols, m)
		} else {
			v.Cols = append(v.Cols, m)
		}
		if !m.Histogram {
			continue
		}
		var xs []float64
		for _, r := range rs {
			if x, ok := m.Of(r); ok && r.Err == "" {
				xs = append(xs, x)
			}
		}
		v.Hists = append(v.Hists, histogram(m.Title, xs, m.Max))
	}
	for _, r := range rs {
		if !r.Success && results.HasSuccess(r) {
			v.Failures = append(v.Failures, r)
		}
	}
	sort.Slice(v.Failures, func(i, j int) bool { return v.Failures[i].Index < v.Failures[j].Index })
	if len(v.Failures) > 500 {
		v.More, v.Failures = len(v.Failures)-500, v.Failures[:500]
	}
	return v
}

// successChart draws success with its Wilson interval, one labelled bar
// per group (the summary's) whose tasks define success, coloured by tier.
func successChart(gs []results.Group) template.HTML {
	gs = judgedGroups(gs)
	var rows []string
	var cells [][]barCell
	for _, g := range gs {
		rows = append(rows, g.Key().Label())
		cells = append(cells, []barCell{{g.Rate, g.Low, g.High, g.Episodes}})
	}
	return groupBars("success by group", rows, []string{"success"}, func(i, _ int) string { return tierColor(gs[i].Tier) }, cells)
}

// palette is the charts' colours, in order.
var palette = [...]string{"#7b5ea7", "#3a7ca5", "#2f9e6e", "#d08c2f", "#c0504d", "#6d6d6d", "#b5651d", "#1b998b", "#e84855", "#5c6bc0"}

// colorsOf gives every family label of gs its colour: a family's own
// (familyColor), and the labels that are no family (scenarios) the
// palette's next colours in the order they appear, so no two share one.
func colorsOf(gs []results.Group) map[string]string {
	out := map[string]string{}
	next := len(task.Families())
	for _, g := range gs {
		if _, ok := out[g.Family]; ok {
			continue
		}
		if slices.Contains(task.Families(), g.Family) {
			out[g.Family] = familyColor(g.Family)
			continue
		}
		out[g.Family] = palette[next%len(palette)]
		next++
	}
	return out
}

// familyColor is a family's colour: its place in task.Families, so a new
// family gets one of its own.
func familyColor(f string) string {
	for i, name := range task.Families() {
		if name == f {
			return palette[i%len(palette)]
		}
	}
	return "#999" // a scenario's label: colorsOf gives it one by order
}

// histogram draws the distribution of xs in 20 bins over [0, max] (max 0:
// the largest value).
func histogram(name string, xs []float64, hi float64) template.HTML {
	const bins, w, h = 20, 300, 110
	if hi == 0 {
		for _, x := range xs {
			hi = math.Max(hi, x)
		}
	}
	counts := make([]int, bins)
	most := 1
	for _, x := range xs {
		i := 0
		if hi > 0 {
			i = min(int(x/hi*bins), bins-1)
		}
		counts[max(i, 0)]++
		most = max(most, counts[max(i, 0)])
	}
	// A y-axis of episode counts on the left, the bins' range below.
	const left, top = 34, 6
	var b bytes.Buffer
	fmt.Fprintf(&b, `<figure><svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="%s">`, left+w, top+h+18, template.HTMLEscapeString(name))
	for _, tick := range []int{0, most / 2, most} {
		y := top + h - tick*h/most
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/><text x="%d" y="%d" font-size="10" text-anchor="end">%d</text>`, left-3, left+w, y, y, left-5, y+3, tick)
	}
	fmt.Fprintf(&b, `<text x="8" y="%d" font-size="10" transform="rotate(-90 8 %d)" text-anchor="middle">episodes</text>`, top+h/2, top+h/2)
	for i, c := range counts {
		bh := c * h / most
		x0, x1 := hi*float64(i)/bins, hi*float64(i+1)/bins
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="#3a7ca5"><title>%d episodes in [%s, %s)</title></rect>`, left+i*w/bins+1, top+h-bh, w/bins-2, bh, c, results.Number(x0), results.Number(x1))
	}
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#444"/><line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#444"/><text x="%d" y="%d" font-size="10">0</text><text x="%d" y="%d" font-size="10" text-anchor="end">%s</text></svg>`,
		left, left+w, top+h, top+h, left, left, top, top+h, left, top+h+14, left+w, top+h+14, results.Number(hi))
	fmt.Fprintf(&b, `<figcaption>%s: episodes per bin (%d episodes)</figcaption></figure>`, template.HTMLEscapeString(name), len(xs))
	return template.HTML(b.String())
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": results.Percent,
	"num": results.Number,
	// ungenerated: the episodes that could not be generated (errors
	// also counts the agent's).
	"ungenerated": func(s results.Summary) int { return s.Errors - s.AgentErrors },
	// cell shows a group's metric: the mean (a percentage) or mean /
	// median, and "–" where no episode measured it, never 0.
	"cell":    statCell,
	"success": successText,
	// seeds labels public and held-out seeds (docs/tasks.md).
	"seeds": task.SeedsLabel,
	// skill shows a group's probe skill with its interval and claims.
	"skill": func(p *results.ProbeSkill) string { return p.String() },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Longcraft: {{.S.Agent}} on {{.S.Suite}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px} td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:right}
th{background:#f5f5f5} td.l,th.l{text-align:left} .hists{display:flex;flex-wrap:wrap;gap:1.5em}
figure{margin:0} figcaption{font-size:12px;color:#555} code{font-size:12px;background:#f4f4f4;padding:1px 3px}
.wide{overflow-x:auto;max-width:100%} .wide svg{display:block} small{color:#555} td[data-metric]{white-space:nowrap}
</style></head><body>
<h1>{{.S.Agent}} on the {{.S.Suite}} suite</h1>
{{with .S.Run}}<div class="wide"><table class="run"><tr><th class="l">agent</th><td class="l">{{.Agent}}{{if .Model}}: model {{.Model}}{{if .BaseURL}} at {{.BaseURL}}{{end}}, temperature {{.Temperature}}, max tokens {{.MaxTokens}}, history {{.History}}{{if .HistoryToks}} (at most {{.HistoryToks}} tokens){{end}}{{if .ImageSize}}, images {{.ImageSize}} px{{end}}{{if .Symbolic}}, symbolic view{{end}}{{if .Reply}}, replies {{.Reply}}{{end}}{{if .Notes}}, scratchpad on{{end}}{{if .Prompt}}, prompt {{.Prompt}}{{end}}{{if .MaxEpisodeTokens}}, at most {{.MaxEpisodeTokens}} tokens an episode{{end}}{{if .MaxRunTokens}}, at most {{.MaxRunTokens}} tokens a run{{end}}{{if .MaxRunCost}}, at most ${{.MaxRunCost}} a run{{end}}{{end}}</td></tr>
<tr><th class="l">suite</th><td class="l">{{.Suite}} ({{.Episodes}} episodes{{if gt .Shards 1}}, shard {{.Shard}} of {{.Shards}}{{end}}){{if .Lock}}, lock <code>{{.Lock}}</code>{{end}}</td></tr>
<tr><th class="l">rules</th><td class="l">{{range .Rules}}{{.}} {{end}}</td></tr>
<tr><th class="l">episodes end</th><td class="l">at the goal, death or the budget{{if .NoProgress}}; after {{.NoProgress}} steps without progress{{end}}{{if .TimeoutMs}}; after {{.TimeoutMs}} ms{{end}}; tasks {{if .Certify}}certified by the planner{{else}}not certified{{end}}; traces: {{.Traces}}</td></tr>
</table></div>
<p>When, where and by which build it was played: <code>invocations.jsonl</code> beside this page.</p>{{end}}
<p class="provenance">Built from {{range $i, $b := .S.Builds}}{{if $i}}; {{end}}<code title="{{$b.Revision}}">{{$b}}</code>{{if $b.Time}}, committed {{$b.Time}}{{end}}{{else}}a build not recorded (results written before Longcraft recorded builds){{end}}{{if gt (len .S.Builds) 1}}: the results were played by several builds (a resumed or merged run){{end}}.</p>
{{if .S.Unverified}}<p><b>{{.S.Unverified}} of {{.S.Episodes}} results unverified</b>: they have no trace (traces {{with .S.Run}}{{.Traces}}{{else}}not kept{{end}}, or a trace was lost and the agent is not deterministic), so they stand on the runner's word; <code>longcraft verify</code> re-derives the others from their traces.</p>{{else}}<p>Every result has a trace: <code>longcraft verify</code> re-derives each from it.</p>{{end}}
{{if .S.AgentErrors}}<p><b>{{.S.AgentErrors}} of {{.S.Episodes}} episodes ended agent_error</b>: the agent failed (no reply, a crash, a timeout), so they are not its play; the groups below count them, and a comparison states no difference for a group that has them.</p>{{end}}
{{if .S.Partial}}<p><b>Partial run</b>: {{.S.Episodes}} of {{.S.Planned}} episodes have a result; <code>longcraft score --resume</code> continues it.</p>{{end}}
<p>{{if .S.Lock}}Tasks from suite lock <code>{{.S.Lock}}</code>, {{else}}Tasks on {{end}}<b>{{seeds .S.SaltCommitment}}</b>{{if .S.SaltCommitment}} (salt commitment <code>{{.S.SaltCommitment}}</code>: the salt is revealed after the run is published, and <code>longcraft salt check</code> checks it){{end}}. {{.S.Episodes}} episodes{{if .Open}}, open-ended: no task defines success, so the figures are Crafter's score and progression{{else}}; success {{pct .S.Overall.Rate}} (95% Wilson interval {{pct .S.Overall.Low}} to {{pct .S.Overall.High}}){{end}}{{with ungenerated .S}}; {{.}} could not be generated{{end}}.</p>
{{if .Open}}{{template "open" .}}{{end}}
{{if not .Open}}<h2>Success by group</h2>
<p>Each row is one group of episodes (family, tier, view, feedback, budget, rules), as in the table below: success with its 95% Wilson interval.</p>
<div class="wide">{{.Success}}</div>
{{range .Sweeps}}<h2>{{.Title}}</h2>
<p>{{if eq .Key "budget"}}Each family × tier (and condition) played under several step budgets (a <code>--sweep budget=…</code>){{else}}Each scenario played under several values of <code>{{.Key}}</code> (a <code>--sweep {{.Key}}=…</code> or <code>--set</code>), the rest equal{{end}}: success with its 95% Wilson interval at each value; hover a point for the mean steps taken.</p>
<div class="wide">{{.Chart}}</div>{{end}}
<h2>Success by step (anytime)</h2>
<p>The fraction of a group's episodes that had reached their goal by each step, one chart per family and a line per group: where the curve rises is when the agent solves things; its end is the group's success.</p>
{{.Anytime}}
{{if .Rulesets}}{{template "open" .}}{{end}}{{end}}
<h2>What went wrong</h2>
<p>Failed actions by the reason the world gave (whatever the feedback level let the agent read), over all episodes; and how the episodes that failed ended.</p>
{{.Reasons}}
<h2>Distributions</h2>
<div class="hists">{{range .Hists}}{{.}}{{end}}</div>
<h2>Per family and tier</h2>
<p>Means over the episodes that measured the metric with their 95% intervals (a percentile bootstrap over worlds, docs/metrics.md), and below the others' their median ("–": no episode measured it). Hover a column for its definition (docs/metrics.md has them all).</p>
<div class="wide"><table class="groups"><tr><th class="l">family</th><th class="l">tier</th><th class="l">view / feedback</th><th>budget</th><th class="l">rules</th><th>episodes</th>{{if not .Open}}<th>success (95% CI)</th>{{end}}<th title="episodes that ended agent_error: the agent failed, not the task">agent errors</th><th title="planned episodes without a result (a partial run)">missing</th>{{range .Cols}}<th title="{{.Definition}} Not measured: {{.NotMeasured}}."><a href="#metric-{{.Name}}">{{.Title}}</a></th>{{end}}<th class="l">ends</th></tr>
{{range $g := .Groups}}<tr data-group="{{.Key.Label}}"><td class="l">{{.Family}}</td><td class="l">{{.Tier}}</td><td class="l">{{if .Observability}}{{.Observability}} / {{.Feedback}}{{else}}all{{end}}</td><td>{{if .Budget}}{{.Budget}}{{else}}–{{end}}</td><td class="l">{{if .Ruleset}}{{.Ruleset}}{{else}}–{{end}}</td><td>{{.Episodes}}{{with .WorldsNote}}<br><small>{{.}}</small>{{end}}</td>{{if $.Open}}{{else if .NoSuccess}}<td data-metric="success" title="no success defined">–</td>{{else}}<td data-metric="success">{{success .}}</td>{{end}}<td>{{if .AgentErrors}}<b>{{.AgentErrors}}</b>{{else}}0{{end}}</td><td>{{if .Missing}}<b>{{.Missing}}</b>{{else}}0{{end}}</td>
{{range $.Cols}}<td data-metric="{{.Name}}">{{cell (index $g.Metrics .Name) .}}</td>{{end}}
<td class="l">{{range $k, $v := .Ends}}{{$k}}: {{$v}} {{end}}</td></tr>
{{end}}</table></div>
{{if .S.Overall.Calls}}<h2>External agent: cost and knowledge</h2>
<div class="wide"><table><tr><th class="l">family</th><th class="l">tier</th><th class="l">view / feedback</th><th>model calls</th><th>tokens</th><th>tokens per success</th><th>cost (USD)</th><th>cost per success</th>{{range .XCols}}<th title="{{.Definition}} Not measured: {{.NotMeasured}}."><a href="#metric-{{.Name}}">{{.Title}}</a></th>{{end}}<th>beliefs / predictions scored</th><th title="Each probe's skill over the stronger of its baselines (nothing changes; the base rate), in [−1, 1]: the mean over the episodes, its 95% bootstrap interval, and the claims it rests on (docs/metrics.md).">state skill</th><th title="As state skill, for predictions.">world-model skill</th></tr>
{{range $g := .Groups}}<tr><td class="l">{{.Family}}</td><td class="l">{{.Tier}}</td><td class="l">{{.Observability}} / {{.Feedback}}</td><td>{{.Calls}}</td><td>{{.Tokens}}</td>
<td>{{if .TokensPerSuccess.OK}}{{num .TokensPerSuccess.Value}}{{else}}–{{end}}</td>
<td>{{if .Cost.OK}}{{printf "%.4f" .Cost.Value}}{{else}}–{{end}}</td><td>{{if .CostPerSuccess.OK}}{{printf "%.4f" .CostPerSuccess.Value}}{{else}}–{{end}}</td>
{{range $.XCols}}<td data-metric="{{.Name}}">{{cell (index $g.Metrics .Name) .}}</td>{{end}}
<td>{{.BeliefsScored}} / {{.PredictionsScored}}</td><td>{{skill .StateSkill}}</td><td>{{skill .WorldModelSkill}}</td></tr>
{{end}}</table></div>{{end}}
{{if not .Open}}<h2>Failed episodes</h2>
<p>Each is a trace in <code>episodes.lctrace</code>: render it with <code>longcraft render --trace episodes.lctrace --id ID</code>, or replay it in the browser: run <code>longcraft demo --traces RUN_DIR</code> (this report's directory) and follow the episode's link.</p>
<div class="wide"><table><tr><th class="l">id</th><th class="l">family</th><th class="l">tier</th><th>seed</th><th class="l">goal</th><th class="l">end</th><th>steps</th><th>milestones</th><th class="l">last outcome</th><th class="l">error</th></tr>
{{range .Failures}}<tr><td class="l"><a href="http://127.0.0.1:8080/?trace=traces/episodes.lctrace&amp;id={{.ID}}"><code>{{.ID}}</code></a></td><td class="l">{{.Spec.Family}}</td><td class="l">{{.Spec.Tier}}</td><td>{{.Seed}}</td><td class="l">{{.Goal}}</td><td class="l">{{.End}}</td><td>{{.Steps}}</td><td>{{.Milestones}}/{{.MilestonesOf}}</td><td class="l">{{.LastOutcome}}</td><td class="l">{{.Err}}{{.AgentError}}</td></tr>
{{end}}</table></div>{{if .More}}<p>… and {{.More}} more in results.jsonl.</p>{{end}}{{end}}
<h2>Definitions</h2>
<p>Every metric above, as declared once in Longcraft (docs/metrics.md is generated from the same declarations).</p>
<dl>{{range .All}}<dt id="metric-{{.Name}}"><b>{{.Title}}</b> (<code>{{.Name}}</code>; {{.Unit}}, {{.Range}})</dt><dd>{{.Definition}} Not measured: {{.NotMeasured}}.</dd>{{end}}</dl>
</body></html>
{{define "open"}}<h2>Open-ended episodes: Crafter score and progression, per ruleset</h2>
<p>Over each ruleset's own achievements, never pooled: Crafter's score is exp(mean ln(1 + s<sub>i</sub>)) − 1 over the ruleset's achievements, s<sub>i</sub> the percentage of episodes that unlocked achievement i (as Crafter computes it); progression is the mean over episodes of the achievements unlocked over the ruleset's count, ± its standard error (as BALROG reports it, over Crafter's 22 for the classic rules). docs/metrics.md has the definitions.</p>
<table><tr><th class="l">ruleset</th><th>achievements</th><th>episodes</th><th>Crafter score</th><th>progression</th><th>± standard error</th></tr>
{{range .Rulesets}}{{with .Line}}<tr><td class="l">{{.Ruleset}}</td><td>{{.Achievements}}</td><td>{{.Episodes}}</td>{{if .Err}}<td class="l" colspan="3">{{.Err}}</td>{{else}}<td><b>{{printf "%.2f" .CrafterScore}}%</b></td><td><b>{{printf "%.2f" .Progression}}%</b></td><td>{{printf "%.2f" .ProgressionSE}}</td>{{end}}</tr>{{end}}
{{end}}</table>
{{range .Rulesets}}<h3>{{.Line.Ruleset}} rules: achievements unlocked</h3>
<p>The percentage of the {{.Line.Episodes}} episodes that unlocked each achievement (the s<sub>i</sub> of Crafter's score), and the mean share of the {{.Line.Achievements}} achievements unlocked by each step (the anytime curve: it ends at the progression).</p>
<div class="hists">{{.Bars}}{{.Curve}}</div>{{end}}{{end}}
`))
