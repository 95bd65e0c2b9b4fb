package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/internal/fakemodel"
)

// TestScoreBalrogProtocol runs BALROG's protocol from the command line, as
// the README says, against the fake model: the suite's protocol gives the
// player its history, temperature and token limit, and the run reports
// progression with its standard error.
func TestScoreBalrogProtocol(t *testing.T) {
	m := fakemodel.Start(fakemodel.Options{Seed: 3})
	defer m.Close()
	t.Setenv("OPENAI_API_KEY", "unused")
	out := filepath.Join(t.TempDir(), "balrog")
	text, err := runCLI(t, "score", "--suite", "balrog-crafter", "--agent", "openai", "--model", "fake", "--base-url", m.URL(),
		"--set", "budget=30", "--set", "seeds.count=3", "--out", out)
	require.NoError(t, err, text)
	assert.Contains(t, text, "follows protocol balrog-crafter")
	assert.Contains(t, text, "--history 16, --temperature 1, --max-tokens 4096")
	assert.Contains(t, text, "progression")
	assert.Contains(t, text, "(standard error)")
	def, err := results.ReadDefinition(out)
	require.NoError(t, err)
	assert.Equal(t, 16, def.History)
	assert.InDelta(t, 1.0, def.Temperature, 1e-9)
	assert.Equal(t, 4096, def.MaxTokens)
	assert.Equal(t, player.PromptID(), def.Prompt)

	// A flag given wins over the protocol.
	out2 := filepath.Join(t.TempDir(), "balrog2")
	_, err = runCLI(t, "score", "--suite", "balrog-crafter", "--agent", "openai", "--model", "fake", "--base-url", m.URL(),
		"--set", "budget=10", "--set", "seeds.count=1", "--history", "2", "--out", out2, "-q")
	require.NoError(t, err)
	def, err = results.ReadDefinition(out2)
	require.NoError(t, err)
	assert.Equal(t, 2, def.History)
}
