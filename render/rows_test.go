package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/assets"
	"github.com/longcraft/longcraft/sim"
)

// TestEveryMaterialAndItemHasASprite: every material (but the void) and
// item of every ruleset names a sprite of the sheet, and the legend agents
// read names it; the renderer draws them from those names alone.
func TestEveryMaterialAndItemHasASprite(t *testing.T) {
	for _, name := range []string{sim.ClassicName, sim.ExtendedName} {
		r, err := sim.RulesByName(name)
		require.NoError(t, err)
		legend := r.ASCIILegend()
		for m, info := range r.Materials[1:] {
			sp, ok := assets.SpriteByName(info.Sprite)
			assert.True(t, ok, "%s: material %s names sprite %q", name, info.Name, info.Sprite)
			assert.NotEqual(t, assets.Unknown, sp, "%s: %s", name, info.Name)
			assert.Contains(t, legend, string(info.Glyph)+" "+info.Name, "%s: %s", name, info.Name)
			l := newWorldLayout()
			assert.Equal(t, sp, l.sprites[l.ground(sim.Material(m+1))], "%s: %s's slot", name, info.Name)
		}
		for k, c := range r.Creatures[sim.ObjPlayer:] {
			for _, s := range c.Sprites {
				sp, ok := assets.SpriteByName(s)
				assert.True(t, ok, "%s: object %s names sprite %q", name, c.Name, s)
				assert.NotEqual(t, assets.Unknown, sp, "%s: %s", name, c.Name)
			}
			assert.Contains(t, r.SemanticNames(), c.Name, "%s: kind %d", name, k+1)
		}
		for i, it := range r.Items {
			sp, ok := assets.SpriteByName(it.Sprite)
			assert.True(t, ok, "%s: item %s names sprite %q", name, it.Name, it.Sprite)
			assert.Equal(t, sp, itemSprites()[i], "%s: %s's icon", name, it.Name)
		}
	}
}

// TestRulesetsShareTheirPrefix: the drawn rules' material, item and
// object tables begin with every ruleset's, so one tile set draws them
// all.
func TestRulesetsShareTheirPrefix(t *testing.T) {
	d := drawn()
	for _, name := range []string{sim.ClassicName, sim.ExtendedName} {
		r, err := sim.RulesByName(name)
		require.NoError(t, err)
		require.LessOrEqual(t, len(r.Materials), len(d.Materials), name)
		for m := range r.Materials {
			assert.Equal(t, d.Materials[m].Sprite, r.Materials[m].Sprite, "%s material %d", name, m)
		}
		require.LessOrEqual(t, len(r.Items), len(d.Items), name)
		for i := range r.Items {
			assert.Equal(t, d.Items[i].Sprite, r.Items[i].Sprite, "%s item %d", name, i)
		}
		require.LessOrEqual(t, len(r.Creatures), len(d.Creatures), name)
		for k := range r.Creatures {
			assert.Equal(t, d.Creatures[k].Sprites, r.Creatures[k].Sprites, "%s object kind %d", name, k)
		}
	}
}
