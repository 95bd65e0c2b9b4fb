package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// tierColor is a tier's colour in the report's charts.
func tierColor(t string) string {
	return []string{"#2f9e6e", "#3a7ca5", "#d08c2f", "#c0504d", "#6d6d6d"}[min(task.TierRank(t), 4)]
}

// judgedGroups are the groups of gs whose tasks define success: the
// success charts draw no bar or line for the others (Group.NoSuccess).
func judgedGroups(gs []results.Group) []results.Group {
	var out []results.Group
	for _, g := range gs {
		if !g.NoSuccess {
			out = append(out, g)
		}
	}
	return out
}

// anytimeChart draws, for every group (the summary's), the fraction of
// its episodes that had succeeded by step t, for t from 0 to the longest
// episode: one chart per family, a line per group of it (its tier, and
// its condition, budget or rules when the family has several), so no
// line pools groups the tables keep apart.
func anytimeChart(rs []results.Result) template.HTML {
	var played []results.Result
	for _, r := range rs {
		if r.Err == "" && results.HasSuccess(r) { // no curve of success where none is defined
			played = append(played, r)
		}
	}
	keys, groups := results.GroupResults(played)
	var families []string
	byFamily := map[string][]results.GroupKey{}
	for _, k := range keys {
		if byFamily[k.Family] == nil {
			families = append(families, k.Family)
		}
		byFamily[k.Family] = append(byFamily[k.Family], k)
	}
	var b bytes.Buffer
	b.WriteString(`<div class="hists">`)
	for _, f := range families {
		b.WriteString(string(anytimeFamily(f, byFamily[f], groups)))
	}
	b.WriteString(`</div>`)
	return template.HTML(b.String())
}

// anytimeFamily is one family's anytime chart.
func anytimeFamily(family string, keys []results.GroupKey, groups map[results.GroupKey][]results.Result) template.HTML {
	const w, h, left, top, points = 360, 130, 40, 10, 100
	longest := 1
	for _, k := range keys {
		for _, r := range groups[k] {
			longest = max(longest, r.Steps)
		}
	}
	legendTop := top + h + 30
	height := legendTop + 14*len(keys) + 4
	width := left + w + 20
	for _, k := range keys {
		width = max(width, 40+textWidth(strings.TrimPrefix(k.Label(), k.Family+"/")+" (0000)"))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<figure><svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="success by step, %s">`, width, height, template.HTMLEscapeString(family))
	for _, p := range []int{0, 25, 50, 75, 100} {
		y := top + h - p*h/100
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/><text x="%d" y="%d" font-size="10" text-anchor="end">%d%%</text>`, left, left+w, y, y, left-4, y+3, p)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10">0</text><text x="%d" y="%d" font-size="10" text-anchor="end">%s steps</text>`, left, top+h+14, left+w, top+h+14, results.Number(float64(longest)))
	perTier := map[string]int{}
	for row, k := range keys {
		eps := groups[k]
		// Groups of one tier (a sweep's budgets, a diagnostic condition)
		// share its colour and differ by dash.
		dash := []string{"", "6,3", "2,2", "8,2,2,2", "1,3"}[perTier[k.Tier]%5]
		perTier[k.Tier]++
		var pts bytes.Buffer
		for i := 0; i <= points; i++ {
			step := longest * i / points
			done := 0
			for _, r := range eps {
				if r.Success && r.Steps <= step {
					done++
				}
			}
			fmt.Fprintf(&pts, "%d,%d ", left+w*i/points, top+h-done*h/len(eps))
		}
		label := strings.TrimPrefix(k.Label(), k.Family+"/")
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" stroke-dasharray="%s" points="%s"><title>%s: %d episodes</title></polyline>`,
			tierColor(k.Tier), dash, pts.String(), template.HTMLEscapeString(k.Label()), len(eps))
		y := legendTop + 14*row
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2" stroke-dasharray="%s"/><text class="legend" x="%d" y="%d" font-size="10">%s (%d)</text>`,
			4, 28, y-3, y-3, tierColor(k.Tier), dash, 34, y, template.HTMLEscapeString(label), len(eps))
	}
	fmt.Fprintf(&b, `</svg><figcaption>%s</figcaption></figure>`, template.HTMLEscapeString(family))
	return template.HTML(b.String())
}

