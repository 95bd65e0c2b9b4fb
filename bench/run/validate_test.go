package run

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
)

// TestScoreValidatesItsOptions: what the command line refuses, Score
// refuses a library caller too (Options.Validate, the one check), before
// it plays or writes anything.
func TestScoreValidatesItsOptions(t *testing.T) {
	good := func() Options {
		return Options{Suite: "default", Agent: "noop", Out: filepath.Join(t.TempDir(), "run"), Traces: "none", Seeds: 1}
	}
	for _, c := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"no out", func(o *Options) { o.Out = "" }, "--out is required"},
		{"traces", func(o *Options) { o.Traces = "some" }, "--traces"},
		{"negative workers", func(o *Options) { o.Workers = -1 }, "must not be negative"},
		{"NaN price", func(o *Options) { o.PriceIn = math.NaN() }, "--price-in"},
		{"negative retries", func(o *Options) { o.External = agent.External{Retries: -1} }, "--retries"},
		{"cost cap without prices", func(o *Options) { o.MaxRunCost = 1 }, "needs the prices"},
		{"reply", func(o *Options) { o.External = agent.External{Reply: "xml"} }, "--reply"},
		{"negative timeout", func(o *Options) { o.Timeout = -time.Second }, "--timeout"},
		{"weak salt", func(o *Options) { o.Salt = []byte("417") }, "an agent can find it"},
		{"shard", func(o *Options) { o.Shard, o.Shards = 3, 2 }, "--shard"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := good()
			c.edit(&o)
			_, err := Score(context.Background(), o, nil)
			require.ErrorContains(t, err, c.want)
			if o.Out != "" {
				assert.NoDirExists(t, o.Out, "refused before writing anything")
			}
		})
	}
	_, err := Score(context.Background(), good(), nil)
	require.NoError(t, err, "the defaults play")
}
