// Package protocol is Longcraft's one observation protocol: what an agent
// reads each step (Observation), what it answers (Reply, ParseReply), and
// the one Builder that turns a task's world into an observation for every
// transport: the OpenAI-compatible and exec players, the HTTP server and
// the browser. docs/protocol.schema.json writes it down for non-Go
// clients.
//
// It is a leaf of the benchmark layer: it reads the task (statement,
// budget, feedback level, observability), the world and the renderer, and
// must not import the runner, the server, the players or the episode core.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Observation is what an agent receives each step, on every transport.
type Observation struct {
	Type     string  `json:"type"`               // "observation"
	Task     string  `json:"task"`               // the task statement
	Text     string  `json:"text"`               // the text observation
	Image    string  `json:"image,omitempty"`    // base64 PNG of the agent view (9×7 tiles over the inventory), when asked
	Symbolic [][]int `json:"symbolic,omitempty"` // the semantic local view (rows of ids), when asked: 9×9, or 7 rows of 9 under Crafter's view
	// SymbolicLegend names every semantic id, by id (0 "outside", then the
	// ruleset's materials, then the object kinds), whenever a symbolic view
	// is sent.
	SymbolicLegend []string `json:"symbolic_legend,omitempty"`
	// Under full observability, the whole map in the modalities asked
	// for: semantic ids (rows) and a PNG of 4 pixels a tile.
	SymbolicMap [][]int `json:"symbolic_map,omitempty"`
	MapImage    string  `json:"map_image,omitempty"`
	LastOutcome string  `json:"last_outcome,omitempty"` // filtered by the feedback level
	// Feedback is the last outcome as a record at the full and reason
	// levels: {"ok": false, "reason": "missing_tool", "missing": [...]}
	// (missing lists at full only); absent at none and before the first step.
	Feedback   *task.Record `json:"feedback,omitempty"`
	Invalid    string       `json:"invalid,omitempty"` // why the previous reply was rejected
	Step       int          `json:"step"`
	BudgetLeft int          `json:"budget_left"`
	Actions    []string     `json:"actions"`
	// What stays the same for the whole episode, which a prompt states
	// once: each action's effect in one line (parallel to Actions; the
	// skill forms say their own), the step budget, the feedback level and
	// the observability.
	ActionHelp    []string `json:"action_help,omitempty"`
	Budget        int      `json:"budget"`
	FeedbackLevel string   `json:"feedback_level"`
	Observability string   `json:"observability"`
	// View is "crafter" under Crafter's local view (task.CrafterView):
	// the text and the symbolic view cover 9×7 tiles, the player at row 3,
	// column 4; absent under Longcraft's 9×9.
	View string `json:"view,omitempty"`
	// At the skill level (Level "skills"): Actions lists the skill forms
	// (docs/skills.md), the reply's action is one command ("collect
	// wood"), Skill is the last skill's result as the feedback level lets
	// the agent read it (absent at none and before the first decision),
	// and DecisionsLeft counts down the decision budget.
	// Notes are the agent's own notes from its last reply, shown back
	// when the scratchpad is on (docs/players.md).
	Notes         string        `json:"notes,omitempty"`
	Level         string        `json:"level,omitempty"`
	Skill         *skill.Result `json:"skill,omitempty"`
	DecisionsLeft int           `json:"decisions_left,omitempty"`
}

// Reply is a player's answer.
type Reply struct {
	Action string  `json:"action"`
	Reason string  `json:"reason,omitempty"`
	Notes  string  `json:"notes,omitempty"` // the scratchpad, when it is on
	Belief *Belief `json:"belief,omitempty"`
	Expect *Expect `json:"expect,omitempty"`
}

// Belief is what the player thinks it holds and where it is: scored as
// state consistency and state skill, and only where the observation it
// answers does not state it (bench/player's checkBelief): the inventory
// and, under full observability, the coordinates are in every
// observation's text, so a belief about them is a copy and is not
// scored; FromStart, where the player is relative to where it started,
// is scored under partial observability, where nothing states it, and so
// are the Remembered things that lie out of the current view (the first
// MaxRemembered of them; one in view is a copy).
type Belief struct {
	Inventory  map[string]int `json:"inventory,omitempty"`
	X          *int           `json:"x,omitempty"`
	Y          *int           `json:"y,omitempty"`
	FromStart  *Offset        `json:"from_start,omitempty"`
	Remembered []Thing        `json:"remembered,omitempty"`
}

