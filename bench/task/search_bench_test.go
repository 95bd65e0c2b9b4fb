package task

import (
	"testing"

	"github.com/longcraft/longcraft/sim"
)

// BenchmarkSearchReachable is the flood of the tiles a player walks to
// from its start that landmark placement draws from.
func BenchmarkSearchReachable(b *testing.B) {
	w, err := sim.New(sim.Config{})
	if err != nil {
		b.Fatal(err)
	}
	w.Reset(1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		reachable(w)
	}
}
