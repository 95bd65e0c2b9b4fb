package protocol

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/golden"
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
// semantic ids as the observations' symbolic_legend names them; -rewrite
// regenerates the lines (each starts "- `RULESET`:") for review.
func TestSymbolicLegendDocumented(t *testing.T) {
	const path = "../../docs/players.md"
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(data)
	for _, name := range []string{sim.ClassicName, sim.ExtendedName} {
		r, err := sim.RulesByName(name)
		require.NoError(t, err)
		line := legendLine(r)
		if golden.Rewrite() {
			old := regexp.MustCompile("(?m)^- `" + regexp.QuoteMeta(name) + "`: 0 outside.*$")
			require.True(t, old.MatchString(doc), "docs/players.md has no line for %s to rewrite", name)
			doc = old.ReplaceAllLiteralString(doc, line)
			continue
		}
		assert.Contains(t, doc, line+"\n", "docs/players.md is stale: go test ./bench/protocol -run TestSymbolicLegendDocumented -rewrite")
	}
	if golden.Rewrite() {
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	}
}
