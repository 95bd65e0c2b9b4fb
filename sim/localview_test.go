package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLocalViewFastPath: the fast path equals the plain one everywhere,
// edges and corners included, in both rulesets, as creatures move.
func TestLocalViewFastPath(t *testing.T) {
	for _, r := range []*Rules{Classic(), Extended()} {
		w, err := New(Config{Width: 24, Height: 24, Rules: r})
		require.NoError(t, err)
		w.Reset(5)
		var fast, plain [ViewSize * ViewSize]uint8
		for step := 0; step < 40; step++ {
			for y := 0; y < 24; y++ {
				for x := 0; x < 24; x++ {
					if w.MovePlayer(x, y) != nil {
						continue
					}
					w.LocalView(fast[:])
					w.localViewPlain(plain[:], x, y)
					require.Equal(t, plain, fast, "%s at (%d, %d), step %d", r.Name, x, y, step)
				}
			}
			w.Step(Action(step % len(r.Actions)))
		}
	}
}

func BenchmarkLocalView(b *testing.B) {
	w, _ := New(Config{})
	w.Reset(1)
	var dst [ViewSize * ViewSize]uint8
	px, py := w.Player()
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			w.LocalView(dst[:])
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			w.localViewPlain(dst[:], px, py)
		}
	})
}
