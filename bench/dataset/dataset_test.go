package dataset

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/render"
)

func TestNPYRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.npy")
	n, err := CreateNPY(path, 2, 3)
	require.NoError(t, err)
	require.NoError(t, n.Append([]byte{1, 2, 3, 4, 5, 6}))
	require.NoError(t, n.Append([]byte{7, 8, 9, 10, 11, 12}))
	require.Error(t, n.Append([]byte{1}), "wrong row size")
	require.NoError(t, n.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	shape, hl, err := ReadNPYHeader(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, []int{2, 2, 3}, shape)
	assert.Equal(t, 0, hl%64, "header aligned to 64 bytes")
	assert.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, data[hl:])

	// A one-dimensional array's shape is a 1-tuple.
	path = filepath.Join(t.TempDir(), "b.npy")
	n, err = CreateNPY(path)
	require.NoError(t, err)
	require.NoError(t, n.Append([]byte{9}))
	require.NoError(t, n.Close())
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), "'shape': (1,)")
}

func TestReadNPYHeaderRejectsBadInput(t *testing.T) {
	for _, in := range []string{"", "\x93NUMPX\x01\x00\x76\x00", "\x93NUMPY\x02\x00\x76\x00", "\x93NUMPY\x01\x00\x05\x00{}"} {
		_, _, err := ReadNPYHeader(bytes.NewReader([]byte(in)))
		assert.Error(t, err, "%q", in)
	}
}

// FuzzReadNPYHeader: the header reader never panics and bounds its reads.
func FuzzReadNPYHeader(f *testing.F) {
	f.Add([]byte("\x93NUMPY\x01\x00\x76\x00{'descr': '|u1', 'fortran_order': False, 'shape': (3, 2), }"))
	f.Add([]byte("\x93NUMPY\x01\x00\xff\xff"))
	f.Fuzz(func(t *testing.T, in []byte) {
		shape, n, err := ReadNPYHeader(bytes.NewReader(in))
		if err == nil {
			require.LessOrEqual(t, n, len(in))
			for _, d := range shape {
				require.GreaterOrEqual(t, d, 0)
			}
		}
	})
}

func TestBuild(t *testing.T) {
	a, err := render.LoadAtlas()
	require.NoError(t, err)
	dir := t.TempDir()
	frames := 0
	st, err := Build(context.Background(), Config{Out: dir, Episodes: 2, Seed: 4, MaxSteps: 30, Size: 64, Policy: "explorer"}, a,
		func(n int) { frames = n })
	require.NoError(t, err)
	assert.Equal(t, 2, st.Episodes)
	assert.Equal(t, st.Frames, frames)
	assert.LessOrEqual(t, st.Frames, 2*31)

	data, err := os.ReadFile(filepath.Join(dir, "frames.npy"))
	require.NoError(t, err)
	shape, hl, err := ReadNPYHeader(bytes.NewReader(data))
	require.NoError(t, err)
	require.Equal(t, []int{st.Frames, 64, 64, 3}, shape)
	require.Len(t, data, hl+st.Frames*64*64*3)

	acts, err := os.ReadFile(filepath.Join(dir, "actions.npy"))
	require.NoError(t, err)
	ashape, ahl, err := ReadNPYHeader(bytes.NewReader(acts))
	require.NoError(t, err)
	require.Equal(t, []int{st.Frames}, ashape)

	f, err := os.Open(filepath.Join(dir, "steps.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	i, dones := 0, 0
	for sc.Scan() {
		var r Record
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		assert.Equal(t, i, r.Frame)
		assert.NotEmpty(t, r.Text)
		if r.Done {
			dones++
			assert.Nil(t, r.Action)
			assert.Equal(t, uint8(NoAction), acts[ahl+i])
		} else {
			require.NotNil(t, r.Action)
			assert.Equal(t, *r.Action, mustActionName(t, acts[ahl+i]))
		}
		i++
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, st.Frames, i)
	assert.Equal(t, 2, dones)

	// numpy, when the machine has it, must load the arrays.
	python := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Log("SKIPPED sub-check: no python3 with numpy on this machine, so numpy.load was not tried")
		return
	}
	out, err := exec.Command(python, "-c",
		"import numpy,sys; f=numpy.load(sys.argv[1]); a=numpy.load(sys.argv[2]); print(f.shape, f.dtype, a.shape)",
		filepath.Join(dir, "frames.npy"), filepath.Join(dir, "actions.npy")).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), fmt.Sprintf("(%d, 64, 64, 3) uint8 (%d,)", st.Frames, st.Frames))
	t.Logf("numpy.load: %s", out)
}

func mustActionName(t *testing.T, a byte) string {
	names := []string{"noop", "move_left", "move_right", "move_up", "move_down", "do", "sleep", "place_stone",
		"place_table", "place_furnace", "place_plant", "make_wood_pickaxe", "make_stone_pickaxe",
		"make_iron_pickaxe", "make_wood_sword", "make_stone_sword", "make_iron_sword"}
	require.Less(t, int(a), len(names))
	return names[a]
}

func TestBuildStopsCleanlyOnCancel(t *testing.T) {
	a, err := render.LoadAtlas()
	require.NoError(t, err)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := Build(ctx, Config{Out: dir, Episodes: 50, MaxSteps: 100, Size: 64, Policy: "random"}, a,
		func(n int) {
			if n == 25 {
				cancel()
			}
		})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 25, st.Frames)
	data, err := os.ReadFile(filepath.Join(dir, "frames.npy"))
	require.NoError(t, err)
	shape, hl, err := ReadNPYHeader(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, []int{25, 64, 64, 3}, shape, "the header counts the frames written before the stop")
	assert.Len(t, data, hl+25*64*64*3)
}
