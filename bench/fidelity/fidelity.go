// Package fidelity measures how closely a ruleset reproduces Crafter's
// creature and survival dynamics: it plays uniformly random episodes and
// computes the reference statistics of shared/spec/classic-rules.md
// (measured there on Crafter's own code), each with a sampling interval,
// beside Crafter's figure.
//
// The statistics are defined once, here (Stats); `longcraft fidelity`,
// `make fidelity` and the test in `make test` all read them from this
// table. The package sits on sim and bench's random policy; it does no
// I/O and must not import the CLI, the runner or the renderer.
package fidelity

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Stat is one reference statistic: a count taken after every step of an
// episode (or, for the episode length, once per episode), averaged over
// all steps of all episodes, as the spec's table defines it.
type Stat struct {
	Key     string  // machine name, as in JSON output
	Name    string  // the spec table's wording
	Crafter float64 // Crafter's figure from the spec (3,000 random episodes)
	// perEpisode marks the episode length: a mean over episodes, not a
	// per-step ratio.
	perEpisode bool
	// count returns the statistic's count on the state after a step.
	count func(w *sim.World, out *sim.Outcome) int
}

// Stats is the spec's reference table, in its order. "In view" is the 9×7
// area of Crafter's image (|dx| ≤ 4, |dy| ≤ 3); "adjacent" is L1 distance
// ≤ 1; "lost health" is a step whose health change is negative.
var Stats = []Stat{
	{Key: "episode_length", Name: "mean episode length (steps)", Crafter: 167, perEpisode: true},
	{Key: "zombies_in_view", Name: "zombies in view", Crafter: 0.156, count: inView("zombie")},
	{Key: "cows_in_view", Name: "cows in view", Crafter: 0.545, count: inView("cow")},
	{Key: "skeletons_in_view", Name: "skeletons in view", Crafter: 0.121, count: inView("skeleton")},
	{Key: "zombies_adjacent", Name: "zombies adjacent", Crafter: 0.084, count: adjacent("zombie")},
	{Key: "health_lost", Name: "fraction of steps in which the player lost health", Crafter: 0.0256,
		count: func(_ *sim.World, out *sim.Outcome) int {
			if out.HealthDelta < 0 {
				return 1
			}
			return 0
		}},
	{Key: "zombies_alive", Name: "zombies alive in the whole world", Crafter: 6.51, count: alive("zombie")},
	{Key: "cows_alive", Name: "cows alive in the whole world", Crafter: 24.7, count: alive("cow")},
}

// View half-extents of Crafter's 9×7 image area.
const viewDX, viewDY = 4, 3

// objects counts the objects of the named kind whose offset from the
// player (dx, dy) passes where. Crafter's statistics name their kinds, so
// these do too, and count nothing in rules without such a kind.
func objects(name string, where func(dx, dy int) bool) func(*sim.World, *sim.Outcome) int {
	return func(w *sim.World, _ *sim.Outcome) int {
		k, ok := w.Rules().KindByName(name)
		if !ok {
			return 0
		}
		px, py := w.Player()
		n := 0
		for _, o := range w.Objects()[1:] {
			if o.Kind == k && where(int(o.X)-px, int(o.Y)-py) {
				n++
			}
		}
		return n
	}
}

func inView(name string) func(*sim.World, *sim.Outcome) int {
	return objects(name, func(dx, dy int) bool { return grid.Abs(dx) <= viewDX && grid.Abs(dy) <= viewDY })
}

func adjacent(name string) func(*sim.World, *sim.Outcome) int {
	return objects(name, func(dx, dy int) bool { return grid.Abs(dx)+grid.Abs(dy) <= 1 })
}

func alive(name string) func(*sim.World, *sim.Outcome) int {
	return objects(name, func(int, int) bool { return true })
}

