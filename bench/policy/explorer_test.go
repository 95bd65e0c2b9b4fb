package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// clone copies the explorer's whole state, memory included.
func (p *Explorer) clone() *Explorer {
	c := *p
	c.mem = append([]sim.Material(nil), p.mem...)
	c.search.Dist = append([]int32(nil), p.search.Dist...)
	c.search.Prev = append([]int32(nil), p.search.Prev...)
	c.search.Order = append(make([]int32, 0, cap(p.search.Order)), p.search.Order...)
	return &c
}

// scramble changes every tile of w outside the player's view and adds a
// zombie out there: nothing the explorer may see.
func scramble(t *testing.T, w *sim.World, seed int) {
	px, py := w.Player()
	const half = sim.ViewSize / 2
	swap := [...]sim.Material{sim.MatLava, sim.MatWater, sim.MatGrass, sim.MatStone, sim.MatTree, sim.MatDiamond}
	for y := 0; y < w.Height(); y++ {
		for x := 0; x < w.Width(); x++ {
			if grid.Abs(x-px) <= half && grid.Abs(y-py) <= half {
				continue
			}
			if _, ok := w.ObjectAt(x, y); ok {
				continue
			}
			_ = w.SetMaterial(x, y, swap[(x*7+y*13+seed)%len(swap)])
		}
	}
	for _, d := range [][2]int{{half + 2, 0}, {0, half + 3}, {-half - 1, -half - 1}} {
		x, y := px+d[0], py+d[1]
		if w.Inside(x, y) && w.SetMaterial(x, y, sim.MatGrass) == nil {
			_ = w.AddObject(sim.Object{X: int16(x), Y: int16(y), Kind: sim.ObjZombie, Health: 5})
		}
	}
}

// TestExplorerSeesOnlyItsView plays the explorer and, at every step,
// asks a copy of it for the action on a copy of the world changed
// everywhere outside the 9×9 view: the action must be the same.
func TestExplorerSeesOnlyItsView(t *testing.T) {
	for _, rules := range []*sim.Rules{sim.Classic(), sim.Extended()} {
		w, err := sim.New(sim.Config{Rules: rules})
		require.NoError(t, err)
		for seed := uint64(1); seed <= 3; seed++ {
			w.Reset(seed)
			p := &Explorer{}
			p.Reset(seed)
			var out sim.Outcome
			var last *sim.Outcome
			for step := 0; step < 600 && !w.Done(); step++ {
				if step%7 == 0 {
					other := w.Clone()
					scramble(t, other, step)
					q := p.clone()
					want := p.clone().Act(w, last)
					require.Equal(t, want, q.Act(other, last), "%s seed %d step %d: the action depends on what lies outside the view", rules.Name, seed, step)
				}
				out = w.Step(p.Act(w, last))
				last = &out
			}
		}
	}
}

func TestExplorerDeterministic(t *testing.T) {
	play := func() []sim.Action {
		w, err := sim.New(sim.Config{})
		require.NoError(t, err)
		w.Reset(42)
		p := &Explorer{}
		p.Reset(42)
		var acts []sim.Action
		var out sim.Outcome
		var last *sim.Outcome
		for i := 0; i < 800 && !w.Done(); i++ {
			a := p.Act(w, last)
			acts = append(acts, a)
			out = w.Step(a)
			last = &out
		}
		return acts
	}
	assert.Equal(t, play(), play())
}

func TestExplorerActAllocatesNothing(t *testing.T) {
	w, err := sim.New(sim.Config{Rules: sim.Extended()})
	require.NoError(t, err)
	w.Reset(7)
	p := &Explorer{}
	p.Reset(7)
	var out sim.Outcome
	last := (*sim.Outcome)(nil)
	step := func() {
		if w.Done() {
			w.Reset(8)
			p.Reset(8)
			last = nil
		}
		out = w.Step(p.Act(w, last))
		last = &out
	}
	for i := 0; i < 50; i++ {
		step() // warm up: the memory is allocated for the world's size
	}
	assert.Zero(t, testing.AllocsPerRun(300, step))
}
