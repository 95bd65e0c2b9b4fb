package player

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// TestSkillPromptDocumented: docs/skills.md quotes the skill-level system
// prompt exactly as a model gets it for the explorer-chain reference.
func TestSkillPromptDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/skills.md")
	require.NoError(t, err)
	s, err := suite.Load("explorer-chain")
	require.NoError(t, err)
	sp := s.Expand()[0]
	tk, err := task.Rebuild(sp, task.SeedFor(sp.Split, sp.Family, sp.Tier, sp.Index))
	require.NoError(t, err)
	require.Equal(t, "Your task: obtain 1 compass. You have 8 decisions (skills) and 300 steps.", tk.Describe())
	prompt := SkillPrompt(tk.Describe(), skill.Forms(sim.Extended()))
	assert.Contains(t, string(doc), "```text\n"+prompt+"\n```", "docs/skills.md is stale: paste SkillPrompt's text")
}