// Config is a fidelity run: Episodes uniformly random episodes, episode i
// on world seed Seed+i (the policy seeded alike), played to their end.
type Config struct {
	Episodes int
	Seed     uint64
	Workers  int               // 0: GOMAXPROCS; the results do not depend on it
	Rules    func() *sim.Rules // nil: sim.Classic
}

// Episode is one episode's sums: its length and, per statistic, the sum
// of its per-step counts.
type Episode struct {
	Steps  int
	Counts []int64 // indexed like Stats
}

// Play runs cfg's episodes; progress, if not nil, is called after each
// episode. When ctx is cancelled it returns the episodes finished so far
// (in seed order, without gaps) with ctx's error.
func Play(ctx context.Context, cfg Config, progress func()) ([]Episode, error) {
	if cfg.Episodes <= 0 {
		return nil, fmt.Errorf("fidelity: %d episodes, want at least 1", cfg.Episodes)
	}
	rules := cfg.Rules
	if rules == nil {
		rules = sim.Classic
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Episodes)
	eps := make([]Episode, cfg.Episodes)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := sim.New(sim.Config{Rules: rules()})
			if err != nil {
				errs[k] = err
				return
			}
			var policy policy.Random
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= cfg.Episodes {
					return
				}
				eps[i] = playEpisode(w, &policy, cfg.Seed+uint64(i))
				if progress != nil {
					progress()
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("fidelity: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		n := 0
		for n < len(eps) && eps[n].Counts != nil {
			n++
		}
		return eps[:n], err
	}
	return eps, nil
}

// playEpisode plays one random episode from seed to its end.
func playEpisode(w *sim.World, p *policy.Random, seed uint64) Episode {
	w.Reset(seed)
	p.Reset(seed)
	ep := Episode{Counts: make([]int64, len(Stats))}
	var out sim.Outcome
	for !w.Done() {
		out = w.Step(p.Act(w, &out))
		ep.Steps++
		for s := range Stats {
			if c := Stats[s].count; c != nil {
				ep.Counts[s] += int64(c(w, &out))
			}
		}
	}
	return ep
}

// Result is one statistic measured over a sample of episodes.
type Result struct {
	Stat
	Value float64 // the estimate
	// SE is the estimate's standard error: over episodes for the length,
	// and for per-step ratios the delta-method error of a ratio of sums
	// (steps within an episode are not independent; episodes are).
	SE float64
	// EpisodeSD is the per-episode standard deviation behind SE, scaled
	// so that SE = EpisodeSD/√episodes: what sizes other samples.
	EpisodeSD float64
	Episodes  int
}

// Low and High bound the 95% sampling interval.
func (r Result) Low() float64  { return r.Value - z95*r.SE }
func (r Result) High() float64 { return r.Value + z95*r.SE }

// RelDiff is (Value − Crafter)/Crafter.
func (r Result) RelDiff() float64 { return (r.Value - r.Crafter) / r.Crafter }

const z95 = 1.959964

// Measure computes every statistic over eps.
func Measure(eps []Episode) []Result {
	n := float64(len(eps))
	var steps float64
	for _, e := range eps {
		steps += float64(e.Steps)
	}
	meanSteps := steps / n
	res := make([]Result, len(Stats))
	for s, st := range Stats {
		r := Result{Stat: st, Episodes: len(eps)}
		if st.perEpisode {
			r.Value = meanSteps
			var ss float64
			for _, e := range eps {
				d := float64(e.Steps) - meanSteps
				ss += d * d
			}
			r.EpisodeSD = math.Sqrt(ss / math.Max(n-1, 1))
		} else {
			var sum float64
			for _, e := range eps {
				sum += float64(e.Counts[s])
			}
			r.Value = sum / steps
			var ss float64
			for _, e := range eps {
				d := float64(e.Counts[s]) - r.Value*float64(e.Steps)
				ss += d * d
			}
			r.EpisodeSD = math.Sqrt(ss/math.Max(n-1, 1)) / meanSteps
		}
		r.SE = r.EpisodeSD / math.Sqrt(n)
		res[s] = r
	}
	return res
}