// rulesetView is one ruleset's line of open-ended figures with its
// charts: the achievements' unlock rates and the anytime curve.
type rulesetView struct {
	Line  results.RulesetScore
	Bars  template.HTML
	Curve template.HTML
}

// rulesetViews draws the summary's open-ended lines, one per ruleset.
func rulesetViews(s results.Summary, rs []results.Result) []rulesetView {
	var out []rulesetView
	for _, l := range s.OpenEnded {
		v := rulesetView{Line: l}
		if l.Err == "" {
			v.Bars = achievementBars(l)
			v.Curve = unlockCurve(rs, l)
		}
		out = append(out, v)
	}
	return out
}

// achievementBars draws the unlock rate of each of a ruleset's
// achievements, the rates its Crafter score is the geometric mean of.
func achievementBars(l results.RulesetScore) template.HTML {
	const barH, gap, left, w = 12, 3, 150, 300
	var b bytes.Buffer
	n := len(l.AchievementRates)
	fmt.Fprintf(&b, `<figure><svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="achievements unlocked, %s">`, left+w+60, n*(barH+gap)+20, template.HTMLEscapeString(l.Ruleset))
	for i, a := range l.AchievementRates {
		y := i * (barH + gap)
		bw := max(1, int(math.Round(a.Percent/100*w)))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="end">%s</text><rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="#7b5ea7"><title>%s: %.1f%% of %d episodes</title></rect><text x="%d" y="%d" font-size="10">%.0f%%</text>`,
			left-6, y+barH-2, a.Name, left, y, bw, barH, a.Name, a.Percent, l.Episodes, left+bw+4, y+barH-2, a.Percent)
	}
	fmt.Fprintf(&b, `</svg><figcaption>%s rules: unlock rate of each of %d achievements over %d episodes; Crafter score %.2f%%</figcaption></figure>`,
		template.HTMLEscapeString(l.Ruleset), l.Achievements, l.Episodes, l.CrafterScore)
	return template.HTML(b.String())
}

// unlockCurve draws a ruleset's anytime curve of unlocks (UnlockCurve);
// a note where its results do not record unlock steps.
func unlockCurve(rs []results.Result, l results.RulesetScore) template.HTML {
	const w, h, left, top, points = 420, 160, 44, 10, 100
	steps, pct := results.UnlockCurve(rs, l, points)
	if steps == nil {
		return template.HTML(`<p>No anytime curve: these results do not record the step of each unlock (written before they did).</p>`)
	}
	var b, pts bytes.Buffer
	fmt.Fprintf(&b, `<figure><svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="achievements unlocked by step, %s">`, left+w+10, top+h+34, template.HTMLEscapeString(l.Ruleset))
	for _, p := range []int{0, 25, 50, 75, 100} {
		y := top + h - p*h/100
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/><text x="%d" y="%d" font-size="10" text-anchor="end">%d%%</text>`, left, left+w, y, y, left-4, y+3, p)
	}
	for i := range steps {
		fmt.Fprintf(&pts, "%d,%d ", left+w*i/points, top+h-int(math.Round(pct[i]*h/100)))
	}
	fmt.Fprintf(&b, `<polyline fill="none" stroke="#7b5ea7" stroke-width="2" points="%s"><title>%s: %.2f%% of %d achievements unlocked by step %d</title></polyline>`,
		pts.String(), template.HTMLEscapeString(l.Ruleset), pct[len(pct)-1], l.Achievements, steps[len(steps)-1])
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10">0</text><text x="%d" y="%d" font-size="10" text-anchor="end">%d steps</text></svg>`, left, top+h+14, left+w, top+h+14, steps[len(steps)-1])
	fmt.Fprintf(&b, `<figcaption>%s rules: mean share of the %d achievements unlocked by each step (ends at the progression, %.2f%%)</figcaption></figure>`,
		template.HTMLEscapeString(l.Ruleset), l.Achievements, l.Progression)
	return template.HTML(b.String())
}

// reasonChart draws failed actions by reason and failed episodes by end.
func reasonChart(rs []results.Result) template.HTML {
	reasons, ends := map[string]int{}, map[string]int{}
	for _, r := range rs {
		for k, n := range r.FailedByReason {
			reasons[k] += n
		}
		if !r.Success && results.HasSuccess(r) { // an episode without a goal to reach did not fail
			end := r.End
			if r.Err != "" {
				end = "error"
			}
			ends[end]++
		}
	}
	if len(ends) == 0 {
		return template.HTML(bars("failed actions by reason", reasons, "#c0504d"))
	}
	return template.HTML(bars("failed actions by reason", reasons, "#c0504d") + bars("failed episodes by end", ends, "#6d6d6d"))
}

