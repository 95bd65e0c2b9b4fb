package run

import (
	"fmt"
	"math"
	"slices"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/agent/remote"
)

// Validate checks o's settings that Score cannot play with, each error
// naming the score flag that sets it: the one check of a run's options,
// so that a library caller is refused what the command line is. Zero
// values are the defaults: no traces kept (""), the json reply (""), no
// salt (public seeds). The agent is checked last, as it is set up: an
// exec agent's command and environment, its sandbox (unless NoSandbox),
// an openai agent's model and server.
func (o Options) Validate() error {
	x := o.External
	switch {
	case o.Out == "":
		return fmt.Errorf("--out is required")
	case !slices.Contains([]string{"", "all", "failures", "none"}, o.Traces):
		return fmt.Errorf("--traces %q: want all, failures or none", o.Traces)
	case o.Workers < 0 || o.NoProgress < 0 || o.Seeds < 0:
		return fmt.Errorf("--workers, --no-progress and --seeds must not be negative")
	case o.PriceIn < 0 || o.PriceOut < 0 || math.IsNaN(o.PriceIn) || math.IsNaN(o.PriceOut) || math.IsInf(o.PriceIn, 0) || math.IsInf(o.PriceOut, 0):
		return fmt.Errorf("--price-in and --price-out: US dollars per million tokens, not negative")
	case o.MaxEpisodeTokens < 0 || o.MaxRunTokens < 0 || o.MaxRunCost < 0 || math.IsNaN(o.MaxRunCost) || x.HistoryTokens < 0:
		return fmt.Errorf("--max-episode-tokens, --max-run-tokens, --max-run-cost and --history-tokens must not be negative")
	case x.Retries < 0:
		return fmt.Errorf("--retries %d: 0 (no retry) or more", x.Retries)
	case o.MaxRunCost > 0 && o.PriceIn == 0 && o.PriceOut == 0:
		return fmt.Errorf("--max-run-cost needs the prices (--price-in, --price-out) to count the cost")
	case !slices.Contains([]string{"", "json", "schema", "tools"}, x.Reply):
		return fmt.Errorf("--reply %q: want json, schema or tools", x.Reply)
	case o.Timeout < 0:
		return fmt.Errorf("--timeout %s: a duration of 0 (none) or more", o.Timeout)
	case len(o.Salt) > 0 && len(o.Salt) < MinSaltBytes && !o.weakSaltForTests:
		return fmt.Errorf("a salt of %d bytes: an agent can find it by trying salts against the public lock during the run; %s", len(o.Salt), SaltUsage)
	case len(o.Salt) > maxSaltBytes:
		return fmt.Errorf("a salt of %d bytes: %s", len(o.Salt), SaltUsage)
	case o.Shards < 0 || o.Shards > 1 && (o.Shard < 0 || o.Shard >= o.Shards):
		return fmt.Errorf("--shard %d of %d: want 0 ≤ shard < shards", o.Shard, o.Shards)
	}
	if err := agent.Check(o.Agent, agent.Options{External: o.External, Remote: remote.Connector{}}); err != nil {
		return fmt.Errorf("--agent: %w", err)
	}
	return o.validateSuite()
}

// validateSuite refuses overrides of a suite that has none to change:
// recorded play's tasks are the ones that were played.
func (o Options) validateSuite() error {
	if agent.IsRecorded(o.Suite) && (len(o.Set) > 0 || len(o.Sweep) > 0) {
		return fmt.Errorf("--set and --sweep change a suite file or an embedded suite, not the tasks of recorded play (%s)", o.Suite)
	}
	return nil
}
