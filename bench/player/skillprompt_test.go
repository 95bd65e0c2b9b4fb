package player

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/golden"
)

// firstObservation is the first observation of suite's episode i, at the
// task's action level, as a model gets it (with the symbolic view).
func firstObservation(t *testing.T, name string, i int) *protocol.Observation {
	s, err := suite.Load(name)
	require.NoError(t, err)
	sp := s.Expand()[i]
	tk, err := task.Rebuild(sp, task.SeedFor(sp.Split, sp.Family, sp.Tier, sp.Index))
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	b, err := protocol.NewBuilder(tk, protocol.Options{Symbolic: true}, nil)
	require.NoError(t, err)
	if tk.Actions == task.ActionsSkills {
		return b.ObserveSkill(w, nil, tk.Decisions)
	}
	return b.Observe(w, nil)
}

// TestSkillPromptDocumented: docs/skills.md quotes the skill-level system
// prompt exactly as a model gets it for the explorer-chain reference.
func TestSkillPromptDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/skills.md")
	require.NoError(t, err)
	obs := firstObservation(t, "explorer-chain", 0)
	require.Equal(t, "Your task: obtain 1 compass. You have 8 decisions (skills) and 300 steps.", obs.Task)
	prompt := SystemPrompt(obs, PromptOptions{})
	// The quote is the fenced text block that opens with the prompt's
	// first words; -rewrite replaces its body with the prompt of today.
	const fence = "```text\n"
	start := strings.Index(string(doc), fence+"You play Longcraft")
	require.GreaterOrEqual(t, start, 0, "docs/skills.md has no quoted skill-level prompt (a ```text block opening \"You play Longcraft\")")
	body := start + len(fence)
	end := strings.Index(string(doc)[body:], "\n```")
	require.GreaterOrEqual(t, end, 0, "docs/skills.md: the quoted prompt's block is not closed")
	want := string(doc)[:body] + prompt + string(doc)[body+end:]
	golden.File(t, "../../docs/skills.md", []byte(want), "docs/skills.md quotes the skill-level SystemPrompt")
}

// TestPromptGolden pins the prompt, system and first user message, of the
// balrog-crafter protocol's first episode in each reply mode, with the
// scratchpad on in tools mode. A change to prompt.tmpl fails here until
// `go test ./bench/player -run TestPromptGolden -rewrite` rewrites the
// golden files, whose diff is the review, and PromptVersion is bumped.
func TestPromptGolden(t *testing.T) {
	obs := firstObservation(t, "balrog-crafter", 0)
	for _, c := range []struct {
		file string
		o    PromptOptions
	}{{"prompt-json.golden", PromptOptions{}}, {"prompt-schema.golden", PromptOptions{Reply: ReplySchema}}, {"prompt-tools-notes.golden", PromptOptions{Reply: ReplyTools, Notes: true}}} {
		got := "# " + PromptID() + "\n## system\n" + SystemPrompt(obs, c.o) + "\n## user\n" + UserMessage(obs, "") + "\n"
		path := filepath.Join("testdata", c.file)
		golden.File(t, path, []byte(got), "%s: the prompt changed: bump PromptVersion, rewrite and review", c.file)
	}
}