// bars draws counts as horizontal bars, largest first.
func bars(label string, counts map[string]int, color string) string {
	type kv struct {
		k string
		n int
	}
	var xs []kv
	most := 1
	for k, n := range counts {
		xs = append(xs, kv{k, n})
		most = max(most, n)
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i].n > xs[j].n || xs[i].n == xs[j].n && xs[i].k < xs[j].k })
	const barH, gap, left, w = 14, 4, 130, 300
	var b bytes.Buffer
	fmt.Fprintf(&b, `<figure><svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="%s">`, left+w+60, max(1, len(xs))*(barH+gap)+4, label)
	if len(xs) == 0 {
		fmt.Fprintf(&b, `<text x="0" y="12" font-size="11">none</text>`)
	}
	for i, x := range xs {
		y := i * (barH + gap)
		bw := max(1, x.n*w/most)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="end">%s</text><rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s: %d</title></rect><text x="%d" y="%d" font-size="10">%d</text>`,
			left-6, y+barH-3, template.HTMLEscapeString(x.k), left, y, bw, barH, color, template.HTMLEscapeString(x.k), x.n, left+bw+4, y+barH-3, x.n)
	}
	fmt.Fprintf(&b, `</svg><figcaption>%s</figcaption></figure>`, label)
	return b.String()
}

// barCell is one bar of a groupBars chart: a success rate with its
// interval; Episodes 0 draws nothing (a run that did not play the group).
type barCell struct {
	Rate, Low, High float64
	Episodes        int
}

// groupBars draws success by group, one row per group (labelled with its
// whole key, so no two rows look alike: a sweep's values, a diagnostic
// condition) and one bar per series in each row (the report's one run,
// or the comparison's runs), each with its 95% interval; the legend names
// every series. Horizontal, so any number of groups fits the page's width.
func groupBars(label string, rows []string, series []string, color func(row, s int) string, cells [][]barCell) template.HTML {
	const barH, gap, w = 11, 8, 420
	left := 12
	for _, r := range rows {
		left = max(left, textWidth(r)+12)
	}
	legendW := 0
	for _, s := range series {
		legendW = max(legendW, textWidth(s)+30)
	}
	rowH := len(series)*(barH+1) + gap
	top := 16
	height := top + len(rows)*rowH + 20
	if len(series) > 1 {
		height = max(height, top+16*len(series)+10)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="%s">`, left+w+20+legendW, height, template.HTMLEscapeString(label))
	for _, p := range []int{0, 25, 50, 75, 100} {
		x := left + p*w/100
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/><text x="%d" y="%d" font-size="10" text-anchor="middle">%d%%</text>`, x, x, top-4, top+len(rows)*rowH, x, top-6, p)
	}
	for i, r := range rows {
		y0 := top + i*rowH
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="end">%s</text>`, left-6, y0+(rowH-gap)/2+4, template.HTMLEscapeString(r))
		for j, c := range cells[i] {
			if c.Episodes == 0 {
				continue
			}
			y := y0 + j*(barH+1)
			bw := max(1, int(math.Round(c.Rate*w)))
			lo, hi := left+int(math.Round(c.Low*w)), left+int(math.Round(c.High*w))
			fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s, %s: %s [%s, %s] of %d</title></rect>`,
				left, y, bw, barH, color(i, j), template.HTMLEscapeString(series[j]), template.HTMLEscapeString(r), results.Percent(c.Rate), results.Percent(c.Low), results.Percent(c.High), c.Episodes)
			fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/><line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/><line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#222"/>`,
				lo, hi, y+barH/2, y+barH/2, lo, lo, y+2, y+barH-2, hi, hi, y+2, y+barH-2)
		}
	}
	if len(series) > 1 {
		for j, s := range series {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text class="legend" x="%d" y="%d" font-size="11">%s</text>`,
				left+w+20, top+16*j, color(0, j), left+w+34, top+16*j+9, template.HTMLEscapeString(s))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// textWidth is about how wide text is at the charts' 11 px font.
func textWidth(s string) int { return len([]rune(s)) * 6 }
