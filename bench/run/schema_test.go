package run

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/suite"
)

// protocolSchema compiles docs/protocol.schema.json; def picks one of its
// $defs ("" for the whole protocol).
func protocolSchema(t *testing.T, def string) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "docs", "protocol.schema.json"))
	require.NoError(t, err)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("protocol.schema.json", doc))
	loc := "protocol.schema.json"
	if def != "" {
		loc += "#/$defs/" + def
	}
	s, err := c.Compile(loc)
	require.NoError(t, err)
	return s
}

// validateLine checks one JSON message against schema s.
func validateLine(t *testing.T, s *jsonschema.Schema, line []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	require.NoError(t, err)
	assert.NoError(t, s.Validate(v), "%.300s", line)
}

// TestProtocolSchema validates real messages against the documented
// schema: every line an exec player receives over a run that covers every
// family, tier, observability and feedback level, with images and symbolic
// views, Crafter's local view (balrog-crafter's first episode, cut to 12
// steps) among them; the replies the docs show; and replies the schema
// must refuse.
func TestProtocolSchema(t *testing.T) {
	reset, obs, reply := protocolSchema(t, "reset"), protocolSchema(t, "observation"), protocolSchema(t, "reply")

	rec := filepath.Join(t.TempDir(), "received.jsonl")
	t.Setenv("LONGCRAFT_RECORD", rec)
	balrog, err := suite.Load("balrog-crafter")
	require.NoError(t, err)
	crafter := balrog.Expand()[0]
	crafter.Budget = 12
	specs := append(leakSpecs(), crafter)
	idx := make([]int, len(specs))
	for i := range idx {
		idx[i] = i
	}
	// NoSandbox: the recorder writes what it receives to a file the test
	// reads, which the sandbox forbids; what it receives does not depend on it.
	require.NoError(t, Suite(t.Context(), specs, idx, Config{Agent: "exec:" + buildAgent(t, "recorder"), Workers: 1,
		External: agent.External{ImageSize: 64, Symbolic: true, NoSandbox: true}}, func(Done) error { return nil }))
	f, err := os.Open(rec)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	n, withFeedback, withMap, withCrafterView := 0, 0, 0, 0
	for sc.Scan() {
		line := sc.Bytes()
		n++
		switch {
		case bytes.Contains(line, []byte(`"type":"reset"`)):
			validateLine(t, reset, line)
		default:
			validateLine(t, obs, line)
			if bytes.Contains(line, []byte(`"feedback":`)) {
				withFeedback++
			}
			if bytes.Contains(line, []byte(`"symbolic_map":`)) {
				withMap++
			}
			if bytes.Contains(line, []byte(`"view":"crafter"`)) {
				withCrafterView++
			}
		}
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, n, len(specs)*5)
	assert.Positive(t, withFeedback, "some observations carry the feedback record")
	assert.Positive(t, withMap, "full observability sends the map")
	assert.Positive(t, withCrafterView, "Crafter's protocols send Crafter's view")

	for _, good := range []string{
		`{"action": "do"}`,
		`{"action": "do", "reason": "the tree is in front of me", "belief": {"inventory": {"wood": 2}, "x": 31, "y": 30}, "expect": {"outcome": "collected", "inventory": {"wood": 1}}}`,
		`{"action": "noop", "belief": {"from_start": {"x": 3, "y": -2}, "remembered": [{"kind": "table", "dx": -12, "dy": 3}, {"kind": "water", "dx": 5, "dy": 0}]}}`,
	} {
		validateLine(t, reply, []byte(good))
	}
	for _, bad := range []string{`{}`, `{"action": 3}`, `{"action": "do", "expect": {"outcome": "won"}}`, `{"action": "do", "belief": {"x": "here"}}`,
		`{"action": "do", "belief": {"remembered": [{"kind": "table", "dx": 1}]}}`,
		`{"action": "do", "belief": {"remembered": [` + strings.Repeat(`{"kind": "tree", "dx": 9, "dy": 0}, `, 8) + `{"kind": "tree", "dx": 9, "dy": 0}]}}`} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		require.NoError(t, err)
		assert.Error(t, reply.Validate(v), bad)
	}
}

// TestProtocolSchemaAtTheSkillLevel: the observations an exec player
// receives at the skill level follow the documented schema too.
func TestProtocolSchemaAtTheSkillLevel(t *testing.T) {
	obs := protocolSchema(t, "observation")
	rec := filepath.Join(t.TempDir(), "received.jsonl")
	t.Setenv("LONGCRAFT_RECORD", rec)
	s, err := suite.Load("explorer-chain")
	require.NoError(t, err)
	// NoSandbox: the recorder writes what it receives to a file the test
	// reads, which the sandbox forbids; what it receives does not depend on it.
	res := Play(s.Expand()[0], Config{Agent: "exec:" + buildAgent(t, "recorder"), Certify: true, External: agent.External{Symbolic: true, NoSandbox: true}})
	require.Empty(t, res.Err)
	require.Empty(t, res.AgentError)
	data, err := os.ReadFile(rec)
	require.NoError(t, err)
	n, withSkill := 0, 0
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if bytes.Contains(line, []byte(`"type":"reset"`)) {
			continue
		}
		n++
		validateLine(t, obs, line)
		assert.Contains(t, string(line), `"level":"skills"`)
		if bytes.Contains(line, []byte(`"skill":{`)) {
			withSkill++
		}
	}
	assert.Equal(t, res.Decisions, n, "one observation a decision")
	assert.Equal(t, n-1, withSkill, "every observation after the first carries the last result")
}
