package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// TierSuccess is one agent's success on one tier, all families pooled.
type TierSuccess struct {
	Agent, Tier         string
	Episodes, Successes int
	Rate, Low, High     float64
}

// Comparison is several runs of one suite side by side.
type Comparison struct {
	Suite  string
	Agents []string
	Tiers  []TierSuccess              // agent-major, tiers in order
	Groups map[string][]results.Group // "family/tier (view, feedback)" → one group per agent, in Agents order
	Keys   []string                   // sorted family/tier keys
}

// Compare reads the summary.json of run directories (one agent each, same
// suite) and pools success per tier.
func Compare(dirs []string) (*Comparison, error) {
	c := &Comparison{Groups: map[string][]results.Group{}}
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
		c.Suite = s.Suite
		c.Agents = append(c.Agents, s.Agent)
		byTier := map[string]*TierSuccess{}
		for _, g := range s.Groups {
			ts := byTier[g.Tier]
			if ts == nil {
				ts = &TierSuccess{Agent: s.Agent, Tier: g.Tier}
				byTier[g.Tier] = ts
			}
			ts.Episodes += g.Episodes
			ts.Successes += g.Successes
			k := g.Family + "/" + g.Tier + " (" + g.Observability + " view, " + g.Feedback + " feedback)"
			if _, ok := c.Groups[k]; !ok {
				c.Keys = append(c.Keys, k)
			}
			c.Groups[k] = append(c.Groups[k], g)
		}
		for _, t := range task.Tiers() {
			if ts := byTier[t.Name]; ts != nil {
				ts.Rate = results.Fraction(ts.Successes, ts.Episodes)
				ts.Low, ts.High = results.Wilson(ts.Successes, ts.Episodes)
				c.Tiers = append(c.Tiers, *ts)
			}
		}
	}
	sort.Slice(c.Keys, func(i, j int) bool {
		fi, ti, _ := strings.Cut(c.Keys[i], "/")
		fj, tj, _ := strings.Cut(c.Keys[j], "/")
		if fi != fj {
			return fi < fj
		}
		return task.TierRank(ti) < task.TierRank(tj)
	})
	return c, nil
}

// WriteComparison writes a self-contained HTML page: success by tier per
// agent with 95% Wilson intervals, and the per family × tier table.
func WriteComparison(path string, c *Comparison) error {
	var buf bytes.Buffer
	if err := compareTemplate.Execute(&buf, map[string]any{"C": c, "Chart": compareChart(c)}); err != nil {
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
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Longcraft: {{.C.Suite}} suite</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px} td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:right} th{background:#f5f5f5} td.l,th.l{text-align:left}</style></head><body>
<h1>Agents on the {{.C.Suite}} suite</h1>
<h2>Success by tier (all families pooled, 95% Wilson intervals)</h2>
{{.Chart}}
<table><tr><th class="l">agent</th><th class="l">tier</th><th>episodes</th><th>success</th><th>95% CI</th></tr>
{{range .C.Tiers}}<tr><td class="l">{{.Agent}}</td><td class="l">{{.Tier}}</td><td>{{.Episodes}}</td><td>{{pct .Rate}}</td><td>{{pct .Low}}–{{pct .High}}</td></tr>{{end}}</table>
<h2>By family and tier</h2>
<table><tr><th class="l">family/tier</th>{{range .C.Agents}}<th>{{.}}</th>{{end}}</tr>
{{range $k := .C.Keys}}<tr><td class="l">{{$k}}</td>{{range index $.C.Groups $k}}<td>{{pct .Rate}} [{{pct .Low}}, {{pct .High}}]</td>{{end}}</tr>{{end}}</table>
</body></html>
`))
