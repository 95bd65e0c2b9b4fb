package run

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Plan expands the options' suite into the episodes this shard plays, with
// their positions in the whole suite. Filters that match nothing in the
// suite are an error naming the values it has.
func Plan(o Options) (name string, specs []task.Spec, indices []int, err error) {
	if err := o.validateSuite(); err != nil { // Score's Validate checks it before plan
		return "", nil, nil, err
	}
	p, err := plan(o)
	return p.name, p.specs, p.indices, err
}

// planned is a run's plan: this shard's episodes and what defines them.
type planned struct {
	name      string
	specs     []task.Spec
	indices   []int
	suiteHash string // of every spec the suite expands to
	total     int    // episodes over all shards, after filters
	// suite is the suite as loaded (nil for recorded play): the lock is
	// checked against it, so a run reads and decodes its suite once.
	suite *suite.Suite
}

func plan(o Options) (planned, error) {
	var p planned
	var all []task.Spec
	if agent.IsRecorded(o.Suite) {
		r, err := agent.LoadRecorded(o.Suite)
		if err != nil {
			return p, err
		}
		p.name, all = r.SuiteName(), r.Specs()
	} else {
		s, err := suite.LoadSweep(o.Suite, o.Set, o.Sweep)
		if err != nil {
			return p, err
		}
		p.name, all, p.suite = s.Name, s.Expand(), s
	}
	var has map[string]map[string]bool
	var err error
	if p.suiteHash, has, err = hashSpecs(all); err != nil {
		return p, err
	}
	if err := checkFilters(o, p.name, has); err != nil {
		return p, err
	}
	p.choose(o, all)
	if p.total == 0 {
		return p, fmt.Errorf("suite %s: the filters leave no episode", p.name)
	}
	return p, nil
}

// hashSpecs is the hash of every spec the suite expands to (run.json's
// suite_hash), and the tiers and families they have.
func hashSpecs(all []task.Spec) (string, map[string]map[string]bool, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	has := map[string]map[string]bool{"tier": {}, "family": {}}
	for _, sp := range all {
		// The hash is over the specs' numeric form (the index a bare
		// number, as before JSON outputs wrote it as a string: a
		// conversion drops Spec's MarshalJSON), so run.json of runs made
		// before still matches and they resume and merge.
		if err := enc.Encode(numericSpec(sp)); err != nil {
			return "", nil, err
		}
		has["tier"][sp.Tier], has["family"][sp.Family] = true, true
	}
	return hex.EncodeToString(h.Sum(nil)), has, nil
}

// checkFilters refuses a --tier or --family that suite name does not
// have (has: its tiers and families), naming those it has.
func checkFilters(o Options, name string, has map[string]map[string]bool) error {
	for kind, list := range map[string][]string{"tier": o.Tiers, "family": o.Families} {
		for _, v := range list {
			if !has[kind][v] {
				names := sortedKeys(has[kind])
				if kind == "tier" {
					slices.SortFunc(names, func(a, b string) int { return task.TierRank(a) - task.TierRank(b) })
				}
				return fmt.Errorf("--%s %s: suite %s has no such %s (it has %s)", kind, v, name, kind, strings.Join(names, ", "))
			}
		}
	}
	return nil
}

// choose keeps the episodes of all that pass the filters, counting them
// in p.total, and of those this shard's, with their positions in all.
func (p *planned) choose(o Options, all []task.Spec) {
	keep := func(list []string, v string) bool { return len(list) == 0 || slices.Contains(list, v) }
	// --seeds keeps the first N of each family × tier under each condition
	// (a sweep's every value keeps its own N).
	seen := map[[5]string]int{}
	shards := max(o.Shards, 1)
	for i, sp := range all {
		if !keep(o.Tiers, sp.Tier) || !keep(o.Families, sp.Family) {
			continue
		}
		k := [5]string{sp.Family, sp.Tier, strconv.Itoa(sp.Budget), string(sp.Feedback), string(sp.Observability)}
		if seen[k]++; o.Seeds > 0 && seen[k] > o.Seeds {
			continue
		}
		p.total++
		if i%shards != o.Shard {
			continue
		}
		p.specs = append(p.specs, sp)
		p.indices = append(p.indices, i)
	}
}

// numericSpec is a task.Spec encoded by its fields' tags alone.
type numericSpec task.Spec

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// definition is what defines the run o plans as p, from suite lock lock.
func definition(o Options, p planned, lock string) results.Definition {
	d := results.Definition{Suite: p.name, SuiteHash: p.suiteHash, Lock: lock, SaltCommitment: task.SaltCommitment(o.Salt), Episodes: p.total,
		Tiers: o.Tiers, Families: o.Families, Seeds: o.Seeds, Shard: o.Shard, Shards: max(o.Shards, 1),
		Agent: o.Agent, Certify: o.Certify, NoProgress: o.NoProgress, TimeoutMs: o.Timeout.Milliseconds(), Traces: o.Traces}
	for _, r := range []*sim.Rules{sim.Classic(), sim.Extended()} {
		d.Rules = append(d.Rules, fmt.Sprintf("%s v%d", r.Name, r.Version))
	}
	if k, err := agent.Lookup(o.Agent); err == nil && !k.Offline {
		x := o.External
		d.Model, d.Temperature, d.MaxTokens, d.History = x.Model, x.Temperature, x.MaxTokens, x.History
		d.ImageSize, d.Symbolic, d.NoNotice = x.ImageSize, x.Symbolic, x.NoNotice
		d.Unsandboxed = x.NoSandbox && strings.HasPrefix(o.Agent, "exec:")
		d.PriceIn, d.PriceOut = o.PriceIn, o.PriceOut
		d.Reply, d.Notes, d.HistoryToks, d.Prompt = x.Reply, x.Notes, x.HistoryTokens, Config{Agent: o.Agent}.prompt()
		d.MaxEpisodeTokens, d.MaxRunTokens, d.MaxRunCost = o.MaxEpisodeTokens, o.MaxRunTokens, o.MaxRunCost
		d.StepTimeoutMs, d.CallTimeoutMs = x.StepTimeout.Milliseconds(), x.CallTimeout.Milliseconds()
		if u, err := url.Parse(x.BaseURL); err == nil && u.Host != "" {
			d.BaseURL = u.Scheme + "://" + u.Host
		}
	}
	return d
}