// Thing is a remembered thing: a material or station (water, tree,
// table, iron, …: what stays put, never a creature) at an offset from the
// player in tiles, DX growing east and DY south, as the text observation
// and FromStart count them.
type Thing struct {
	Kind string `json:"kind"`
	DX   int    `json:"dx"`
	DY   int    `json:"dy"`
}

// MaxRemembered bounds the remembered things of one belief that are
// read: the rest are ignored, so a reply cannot flood the scorer.
const MaxRemembered = 8

// Offset is a displacement in tiles: x grows east, y grows south.
type Offset struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Expect is the player's prediction of its action's result: scored as
// world-model accuracy.
type Expect struct {
	Outcome   string         `json:"outcome,omitempty"`   // an outcome kind: moved, collected, …
	Inventory map[string]int `json:"inventory,omitempty"` // expected changes, e.g. {"wood": 1}
}

// ErrInvalid marks a reply that could not be used.
var ErrInvalid = errors.New("invalid reply")

// maxReply bounds the reply the parser reads.
const maxReply = 1 << 20

// ParseReply reads a reply: a JSON object, possibly wrapped in text or a
// code fence, as language models answer. The action must be one of
// actions.
func ParseReply(raw string, actions []string) (Reply, error) {
	r, err := decodeReply(raw)
	if err != nil {
		return r, err
	}
	r.Action = strings.TrimSpace(strings.ToLower(r.Action))
	for _, a := range actions {
		if a == r.Action {
			return r, nil
		}
	}
	return r, fmt.Errorf("%w: unknown action %q", ErrInvalid, r.Action)
}

// decodeReply reads the reply's JSON object, found as ParseReply says.
func decodeReply(raw string) (Reply, error) {
	var r Reply
	if len(raw) > maxReply {
		return r, fmt.Errorf("%w: %d bytes, at most %d", ErrInvalid, len(raw), maxReply)
	}
	obj := extractObject(raw)
	if obj == "" {
		return r, fmt.Errorf("%w: no JSON object with an \"action\" in the reply", ErrInvalid)
	}
	if err := json.NewDecoder(strings.NewReader(obj)).Decode(&r); err != nil {
		return Reply{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return r, nil
}

// ParseSkillReply reads a skill-level reply: the same JSON object, whose
// action is a skill command that must parse under rules r. It returns
// the command as text.
func ParseSkillReply(raw string, r *sim.Rules) (Reply, error) {
	rep, err := decodeReply(raw)
	if err != nil {
		return rep, err
	}
	c, err := skill.Parse(rep.Action, r)
	if err != nil {
		return rep, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	rep.Action = c.String()
	return rep, nil
}

// extractObject returns the first balanced {...} of s that mentions
// "action", skipping strings' contents when matching braces.
func extractObject(s string) string {
	obj, _ := scanObject(s)
	return obj
}

// scanObject is extractObject, in time linear in len(s) (whatever the
// braces: a reply of nested or unclosed ones costs one pass, not one per
// brace), also returning how many bytes it visited, which the tests bound.
//
// One pass from the first '{' matches braces with a stack, skipping
// strings; each balanced pair is a candidate, and the earliest-starting
// candidate holding an "action" key wins (found among the key's
// occurrences by binary search). If none does, a second pass matches
// braces ignoring quotes, for replies whose stray quote (in prose before
// the object) threw the string tracking off.
func scanObject(s string) (string, int) {
	keys := occurrences(s, `"action"`)
	visited := 0
	for _, quoted := range []bool{true, false} {
		var stack []int
		best, bestEnd := -1, -1
		inStr, esc := false, false
		for i := strings.IndexByte(s, '{'); i >= 0 && i < len(s); i++ {
			visited++
			c := s[i]
			switch {
			case quoted && esc:
				esc = false
			case quoted && inStr && c == '\\':
				esc = true
			case quoted && c == '"':
				inStr = !inStr
			case quoted && inStr:
			case c == '{':
				stack = append(stack, i)
			case c == '}' && len(stack) > 0:
				start := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if (best < 0 || start < best) && holds(keys, start, i+1) {
					best, bestEnd = start, i+1
				}
			}
		}
		if best >= 0 {
			return s[best:bestEnd], visited
		}
	}
	return "", visited
}

// occurrences returns the offsets of sub in s, ascending.
func occurrences(s, sub string) []int {
	var at []int
	for off := 0; ; {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			return at
		}
		at = append(at, off+i)
		off += i + len(sub)
	}
}

// holds reports whether one of the occurrences at (of a key of length 8)
// lies wholly within s[start:end].
func holds(at []int, start, end int) bool {
	k := sort.SearchInts(at, start)
	return k < len(at) && at[k]+len(`"action"`) <= end
}
