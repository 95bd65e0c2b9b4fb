package policy

import (
	"testing"

	"github.com/longcraft/longcraft/sim"
)

// BenchmarkSearchBFS is the explorer's breadth-first search over its
// remembered map, after 400 steps of play on the classic world.
func BenchmarkSearchBFS(b *testing.B) {
	w, err := sim.New(sim.Config{})
	if err != nil {
		b.Fatal(err)
	}
	w.Reset(1)
	p := &Explorer{}
	p.Reset(1)
	var out sim.Outcome
	var last *sim.Outcome
	for range 400 {
		out = w.Step(p.Act(w, last))
		last = &out
	}
	p.observe(w)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p.bfs()
	}
}
