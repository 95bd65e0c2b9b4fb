package run

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
)

// TestCostWithoutUsage: an exec agent reports no tokens (the
// protocol has no usage), yet with --price-in/--price-out its episodes get
// cost_usd = 0 as a measured value, and the summary a measured cost per
// success of $0: the cost chart puts it at the origin. An OpenAI-compatible
// server that omits "usage" does the same. Cost should be not measured
// when no usage was reported.
func TestCostWithoutUsage(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "agent.sh")
	require.NoError(t, os.WriteFile(script, []byte(flakyAgent), 0o755))
	o := Options{Suite: "default", Agent: "exec:" + script, Out: filepath.Join(dir, "run"), Traces: "none",
		Tiers: []string{"easy"}, Families: []string{"survive"}, Seeds: 1, Config: Config{Certify: true, Workers: 1, PriceIn: 3, PriceOut: 15}}
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	t.Logf("tokens %d, cost %+v; group cost %+v per success %+v", rs[0].Tokens, rs[0].Cost, oc.Summary.Overall.Cost, oc.Summary.Overall.CostPerSuccess)
	assert.False(t, rs[0].Tokens == 0 && rs[0].Cost.OK, "no usage reported, yet a measured cost of $%v", rs[0].Cost.Value)
}
