package run

import (
	"flag"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/planner"
	"github.com/longcraft/longcraft/bench/task"
)

// certifySeeds sizes TestCertification: make test runs the default,
// make test-long 1,000 (-args -certify-seeds 1000).
var certifySeeds = flag.Int("certify-seeds", 200, "TestCertification: eval seeds per tier (50 with -short)")

// TestCertification generates the obtain tasks of -certify-seeds eval
// seeds per tier (200; 1,000 in make test-long; 50 with -short), each
// certified by the planner: every task must
// be certified (the generator regenerates a world the planner cannot
// solve), and the planner must solve most worlds at the first attempt.
// The figures are logged for the record.
func TestCertification(t *testing.T) {
	n := *certifySeeds
	if testing.Short() {
		n = min(n, 50)
	}
	// Planner success at the first attempt, measured minus a margin.
	floor := map[string]float64{"easy": 0.95, "medium": 0.95, "hard": 0.80, "expert": 0.20}
	for _, tier := range task.Tiers() {
		var mu sync.Mutex
		certified, first, longest, steps := 0, 0, 0, 0
		var failures []string
		jobs := make(chan int)
		var wg sync.WaitGroup
		for k := 0; k < runtime.GOMAXPROCS(0); k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var solver planner.Solver // as LockSuite's workers certify
				for i := range jobs {
					tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: tier.Name, Split: task.Eval, Index: uint64(i)}, solver.Solve)
					mu.Lock()
					if err != nil {
						failures = append(failures, err.Error())
					} else {
						certified++
						steps += tk.PlannerSteps
						longest = max(longest, tk.Depth)
						if tk.Attempts == 1 {
							first++
						}
					}
					mu.Unlock()
				}
			}()
		}
		for i := 0; i < n; i++ {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		rate := float64(first) / float64(n)
		t.Logf("%-6s obtain: %d/%d certified, planner solved %.1f%% at the first attempt, mean %d planner steps, longest chain %d hops",
			tier.Name, certified, n, 100*rate, steps/max(certified, 1), longest)
		assert.Equal(t, n, certified, "%s: uncertifiable tasks: %v", tier.Name, failures)
		assert.GreaterOrEqual(t, rate, floor[tier.Name], tier.Name)
		require.LessOrEqual(t, longest, tier.MaxDepth)
	}
}
