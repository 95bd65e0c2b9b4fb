package protocol

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// legendLine is the line of docs/players.md that lists a ruleset's
// semantic ids.
func legendLine(r *sim.Rules) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- `%s`:", r.Name)
	for id, name := range r.SemanticNames() {
		if id > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %d %s", id, name)
	}
	return b.String()
}

// TestSymbolicLegendDocumented: docs/players.md lists every ruleset's
// semantic ids as the observations' symbolic_legend names them.
func TestSymbolicLegendDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/players.md")
	require.NoError(t, err)
	for _, name := range []string{sim.ClassicName, sim.ExtendedName} {
		r, err := sim.RulesByName(name)
		require.NoError(t, err)
		assert.Contains(t, string(doc), legendLine(r)+"\n", "docs/players.md must hold this line")
	}
}
