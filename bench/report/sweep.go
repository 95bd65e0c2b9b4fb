package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/longcraft/longcraft/bench/results"
)

// Sweep is one swept axis of a run, and its chart: success against the
// axis's values for every line of groups that played under more than one.
type Sweep struct {
	Key   string // "budget", or a scenario knob ("grid", "tour", "decisions")
	Title string
	Chart template.HTML
}

// sweepCharts draws one chart per swept axis: the step budget (a
// --sweep budget=…), and each scenario knob a --set or --sweep changed.
func sweepCharts(gs []results.Group) []Sweep {
	gs = judgedGroups(gs)
	var out []Sweep
	budget := func(g results.Group) (int, bool) { return g.Budget, g.Budget > 0 }
	lineOf := func(g results.Group) string {
		l := g.Family + "/" + g.Tier + " (" + g.Observability + ", " + g.Feedback
		if g.Ruleset != "" {
			l += ", " + g.Ruleset + " rules"
		}
		return l + ")"
	}
	if c := sweepChart(gs, "budget (steps, log scale)", true, budget, lineOf); c != "" {
		out = append(out, Sweep{"budget", "Success against budget", c})
	}
	var keys []string
	for _, g := range gs {
		for k := range g.Params {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	for _, key := range keys {
		value := func(g results.Group) (int, bool) {
			v, err := strconv.Atoi(g.Params[key])
			return v, err == nil && g.Params[key] != ""
		}
		// A line is everything but this knob: the scenario, the other
		// knobs, the condition and the budget.
		line := func(g results.Group) string {
			l := g.Scenario
			var others []string
			for k, v := range g.Params {
				if k != key {
					others = append(others, k+"="+v)
				}
			}
			sort.Strings(others)
			for _, o := range others {
				l += " " + o
			}
			if g.Ruleset != "" {
				return fmt.Sprintf("%s (%s, %s, budget %d, %s rules)", l, g.Observability, g.Feedback, g.Budget, g.Ruleset)
			}
			return fmt.Sprintf("%s (%s, %s, budget %d)", l, g.Observability, g.Feedback, g.Budget)
		}
		if c := sweepChart(gs, key, false, value, line); c != "" {
			out = append(out, Sweep{key, "Success against " + key, c})
		}
	}
	return out
}

// sweepChart draws success (with its 95% interval; mean steps in each
// point's title) against value for every line of groups (lineOf) that has
// two or more values; "" when none has.
func sweepChart(gs []results.Group, axis string, logScale bool, value func(results.Group) (int, bool), lineOf func(results.Group) string) template.HTML {
	p := sweepPlot{axis: axis, logScale: logScale, value: value}
	p.lines, p.lo, p.hi = sweptLines(gs, value, lineOf)
	if len(p.lines) == 0 || p.hi <= p.lo || (logScale && p.lo <= 0) {
		return ""
	}
	// The legend below the plot names every line, with its colour, dash
	// and marker.
	legendTop := sweepTop + sweepH + 46
	width := sweepLeft + sweepW + 20
	for _, l := range p.lines {
		width = max(width, 40+textWidth(l.key))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="success against %s">`, width, legendTop+16*len(p.lines), template.HTMLEscapeString(axis))
	p.axes(&b)
	for i, l := range p.lines {
		p.line(&b, i, l, legendTop+16*i)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// The plot area of a sweep chart: its width and height, and its margins
// on the left (the success ticks) and at the top.
const sweepW, sweepH, sweepLeft, sweepTop = 460, 180, 44, 10

// sweepLine is one line of a sweep chart: the groups that differ only in
// the swept value, in the order of that value.
type sweepLine struct {
	key    string
	groups []results.Group
}

// sweptLines groups gs (those value reads) into lines by lineOf, in the
// order they first appear, and keeps those of two values or more, each
// sorted by value; lo and hi are the range of the values kept.
func sweptLines(gs []results.Group, value func(results.Group) (int, bool), lineOf func(results.Group) string) (swept []sweepLine, lo, hi int) {
	var lines []sweepLine
	at := map[string]int{}
	for _, g := range gs {
		if _, ok := value(g); !ok {
			continue
		}
		k := lineOf(g)
		i, ok := at[k]
		if !ok {
			i = len(lines)
			at[k] = i
			lines = append(lines, sweepLine{key: k})
		}
		lines[i].groups = append(lines[i].groups, g)
	}
	v := func(g results.Group) int { n, _ := value(g); return n }
	lo, hi = math.MaxInt, math.MinInt
	for _, l := range lines {
		if len(l.groups) < 2 {
			continue
		}
		sort.Slice(l.groups, func(i, j int) bool { return v(l.groups[i]) < v(l.groups[j]) })
		swept = append(swept, l)
		lo, hi = min(lo, v(l.groups[0])), max(hi, v(l.groups[len(l.groups)-1]))
	}
	return swept, lo, hi
}

// sweepPlot is a sweep chart being drawn: its axis, its lines and the
// range of their values, lo to hi.
type sweepPlot struct {
	axis     string
	logScale bool
	value    func(results.Group) (int, bool)
	lines    []sweepLine
	lo, hi   int
}

// v is group g's swept value.
func (p *sweepPlot) v(g results.Group) int { n, _ := p.value(g); return n }

// x is the abscissa of swept value b.
func (p *sweepPlot) x(b int) int {
	lo, hi := p.lo, p.hi
	if p.logScale {
		// Budgets are usually spaced by factors: a log scale keeps
		// them apart.
		return sweepLeft + int(math.Round(float64(sweepW)*(math.Log(float64(b))-math.Log(float64(lo)))/(math.Log(float64(hi))-math.Log(float64(lo)))))
	}
	return sweepLeft + int(math.Round(float64(sweepW)*float64(b-lo)/float64(hi-lo)))
}

// spread is line i's offset in pixels: lines with equal values are set
// apart by a few pixels each so that none hides another.
func (p *sweepPlot) spread(i int) int { return 4*i - 2*(len(p.lines)-1) }

// axes draws the success grid, a tick at every swept value and the
// axis's name.
func (p *sweepPlot) axes(b *bytes.Buffer) {
	const w, h, left, top = sweepW, sweepH, sweepLeft, sweepTop
	for _, pc := range []int{0, 25, 50, 75, 100} {
		y := top + h - pc*h/100
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/><text x="%d" y="%d" font-size="10" text-anchor="end">%d%%</text>`, left, left+w, y, y, left-4, y+3, pc)
	}
	ticks := map[int]bool{}
	for _, l := range p.lines {
		for _, g := range l.groups {
			if !ticks[p.v(g)] {
				ticks[p.v(g)] = true
				fmt.Fprintf(b, `<text x="%d" y="%d" font-size="10" text-anchor="middle">%d</text>`, p.x(p.v(g)), top+h+14, p.v(g))
			}
		}
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="10" text-anchor="middle">%s</text>`, left+w/2, top+h+28, template.HTMLEscapeString(p.axis))
}

// line draws line i: each value's interval and marker (its title the
// figures), the polyline through them, and its legend entry at height y.
func (p *sweepPlot) line(b *bytes.Buffer, i int, l sweepLine, y int) {
	const h, top = sweepH, sweepTop
	color := familyColor(l.groups[0].Family)
	if len(p.lines) > 1 {
		color = palette[i%len(palette)]
	}
	dash := []string{"", "6,3", "2,2", "8,2,2,2"}[i%4]
	var pts bytes.Buffer
	for _, g := range l.groups {
		px, py := p.x(p.v(g))+p.spread(i), top+h-int(math.Round(g.Rate*h))
		fmt.Fprintf(&pts, "%d,%d ", px, py)
		steps := "–"
		if st, ok := g.Metrics["steps"]; ok && st.N > 0 {
			steps = results.Number(math.Round(st.Mean))
		}
		title := fmt.Sprintf("%s at %s %d: %s [%s, %s] of %d, mean steps %s", l.key, strings.Fields(p.axis)[0], p.v(g),
			results.Percent(g.Rate), strconv.FormatFloat(100*g.Low, 'f', 1, 64), strconv.FormatFloat(100*g.High, 'f', 1, 64), g.Episodes, steps)
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s"/>%s`,
			px, px, top+h-int(math.Round(g.Low*h)), top+h-int(math.Round(g.High*h)), color, marker(i, px, py, color, title))
	}
	fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="2" stroke-dasharray="%s" points="%s"/>`, color, dash, pts.String())
	fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2" stroke-dasharray="%s"/>%s<text class="legend" x="%d" y="%d" font-size="11">%s</text>`,
		4, 30, y-4, y-4, color, dash, marker(i, 17, y-4, color, l.key), 36, y, template.HTMLEscapeString(l.key))
}

// marker draws line i's marker at (x, y): a circle, square, triangle or
// diamond, so lines that coincide stay told apart in print too.
func marker(i, x, y int, color, title string) string {
	t := "<title>" + template.HTMLEscapeString(title) + "</title>"
	switch i % 4 {
	case 1:
		return fmt.Sprintf(`<rect x="%d" y="%d" width="7" height="7" fill="%s">%s</rect>`, x-3, y-3, color, t)
	case 2:
		return fmt.Sprintf(`<polygon points="%d,%d %d,%d %d,%d" fill="%s">%s</polygon>`, x, y-4, x-4, y+3, x+4, y+3, color, t)
	case 3:
		return fmt.Sprintf(`<polygon points="%d,%d %d,%d %d,%d %d,%d" fill="%s">%s</polygon>`, x, y-4, x+4, y, x, y+4, x-4, y, color, t)
	}
	return fmt.Sprintf(`<circle cx="%d" cy="%d" r="3.5" fill="%s">%s</circle>`, x, y, color, t)
}
