package grid

import "testing"

// BenchmarkFlood compares the flood's two forms on one map in one run:
// RunNonzero, the planner's fast path over a cost field, against Run, the
// plain form with a passability call per cell (TestFlood checks that the
// two fill the same cells in the same order).
func BenchmarkFlood(b *testing.B) {
	g := New(64, 64)
	cost := make([]uint8, g.Len())
	for i := range cost {
		if i%11 != 0 {
			cost[i] = uint8(1 + i%7)
		}
	}
	var f Flood
	b.Run("run", func(b *testing.B) {
		b.ReportAllocs()
		pass := func(i int) bool { return cost[i] != 0 }
		for b.Loop() {
			f.Run(g, 65, pass)
		}
	})
	b.Run("nonzero", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.RunNonzero(g, 65, cost)
		}
	})
}
