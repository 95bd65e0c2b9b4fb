// Package rollout plays many seeded episodes of a built-in policy across
// goroutines, headless and without tasks: the throughput runs and plain
// statistics of `longcraft simulate`. Results land in their episode's slot,
// so they are the same whatever the number of workers.
//
// It sits on sim, bench/policy and bench/score: it must not import tasks,
// episodes or the runner (scored runs are bench/run's).
package rollout

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/score"
	"github.com/longcraft/longcraft/internal/workers"
	"github.com/longcraft/longcraft/sim"
)

// Config describes a batch of episodes played by a built-in policy.
type Config struct {
	Policy   string // a built-in policy (policy.Names); "" means random
	Worlds   int    // episodes to play
	Seed     uint64 // episode i uses world seed Seed+i
	MaxSteps int    // per episode; 0 means the ruleset's episode length
	Workers  int    // goroutines; 0 means GOMAXPROCS
	Width    int    // world size; 0 means sim.DefaultSize
	Height   int
}

// Result is the outcome of one episode.
type Result struct {
	Seed         uint64
	Steps        int
	Died         bool
	Achievements sim.AchievementSet
	Reward       float64
	Hash         uint64 // the final state's hash
}

// Run plays cfg.Worlds episodes of cfg.Policy across cfg.Workers
// goroutines. Each worker owns a world and takes the next episode index
// from a shared counter; results land in their index's slot, so they are
// identical whatever the number of workers. When ctx is cancelled the
// workers finish their current episode and Run returns the episodes
// completed so far (Steps == 0 marks the others) with ctx's error.
// progress, if not nil, is called with the number of steps just played.
func Run(ctx context.Context, cfg Config, progress func(steps int)) ([]Result, error) {
	if cfg.Worlds < 0 {
		return nil, fmt.Errorf("rollout: %d worlds", cfg.Worlds)
	}
	if cfg.Policy == "" {
		cfg.Policy = "random"
	}
	if _, err := policy.New(cfg.Policy); err != nil {
		return nil, fmt.Errorf("rollout: %w", err)
	}
	results := make([]Result, cfg.Worlds)
	type worker struct {
		w     *sim.World
		agent policy.Policy
	}
	pool := workers.Pool[worker]{Jobs: cfg.Worlds, Workers: cfg.Workers, New: func(int) (worker, error) {
		w, err := sim.New(sim.Config{Width: cfg.Width, Height: cfg.Height})
		if err != nil {
			return worker{}, fmt.Errorf("rollout: %w", err)
		}
		agent, _ := policy.New(cfg.Policy) // checked above
		return worker{w, agent}, nil
	}}
	err := pool.Run(ctx, func(k worker, i int) error {
		results[i] = playEpisode(k.w, k.agent, cfg.Seed+uint64(i), cfg.MaxSteps, progress)
		return nil
	})
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	return results, ctx.Err()
}

// playEpisode plays one episode of agent on w from seed; the agent is
// seeded with the world's seed.
func playEpisode(w *sim.World, agent policy.Policy, seed uint64, maxSteps int, progress func(int)) Result {
	w.Reset(seed)
	agent.Reset(seed)
	res := Result{Seed: seed}
	const report = 1024
	pending := 0
	var out sim.Outcome
	last := (*sim.Outcome)(nil)
	for !w.Done() && (maxSteps == 0 || res.Steps < maxSteps) {
		out = w.Step(agent.Act(w, last))
		last = &out
		res.Steps++
		res.Reward += out.Reward()
		if pending++; pending == report && progress != nil {
			progress(pending)
			pending = 0
		}
	}
	if progress != nil && pending > 0 {
		progress(pending)
	}
	res.Died = w.Dead()
	res.Achievements = w.Achievements()
	res.Hash = w.Hash()
	return res
}

// Summary aggregates episode results.
type Summary struct {
	Episodes     int
	Steps        int
	Deaths       int
	MeanLength   float64
	MeanReward   float64
	SuccessRates []float64 // percent of episodes unlocking each achievement
	Score        float64   // Crafter score, percent
	Progression  float64   // BALROG progression, percent
}

// Summarize aggregates the completed results (Steps > 0) over the
// ruleset's achievements.
func Summarize(results []Result, achievements int) Summary {
	s := Summary{SuccessRates: make([]float64, achievements)}
	var unlocked []int
	for _, r := range results {
		if r.Steps == 0 {
			continue
		}
		s.Episodes++
		s.Steps += r.Steps
		s.MeanReward += r.Reward
		if r.Died {
			s.Deaths++
		}
		for a := 0; a < achievements; a++ {
			if r.Achievements.Has(sim.Achievement(a)) {
				s.SuccessRates[a]++
			}
		}
		unlocked = append(unlocked, bits.OnesCount64(uint64(r.Achievements)))
	}
	if s.Episodes == 0 {
		return s
	}
	s.MeanLength = float64(s.Steps) / float64(s.Episodes)
	s.MeanReward /= float64(s.Episodes)
	for a := range s.SuccessRates {
		s.SuccessRates[a] *= 100 / float64(s.Episodes)
	}
	s.Score = score.Crafter(s.SuccessRates)
	s.Progression = score.Progression(unlocked, achievements)
	return s
}
