package episode

import (
	"testing"

	"github.com/longcraft/longcraft/sim"
)

// BenchmarkSearchWalkable is Coverage's flood of the walkable tiles
// connected to the start.
func BenchmarkSearchWalkable(b *testing.B) {
	w, err := sim.New(sim.Config{})
	if err != nil {
		b.Fatal(err)
	}
	w.Reset(1)
	var c Coverage
	var s Scratch
	c.Begin(w, &s)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s.walkableFromStart(w)
	}
}
