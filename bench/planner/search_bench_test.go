package planner

import (
	"testing"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// searchPlanner returns a planner that has played steps steps of an
// iron-pickaxe episode on the classic world of seed, with its cost field
// and tiles as its last step left them: the state the search benchmarks
// repeat one search on.
func searchPlanner(b *testing.B, seed uint64, steps int) (*Planner, *sim.World) {
	b.Helper()
	w, err := sim.New(sim.Config{})
	if err != nil {
		b.Fatal(err)
	}
	w.Reset(seed)
	p := New(task.Obtain("iron_pickaxe", 1))
	p.Reset(seed)
	var out sim.Outcome
	var last *sim.Outcome
	for range steps {
		out = w.Step(p.Act(w, last))
		last = &out
	}
	p.Act(w, last)
	return p, w
}

// BenchmarkSearchNav is the planner's Dijkstra over the whole map (costs
// rebuilt, so the lazy detours are added as it goes).
func BenchmarkSearchNav(b *testing.B) {
	p, w := searchPlanner(b, 1, 200)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p.buildCosts(w)
		p.nav.run(p.pos)
	}
}

// BenchmarkSearchNavRadius is the planner's Dijkstra settled lazily to a
// radius, as most queries leave it.
func BenchmarkSearchNavRadius(b *testing.B) {
	p, w := searchPlanner(b, 1, 200)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p.buildCosts(w)
		p.nav.Reset(p.pos)
		p.nav.SettleTo(12)
	}
}

// BenchmarkSearchFlood is the planner's flood of the tiles the cost field
// reaches.
func BenchmarkSearchFlood(b *testing.B) {
	p, _ := searchPlanner(b, 1, 200)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p.flood()
	}
}
