package skill

import (
	"testing"

	"github.com/longcraft/longcraft/sim"
)

// BenchmarkSearchBFS is the executor's breadth-first search from the
// player over what it has seen (the whole classic map: full observability).
func BenchmarkSearchBFS(b *testing.B) {
	w, err := sim.New(sim.Config{})
	if err != nil {
		b.Fatal(err)
	}
	w.Reset(1)
	var x Executor
	x.Reset(w, true)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		x.bfs(w)
	}
}

// BenchmarkSearchBFSPartial is the same search from the local view only:
// the unseen tiles count as walkable.
func BenchmarkSearchBFSPartial(b *testing.B) {
	w, err := sim.New(sim.Config{})
	if err != nil {
		b.Fatal(err)
	}
	w.Reset(1)
	var x Executor
	x.Reset(w, false)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		x.bfs(w)
	}
}
