package dataset

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/render"
)

// TestWriteFilm: a policy's film has a frame per step and the start's,
// each a PNG and a GIF frame, and the map; a trace's ends where its
// actions do, whatever steps allows; a cancelled film keeps its first
// frame and says so.
func TestWriteFilm(t *testing.T) {
	a, err := render.LoadAtlas()
	require.NoError(t, err)
	p, err := policy.New("explorer")
	require.NoError(t, err)
	w, next, err := PolicyActions(p, 7)
	require.NoError(t, err)
	f := Film{Out: t.TempDir(), Size: 32, PNGs: true, GIF: true, MapScale: 1, Delay: 10}
	st, err := WriteFilm(context.Background(), f, a, w, 5, next)
	require.NoError(t, err)
	assert.Equal(t, FilmStats{PNGs: 6, GIFFrames: 6}, st)
	assert.Equal(t, 5, w.StepCount())
	for _, name := range []string{"frame_00000.png", "frame_00005.png", "episode.gif", "map.png"} {
		assert.FileExists(t, filepath.Join(f.Out, name))
	}
	assert.NoFileExists(t, filepath.Join(f.Out, "frame_00006.png"))

	tf, err := trace.Open(filepath.Join("..", "trace", "testdata", "golden.lctrace"))
	require.NoError(t, err)
	defer tf.Close()
	ep, err := tf.Episode(1)
	require.NoError(t, err)
	w, next, err = TraceActions(ep)
	require.NoError(t, err)
	f = Film{Out: t.TempDir(), Size: 16, GIF: true, Overlay: true}
	st, err = WriteFilm(context.Background(), f, a, w, len(ep.Actions)+10, next)
	require.NoError(t, err)
	assert.Equal(t, len(ep.Actions), w.StepCount(), "the trace's actions, no more")
	assert.Equal(t, FilmStats{GIFFrames: w.StepCount() + 1}, st)
	names, err := os.ReadDir(f.Out)
	require.NoError(t, err)
	require.Len(t, names, 1, "episode.gif alone")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w, next, err = PolicyActions(p, 7)
	require.NoError(t, err)
	f = Film{Out: t.TempDir(), Size: 16, PNGs: true}
	st, err = WriteFilm(ctx, f, a, w, 5, next)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, FilmStats{PNGs: 1}, st)
	assert.Zero(t, w.StepCount())
}
