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
	"github.com/longcraft/longcraft/bench/suite"
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
		{"unknown agent", func(o *Options) { o.Agent = "nobody" }, "--agent: "},
		{"openai without a model", func(o *Options) { o.Agent = "openai" }, "--agent: agent openai needs a model and a base URL"},
		{"exec command unparsed", func(o *Options) { o.Agent, o.External.NoSandbox = "exec:'unclosed", true }, "--agent: agent exec:'unclosed: "},
		{"set on recorded play", func(o *Options) {
			o.Suite, o.Set = agent.RecordedPrefix+"play.lctrace", []suite.Set{{}}
		}, "--set and --sweep change a suite file or an embedded suite, not the tasks of recorded play"},
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
