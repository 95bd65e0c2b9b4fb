package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// certainRules returns classic rules whose creature draws always go the
// same way, so that a scene's outcome does not depend on the RNG: creatures
// take the longer axis, skeletons shoot when they may, and nothing moves
// at random.
func certainRules() *Rules {
	r := Classic()
	c := &r.Creatures[ObjSkeleton]
	c.LongAxis, c.Shoot = one, one
	c.Chase, c.Move = 0, 0
	r.Creatures[ObjCow].Move = 0
	return r
}

func TestSkeletonWalksOnGrass(t *testing.T) {
	// Spec: skeletons walk on grass, sand and path like every other
	// creature (v1 kept them on path). Within 3 tiles it flees, along the
	// longer axis here, onto the grass behind it.
	for _, ground := range []string{".", ":", "_"} {
		w := sceneWorldWith(t, "#####\n#@S"+ground+"#\n#####", certainRules())
		w.Step(ActNoop)
		o, ok := w.ObjectAt(3, 1)
		require.True(t, ok, "ground %q: the skeleton did not flee onto it\n%s", ground, w.ASCII())
		assert.Equal(t, ObjSkeleton, o.Kind)
	}
}

func TestDeadSkeletonStillShoots(t *testing.T) {
	// Spec: a creature whose health is ≤ 0 is removed at the start of its
	// own update, but the rest of that update runs: a dead skeleton may
	// still shoot.
	for _, dead := range []bool{false, true} {
		w := sceneWorldWith(t, "#######\n#@...S#\n#######", certainRules())
		j := w.objectIndex(5, 1)
		require.Positive(t, j)
		if dead {
			w.objects[j].Health = 0
		}
		w.Step(ActNoop)
		arrow, ok := w.ObjectAt(4, 1)
		require.True(t, ok, "dead=%v: no arrow\n%s", dead, w.ASCII())
		assert.Equal(t, ObjArrow, arrow.Kind)
		assert.Equal(t, DirLeft, arrow.Facing)
		_, alive := w.ObjectAt(5, 1)
		assert.Equal(t, !dead, alive, "dead=%v: the skeleton's tile", dead)
	}
}

func TestDeadZombieCannotMove(t *testing.T) {
	// A dead zombie two tiles away would chase onto the free tile between;
	// removed, it stays put (and, not adjacent, strikes nobody).
	r := certainRules()
	r.Creatures[ObjZombie].Chase = one
	w := sceneWorldWith(t, "#####\n#@.Z#\n#####", r)
	w.objects[w.objectIndex(3, 1)].Health = 0
	out := w.Step(ActNoop)
	assert.Equal(t, "#####\n#@..#\n#####", strings.TrimSpace(w.ASCII()))
	assert.Zero(t, out.HealthDelta)
}

func TestBalanceOnlyChunksThatHeldAnObject(t *testing.T) {
	// Three 12-wide chunks of grass walled apart by water, so nothing walks
	// from one to another: the player's (sealed in stone, so that zombies
	// cannot reach it), an empty one and one with a cow. At night, zombies
	// spawn in the first and last only. Once an object has been added to
	// the middle one, it is balanced too.
	var b strings.Builder
	for y := range 12 {
		row := []byte(strings.Repeat(".", 11) + "~~" + strings.Repeat(".", 10) + "~~" + strings.Repeat(".", 11))
		switch y {
		case 1, 3:
			copy(row[1:], "###")
		case 2:
			copy(row[1:], "#@#")
		case 5:
			row[30] = 'C'
		}
		b.Write(row)
		b.WriteByte('\n')
	}
	w, err := New(Config{Width: 36, Height: 12})
	require.NoError(t, err)
	w.Reset(3)
	require.NoError(t, w.LoadASCII(b.String()))
	zombies := func() (n [3]int) {
		for _, o := range w.Objects() {
			if o.Kind == ObjZombie {
				n[int(o.X)/12]++
			}
		}
		return n
	}
	night := func() {
		// Step 200 of each 300 is deep night: at most int(3.5 − 3L) = 3
		// zombies a chunk.
		require.NoError(t, w.SetStepCount(190))
		for range 100 {
			require.False(t, w.Step(ActNoop).Done)
		}
	}
	night()
	n := zombies()
	assert.Positive(t, n[0], "the player's chunk is balanced")
	assert.Zero(t, n[1], "a chunk no object ever entered is not balanced")
	assert.Positive(t, n[2], "the cow's chunk is balanced")
	assert.True(t, w.chunks[0].held && !w.chunks[1].held && w.chunks[2].held)

	require.NoError(t, w.AddObject(Object{X: 17, Y: 6, Kind: ObjPlant}))
	night()
	assert.Positive(t, zombies()[1], "a chunk is balanced once an object was added to it")
}

func TestHashCoversHeldChunks(t *testing.T) {
	w := newWorld(t)
	w.Reset(5)
	c := w.Clone()
	require.Equal(t, w.Hash(), c.Hash())
	for i := range c.chunks {
		if !c.chunks[i].held {
			c.chunks[i].held = true
			break
		}
	}
	assert.NotEqual(t, w.Hash(), c.Hash(), "two worlds that will balance differently hash alike")
}
