package vec

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/render"
)

// TestBufferTableDescribesEveryField: each field of Buffers has exactly
// one row, names are unique, and each row's type is its field's.
// wantDtype is each buffer's element type as the C and Python sides read
// it, written out here (not read from the field, as the table does); the
// buffers not listed are bytes.
var wantDtype = map[string]Dtype{"reward": Float32, "episode_return": Float32, "episode_length": Int32, "achievements": Uint64}

func TestBufferTableDescribesEveryField(t *testing.T) {
	var buf Buffers
	specs := DescribeBuffers(Config{N: 3, Size: 16, ImageSize: 8}, 20)
	fields := reflect.ValueOf(&buf).Elem()
	described := map[uintptr]string{}
	names := map[string]bool{}
	for _, s := range specs {
		require.False(t, names[s.Name], "%s: two rows of that name", s.Name)
		names[s.Name] = true
		f := s.Field(&buf)
		p := reflect.ValueOf(f).Pointer()
		require.NotContains(t, described, p, "%s: the field of %s", s.Name, described[p])
		described[p] = s.Name
		want, ok := wantDtype[s.Name]
		if !ok {
			want = Uint8
		}
		assert.Equal(t, want, s.Dtype, s.Name)
		assert.Equal(t, 3, s.Shape[0], "%s: worlds first", s.Name)
		assert.LessOrEqual(t, len(s.Shape), 4, "%s: the C descriptor holds 4 dimensions", s.Name)
	}
	for i := range fields.NumField() {
		name := fields.Type().Field(i).Name
		assert.Contains(t, described, fields.Field(i).Addr().Pointer(), "Buffers.%s has no row in bufferTable", name)
	}
}

// TestBufferShapesAreWhatSetBuffersTakes: buffers allocated from the
// batch's descriptor are accepted, and one element off in any of them is
// refused, naming it.
func TestBufferShapesAreWhatSetBuffersTakes(t *testing.T) {
	atlas, err := render.LoadAtlas()
	require.NoError(t, err)
	b, err := New(Config{N: 3, Size: 16, ImageSize: 12, Threads: 1}, atlas)
	require.NoError(t, err)
	defer b.Close()
	specs := b.BufferSpecs()
	want := map[string][]int{"symbolic": {3, 9, 9}, "inventory": {3, b.Items()}, "semantic": {3, 16, 16}, "rgb": {3, 12, 12, 3},
		"reward": {3}, "terminated": {3}, "truncated": {3}, "episode_return": {3}, "episode_length": {3}, "achievements": {3}, "success": {3}}
	require.Len(t, specs, len(want))
	alloc := func(off string) Buffers {
		var buf Buffers
		for _, s := range specs {
			n := s.Elems()
			if s.Name == off {
				n--
			}
			switch f := s.Field(&buf).(type) {
			case *[]uint8:
				*f = make([]uint8, n)
			case *[]int32:
				*f = make([]int32, n)
			case *[]uint64:
				*f = make([]uint64, n)
			case *[]float32:
				*f = make([]float32, n)
			}
		}
		return buf
	}
	for _, s := range specs {
		assert.Equal(t, want[s.Name], s.Shape, s.Name)
	}
	require.NoError(t, b.SetBuffers(alloc("")))
	require.NoError(t, b.Reset(nil))
	require.NoError(t, b.Step(make([]int32, 3)))
	for _, s := range specs {
		err := b.SetBuffers(alloc(s.Name))
		require.Error(t, err, s.Name)
		assert.Contains(t, err.Error(), s.Name+" buffer of", s.Name)
	}
}
