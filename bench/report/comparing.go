package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// comparing is a Comparison being built run by run, and what Compare
// keeps of each run to pair them once all are read.
type comparing struct {
	c            *Comparison
	o            CompareOptions
	order        map[string]results.GroupKey // a group's label → its key
	missing      []map[string]int            // each run's missing episodes by scope
	all          [][]results.Result          // each run's results
	locks, salts []string                    // each run's suite lock and salt commitment
	rulesets     map[string]*RulesetRow
}

// add reads the run in directory d, checks that it played the episodes
// of the first run's (in directory first), and adds it to the comparison.
func (cs *comparing) add(d, first string) error {
	s, err := readSummary(d)
	if err != nil {
		return err
	}
	if err := cs.sameEpisodes(d, first, &s); err != nil {
		return err
	}
	rs, err := results.Read(filepath.Join(d, results.ResultsFile))
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	ts, err := results.ReadTimings(d)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	c := cs.c
	cs.all = append(cs.all, rs)
	cs.missing = append(cs.missing, missingByScope(s))
	c.Overall = append(c.Overall, s.Overall)
	c.Times = append(c.Times, results.SummarizeTimings(ts))
	c.Suite = s.Suite
	label := s.Agent
	if s.Run != nil && s.Run.Model != "" {
		label += " (" + s.Run.Model + ")"
	}
	c.Agents, c.Dirs, c.Runs = append(c.Agents, label), append(c.Dirs, d), append(c.Runs, s.Run)
	c.Open = c.Open && s.SuccessUndefined()
	cs.addOpenEnded(s)
	c.Builds = append(c.Builds, buildsLine(s))
	cs.addGroups(s)
	return nil
}

// readSummary reads the summary.json of the run in directory d.
func readSummary(d string) (results.Summary, error) {
	var s results.Summary
	data, err := os.ReadFile(filepath.Join(d, results.SummaryFile))
	if err != nil {
		return s, fmt.Errorf("compare: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("compare: %s: %w", filepath.Join(d, results.SummaryFile), err)
	}
	return s, nil
}

// sameEpisodes checks that the run s in directory d played the suite, the
// suite lock and the salt of the first run's (in directory first): a
// different lock or salt is refused unless AllowMixed, which marks the
// comparison mixed. A summary without results takes the lock it was to
// play.
func (cs *comparing) sameEpisodes(d, first string, s *results.Summary) error {
	c := cs.c
	if c.Suite != "" && s.Suite != c.Suite {
		return fmt.Errorf("compare: %s ran suite %s, not %s", d, s.Suite, c.Suite)
	}
	if s.Lock == "" && s.Episodes == 0 && s.Run != nil {
		s.Lock = s.Run.Lock // no result yet (an agent that could not start): the lock it was to play
	}
	if len(cs.locks) > 0 && s.Lock != cs.locks[0] {
		if !cs.o.AllowMixed {
			return fmt.Errorf("compare: %s played from suite lock %s, %s from %s: not the same episodes (--allow-mixed compares them unpaired)",
				d, lockName(s.Lock), first, lockName(cs.locks[0]))
		}
		c.Mixed = true
	}
	cs.locks = append(cs.locks, s.Lock)
	if len(cs.salts) > 0 && s.SaltCommitment != cs.salts[0] {
		if !cs.o.AllowMixed {
			return fmt.Errorf("compare: %s played on %s, %s on %s: salt commitment differs, not the same worlds (--allow-mixed compares them unpaired)",
				d, task.SeedsLabel(s.SaltCommitment), first, task.SeedsLabel(cs.salts[0]))
		}
		c.Mixed = true
	}
	cs.salts = append(cs.salts, s.SaltCommitment)
	return nil
}

// addOpenEnded adds the latest run's open-ended lines to their rulesets'
// rows, after an empty cell for each earlier run that has none.
func (cs *comparing) addOpenEnded(s results.Summary) {
	for _, l := range s.OpenEnded {
		row := cs.rulesets[l.Ruleset]
		if row == nil {
			row = &RulesetRow{Ruleset: l.Ruleset}
			cs.rulesets[l.Ruleset] = row
		}
		for len(row.Runs) < len(cs.c.Agents)-1 {
			row.Runs = append(row.Runs, nil)
		}
		row.Runs = append(row.Runs, &l)
	}
}

// addGroups adds the latest run's groups to the comparison's.
func (cs *comparing) addGroups(s results.Summary) {
	c := cs.c
	for _, g := range s.Groups {
		if g.AgentErrors == 0 {
			g.AgentErrors = g.Ends[string(task.EndAgentError)] // a summary written before groups counted them
		}
		key := g.Key()
		k := key.Label()
		if _, ok := c.Groups[k]; !ok {
			c.Keys = append(c.Keys, k)
			cs.order[k] = key
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
}

// finish completes the comparison of the runs in dirs once all are read:
// the rows padded to every run, runs of one agent told apart, the groups
// in order, the metric tables and every two runs compared.
func (cs *comparing) finish(dirs []string) *Comparison {
	c := cs.c
	for _, name := range slices.Sorted(maps.Keys(cs.rulesets)) {
		row := cs.rulesets[name]
		for len(row.Runs) < len(c.Agents) {
			row.Runs = append(row.Runs, nil)
		}
		c.Rulesets = append(c.Rulesets, *row)
	}
	for k := range c.Groups {
		for len(c.Groups[k]) < len(c.Agents) {
			c.Groups[k] = append(c.Groups[k], results.Group{})
		}
	}
	labelByDir(c.Agents, dirs)
	sort.SliceStable(c.Keys, func(i, j int) bool { return results.KeyLess(cs.order[c.Keys[i]], cs.order[c.Keys[j]]) })
	var planned []results.GroupKey
	for _, k := range c.Keys {
		planned = append(planned, cs.order[k])
	}
	c.Metrics = metricTables(c)
	for i := range dirs {
		for j := i + 1; j < len(dirs); j++ {
			c.Pairs = append(c.Pairs, comparePair(c.Agents[i], c.Agents[j], cs.all[i], cs.all[j], cs.locks[i] == cs.locks[j], cs.missing[i], cs.missing[j], planned)...)
		}
	}
	return c
}

// labelByDir tells two runs of one agent apart by their directories,
// appended to the labels of agents.
func labelByDir(agents, dirs []string) {
	count := map[string]int{}
	for _, a := range agents {
		count[a]++
	}
	for i, a := range agents {
		if count[a] > 1 {
			agents[i] = a + " [" + filepath.Base(filepath.Clean(dirs[i])) + "]"
		}
	}
}
