package sim

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/golden"
)

// TestSemanticNames: every id a symbolic view can hold has its name in the
// legend, for every ruleset.
func TestSemanticNames(t *testing.T) {
	for _, name := range []string{ClassicName, ExtendedName} {
		r, err := RulesByName(name)
		require.NoError(t, err)
		names := r.SemanticNames()
		assert.Equal(t, "outside", names[0])
		for m := 1; m < len(r.Materials); m++ {
			assert.Equal(t, r.Materials[m].Name, names[m], name)
		}
		for k := ObjPlayer; int(k) < len(r.Creatures); k++ {
			id := int(r.SemanticID(k))
			require.Less(t, id, len(names), "%s: %s", name, k)
			assert.Equal(t, r.KindName(k), names[id], name)
		}
		assert.Len(t, names, len(r.Materials)+len(r.Creatures)-int(ObjPlayer), name)
	}
}

// TestEveryMaterialHasAGlyph: every material of every ruleset has its own
// printable glyph in the rules table, apart from the object characters,
// and a line in the legend agents read; a map of every material round-trips.
func TestEveryMaterialHasAGlyph(t *testing.T) {
	for _, name := range []string{ClassicName, ExtendedName} {
		r, err := RulesByName(name)
		require.NoError(t, err)
		seen := map[byte]string{}
		legend := r.ASCIILegend()
		row := []byte{'@'}
		for m, info := range r.Materials {
			if m == int(MatNone) {
				continue
			}
			c := info.Glyph
			require.True(t, c > ' ' && c <= '~', "%s: %s has no printable glyph", name, info.Name)
			o, _ := r.objectOfGlyph(c)
			assert.False(t, o.Kind != ObjNone, "%s: %s's glyph %q is an object's", name, info.Name, c)
			assert.Empty(t, seen[c], "%s: %s and %s share %q", name, info.Name, seen[c], c)
			seen[c] = info.Name
			assert.Contains(t, legend, string(c)+" "+info.Name, name)
			row = append(row, c)
		}
		grass := strings.Repeat(".", len(row))
		scene := grass + "\n" + string(row) + "\n" + grass + "\n"
		w, err := New(Config{Width: len(row), Height: 3, Rules: r})
		require.NoError(t, err)
		w.Reset(1)
		require.NoError(t, w.LoadASCII(scene), name)
		assert.Equal(t, scene, w.ASCII(), name)
	}
}

// TestASCIILegendText: the legend is part of what an agent reads under
// full observability, so a change to its text is reviewed: it is pinned
// in testdata/legend.golden (arrows after plants, whatever the rows'
// order; -rewrite regenerates it when a ruleset gains a row).
func TestASCIILegendText(t *testing.T) {
	got := "classic: " + Classic().ASCIILegend() + "\nextended: " + Extended().ASCIILegend() + "\n"
	golden.File(t, filepath.Join("testdata", "legend.golden"), []byte(got), "the map legend agents read changed")
}
