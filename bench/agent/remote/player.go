package remote

import (
	"os"
	"strings"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/player"
)

// newPlayer connects the external player of agent name; each worker
// keeps one (an exec process is reused across its episodes).
func newPlayer(name string, x agent.External, worker int) (player.Player, error) {
	if name == "openai" {
		return player.NewOpenAI(player.OpenAIOptions{BaseURL: x.BaseURL, Model: x.Model, APIKey: os.Getenv("OPENAI_API_KEY"),
			Temperature: x.Temperature, MaxTokens: x.MaxTokens, History: x.History, HistoryTokens: x.HistoryTokens,
			Reply: player.ReplyMode(x.Reply), Notes: x.Notes, Timeout: x.CallTimeout, Retries: x.Retries, Seed: uint64(worker)})
	}
	argv, err := player.SplitCommand(strings.TrimPrefix(name, "exec:"))
	if err != nil {
		return nil, err
	}
	return player.NewExec(player.ExecOptions{Command: argv, Timeout: x.StepTimeout, Env: x.Env, Hidden: x.Hidden, NoSandbox: x.NoSandbox})
}
