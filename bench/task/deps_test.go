package task

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

func names(r *sim.Rules, p *Plan) []string {
	var out []string
	for _, a := range p.Achievements() {
		out = append(out, r.Achievements[a])
	}
	return out
}

func TestDependenciesClassic(t *testing.T) {
	r := sim.Classic()
	for _, c := range []struct {
		item  sim.Item
		depth int
		steps []string
	}{
		{sim.ItemWood, 1, []string{"collect_wood"}},
		{sim.ItemWoodPickaxe, 3, []string{"collect_wood", "place_table", "make_wood_pickaxe"}},
		{sim.ItemStonePickaxe, 5, []string{"collect_wood", "place_table", "make_wood_pickaxe", "collect_stone", "make_stone_pickaxe"}},
		{sim.ItemDiamond, 8, nil},
	} {
		p, err := Dependencies(r, c.item)
		require.NoError(t, err)
		assert.Equal(t, c.depth, p.Depth, r.Items[c.item].Name)
		if c.steps != nil {
			assert.Equal(t, c.steps, names(r, p), r.Items[c.item].Name)
		}
		assert.Equal(t, p.Depth, p.Steps[len(p.Steps)-1].Depth, "the target's rule is the deepest")
	}
	p, err := Dependencies(r, sim.ItemDiamond)
	require.NoError(t, err)
	assert.Equal(t, []string{"collect_wood", "place_table", "make_wood_pickaxe", "collect_coal", "collect_stone",
		"make_stone_pickaxe", "place_furnace", "collect_iron", "make_iron_pickaxe", "collect_diamond"}, names(r, p))
}

func TestDependenciesExtendedReachElevenHops(t *testing.T) {
	r := sim.Extended()
	p, err := Dependencies(r, sim.ItemCompass)
	require.NoError(t, err)
	assert.Equal(t, 11, p.Depth, "compass chain: %v", names(r, p))
	assert.Contains(t, names(r, p), "make_torch", "crystal needs light")
	assert.Contains(t, names(r, p), "place_anvil")
	for _, it := range []sim.Item{sim.ItemCrystal, sim.ItemIronIngot, sim.ItemTorch, sim.ItemBridge, sim.ItemDiamond} {
		_, err := Dependencies(r, it)
		assert.NoError(t, err, r.Items[it].Name)
	}
}

func TestDependenciesRejectsCycles(t *testing.T) {
	r := sim.Classic().Clone()
	// A table that needs a wood pickaxe, which needs a table.
	r.Place[1].Uses = []sim.ItemAmount{{Item: sim.ItemWoodPickaxe, Amount: 1}}
	require.NoError(t, r.Compile())
	_, err := Dependencies(r, sim.ItemWoodPickaxe)
	assert.Error(t, err)
}
