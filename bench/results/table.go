package results

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// WriteTable writes the summary's groups as the terminal table: success
// with its interval, then the metrics that have a column, "-" where a
// group measured none; a legend line names the columns' metrics.
func WriteTable(w io.Writer, s Summary) error {
	t := newTable(s)
	var b strings.Builder
	// An open-ended suite (no task defines success) leads with its own
	// figures, Crafter's score and progression, and has no success column.
	if t.open {
		writeOpenEnded(&b, s)
	}
	t.header(&b)
	for _, g := range s.Groups {
		t.row(&b, g)
	}
	t.row(&b, s.Overall)
	t.legend(&b)
	if !t.open {
		writeOpenEnded(&b, s)
	}
	if t.failures {
		fmt.Fprintf(&b, "agent_err: episodes that ended agent_error (the agent failed, not the task); missing: planned episodes without a result. A group with either is not the agent's whole play\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// table is the terminal table's layout: which columns it has and how
// wide its labels are.
type table struct {
	cols      []Metric // the metrics that have a column
	swept     bool     // a budget column: one family × tier under several budgets
	manyRules bool     // a ruleset column: groups differ by ruleset alone
	fw, tw    int      // the family and tier columns' widths
	open      bool     // no task defines success: no success column
	failures  bool     // agent errors or missing episodes: their columns
}

func newTable(s Summary) table {
	t := table{fw: 14, tw: 7, open: s.SuccessUndefined()}
	for _, m := range Metrics() {
		if m.Column != "" {
			t.cols = append(t.cols, m)
		}
	}
	t.swept, t.manyRules = swept(s.Groups), manyRulesets(s.Groups)
	// The family column fits the longest label (a scenario's with its
	// knobs: "grid grid=12 tour=3").
	for _, g := range s.Groups {
		t.fw = max(t.fw, len(g.Family))
	}
	for _, g := range s.Groups {
		t.tw = max(t.tw, len(g.Tier))
	}
	// Agent errors and missing episodes get columns of their own when
	// there are any: a group's figures then are not the agent's whole play.
	agentErrors, missing := s.Unfinished()
	t.failures = agentErrors > 0 || missing > 0
	return t
}

// swept reports whether one family × tier was played under several
// budgets (a sweep): its rows would look alike without a budget column.
func swept(groups []Group) bool {
	budgets := map[[4]string]map[int]bool{}
	swept := false
	for _, g := range groups {
		k := [4]string{g.Family, g.Tier, g.Observability, g.Feedback}
		if budgets[k] == nil {
			budgets[k] = map[int]bool{}
		}
		budgets[k][g.Budget] = true
		swept = swept || len(budgets[k]) > 1
	}
	return swept
}

// manyRulesets reports whether groups differ by ruleset alone.
func manyRulesets(groups []Group) bool {
	rulesets := map[GroupKey]map[string]bool{}
	many := false
	for _, g := range groups {
		k := g.Key()
		k.Ruleset = ""
		if rulesets[k] == nil {
			rulesets[k] = map[string]bool{}
		}
		rulesets[k][g.Ruleset] = true
		many = many || len(rulesets[k]) > 1
	}
	return many
}

// header writes the columns' titles.
func (t table) header(b *strings.Builder) {
	fmt.Fprintf(b, "%-*s %-*s %-14s", t.fw, "family", t.tw, "tier", "view/feedback")
	if t.swept {
		fmt.Fprintf(b, " %7s", "budget")
	}
	if t.manyRules {
		fmt.Fprintf(b, " %-9s", "rules")
	}
	fmt.Fprintf(b, " %5s", "n")
	if !t.open {
		fmt.Fprintf(b, "  %-22s", "success (95% CI)")
	}
	if t.failures {
		fmt.Fprintf(b, " %9s %7s", "agent_err", "missing")
	}
	for _, m := range t.cols {
		fmt.Fprintf(b, " %9s", m.Column)
	}
	b.WriteByte('\n')
}

// row writes group g's row.
func (t table) row(b *strings.Builder, g Group) {
	cond := "all"
	if g.Observability != "" {
		cond = g.Observability + "/" + g.Feedback
	}
	fmt.Fprintf(b, "%-*s %-*s %-14s", t.fw, g.Family, t.tw, g.Tier, cond)
	if t.swept {
		if g.Budget > 0 {
			fmt.Fprintf(b, " %7d", g.Budget)
		} else {
			fmt.Fprintf(b, " %7s", "all")
		}
	}
	if t.manyRules {
		rules := g.Ruleset
		if rules == "" {
			rules = "all"
		}
		fmt.Fprintf(b, " %-9s", rules)
	}
	fmt.Fprintf(b, " %5d", g.Episodes)
	switch {
	case t.open:
	case g.NoSuccess:
		fmt.Fprintf(b, "  %-22s", "-")
	default:
		fmt.Fprintf(b, "  %5.1f%% [%5.1f, %5.1f]", 100*g.Rate, 100*g.Low, 100*g.High)
	}
	if t.failures {
		fmt.Fprintf(b, " %9d %7d", g.AgentErrors, g.Missing)
	}
	t.metrics(b, g)
	if note := g.WorldsNote(); note != "" {
		fmt.Fprintf(b, "  (%s: the interval counts worlds, not episodes)", note)
	}
	b.WriteByte('\n')
}

// metrics writes g's metric columns: means, "-" where none was measured.
func (t table) metrics(b *strings.Builder, g Group) {
	for _, m := range t.cols {
		st := g.Metrics[m.Name]
		switch {
		case st.N == 0:
			fmt.Fprintf(b, " %9s", "-")
		case m.Percent:
			fmt.Fprintf(b, " %8.0f%%", 100*st.Mean)
		default:
			fmt.Fprintf(b, " %9s", Number(math.Round(st.Mean)))
		}
	}
}

// legend names each column's metric.
func (t table) legend(b *strings.Builder) {
	b.WriteString("columns (means over the episodes that measured them; - none did; docs/metrics.md):")
	for i, m := range t.cols {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(b, "%s %s = %s", sep, m.Column, m.Name)
	}
	b.WriteByte('\n')
}
