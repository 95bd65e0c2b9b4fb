package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompileRefusesRows: a hand-made ruleset whose object rows would
// make worlds misbehave is refused by Compile, each for its reason.
func TestCompileRefusesRows(t *testing.T) {
	for _, c := range []struct {
		name, err string
		edit      func(r *Rules)
	}{
		{"balance of no kind", "a start place or a balance rule must place a creature", func(r *Rules) {
			// Spawned objects of no kind no removal records, so
			// compaction would not drop them.
			r.Creatures[ObjNone].Balance = r.Creatures[ObjSkeleton].Balance
		}},
		{"balance of the player", "a start place or a balance rule must place a creature", func(r *Rules) {
			r.Creatures[ObjPlayer].Balance = r.Creatures[ObjSkeleton].Balance
		}},
		{"start of the player", "a start place or a balance rule must place a creature", func(r *Rules) {
			// World generation would scatter a second player on every
			// meadow the cows had.
			r.Creatures[ObjCow].Start = StartNone
			r.Creatures[ObjPlayer].Start = StartMeadow
		}},
		{"start of no kind", "a start place or a balance rule must place a creature", func(r *Rules) {
			r.Creatures[ObjCow].Start = StartNone
			r.Creatures[ObjNone].Start = StartMeadow
		}},
		{"start of arrows", "a start place or a balance rule must place a creature that needs no facing", func(r *Rules) {
			// A scattered arrow would face nowhere: it would hit itself.
			r.Creatures[ObjCow].Start = StartNone
			r.Creatures[ObjArrow].Start = StartMeadow
		}},
		{"balance of arrows", "a start place or a balance rule must place a creature that needs no facing", func(r *Rules) {
			r.Creatures[ObjArrow].Balance = r.Creatures[ObjCow].Balance
			r.Creatures[ObjCow].Balance = nil
		}},
		{"two rows, one start place", "start place 1 taken by cow too", func(r *Rules) {
			r.Creatures[ObjZombie].Start = StartMeadow
		}},
		{"a glyph clash", "glyph 'C' is not printable or stands for something else", func(r *Rules) {
			r.Creatures[ObjZombie].Glyphs = "C"
		}},
		{"a material's glyph", "glyph '.' is not printable or stands for something else", func(r *Rules) {
			r.Creatures[ObjZombie].Glyphs = "."
		}},
		{"a missile that does not face", "missile kind 2 is not a kind that faces its way", func(r *Rules) {
			r.Creatures[ObjSkeleton].Missile = ObjCow
		}},
		{"a missile out of range", "missile kind 200 is not a kind that faces its way", func(r *Rules) {
			r.Creatures[ObjSkeleton].Missile = 200
		}},
		{"a shot with no missile", "shoots (Shoot 32768) but has no missile", func(r *Rules) {
			r.Creatures[ObjSkeleton].Missile = ObjNone
		}},
		{"a balance material the rules lack", "balance material 200 unknown", func(r *Rules) {
			r.Creatures[ObjCow].Balance.Material = 200
		}},
		{"an update on the player", "the rows of none and the player must have no update", func(r *Rules) {
			r.Creatures[ObjPlayer].Update = (*World).updateCow
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Classic().Clone()
			c.edit(r)
			require.ErrorContains(t, r.Compile(), c.err)
		})
	}
	require.NoError(t, Classic().Clone().Compile(), "classic's own rows")
	require.NoError(t, Extended().Clone().Compile(), "extended's own rows")
}

// TestDerivedKindSets: the sets Compile derives from the rows name the
// kinds the rows say, and follow an edited clone.
func TestDerivedKindSets(t *testing.T) {
	r := Classic()
	for k := range r.Creatures {
		kind := ObjectKind(k)
		assert.Equal(t, kind == ObjArrow, r.Missile(kind), r.KindName(kind))
		assert.Equal(t, kind == ObjZombie || kind == ObjSkeleton, r.Hostile(kind), r.KindName(kind))
	}
	c := r.Clone()
	c.Creatures = append([]CreatureInfo(nil), c.Creatures...)
	c.Creatures[ObjSkeleton].Missile, c.Creatures[ObjSkeleton].Shoot = ObjNone, 0
	require.NoError(t, c.Compile())
	assert.False(t, c.Missile(ObjArrow), "no row shoots arrows any more")
	assert.True(t, r.Missile(ObjArrow), "the original is untouched")
}
