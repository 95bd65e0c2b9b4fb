package vec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

func TestNames(t *testing.T) {
	b, err := New(Config{N: 2, Size: 16, Threads: 1}, nil)
	require.NoError(t, err)
	defer b.Close()
	r := b.Rules()
	actions, err := b.Names("actions")
	require.NoError(t, err)
	require.Len(t, actions, b.Actions())
	assert.Equal(t, "noop", actions[sim.ActNoop])
	assert.Equal(t, "do", actions[sim.ActDo])
	achievements, err := b.Names("achievements")
	require.NoError(t, err)
	assert.Equal(t, r.Achievements, achievements)
	assert.Contains(t, achievements, "collect_wood")
	inventory, err := b.Names("inventory")
	require.NoError(t, err)
	require.Len(t, inventory, b.Items())
	assert.Equal(t, "health", inventory[0], "vitals first")
	legend, err := b.Names("symbolic")
	require.NoError(t, err)
	assert.Equal(t, "outside", legend[0])
	assert.Equal(t, "player", legend[r.SemanticID(sim.ObjPlayer)])
	_, err = b.Names("colours")
	assert.ErrorContains(t, err, `"colours"`)
}

func TestRenderWorlds(t *testing.T) {
	atlas, err := render.LoadAtlas()
	require.NoError(t, err)
	b, err := New(Config{N: 3, Size: 32, Threads: 1, ImageSize: 48}, atlas)
	require.NoError(t, err)
	defer b.Close()
	buf := buffers(b, true)
	require.NoError(t, b.SetBuffers(buf))
	v, err := render.NewAgentView(atlas, 48, render.RGB)
	require.NoError(t, err)
	frames := make([]byte, 2*v.FrameBytes())
	assert.ErrorContains(t, b.RenderWorlds(v, 0, frames), "before Reset")
	require.NoError(t, b.Reset(nil))
	for s := range 5 {
		require.NoError(t, b.Step(actionsAt(s, 3, b.Actions())))
	}
	// Worlds 1 and 2 drawn at the batch's image size are its RGB buffer's frames.
	require.NoError(t, b.RenderWorlds(v, 1, frames))
	assert.Equal(t, buf.RGB[v.FrameBytes():], frames)
	assert.ErrorContains(t, b.RenderWorlds(v, 2, frames), "worlds 2 to 3 of a batch of 3")
	assert.ErrorContains(t, b.RenderWorlds(v, 0, frames[:10]), "whole number")
}
