package player

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/template"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/sim"
)

// promptSource is the prompt's one file: the system message and the
// user message of a step, as Go text/templates.
//
//go:embed prompt.tmpl
var promptSource string

// PromptVersion numbers the prompt's wording; bump it with any change to
// prompt.tmpl (TestPromptGolden fails until the golden file is rewritten
// and reviewed). Version 1 was the prompt written in Go before the
// template; 4 added from_start beliefs and Crafter's 9×7 view, on two
// branches merged as 5; 6 asks for remembered things out of view.
const PromptVersion = 6

// promptTemplate is parsed once: the file is part of the binary.
var promptTemplate = template.Must(template.New("prompt").Funcs(template.FuncMap{"join": strings.Join}).Parse(promptSource))

// PromptID names the prompt a model played with, recorded in every
// result: the version and the first 12 hex digits of a sha256 over the
// template file and every text built in Go that the prompt quotes (the
// actions' effects, the skill forms, the outcome kinds, of both rulesets),
// so a result says which words the model read.
func PromptID() string {
	h := sha256.New()
	h.Write([]byte(promptSource))
	for _, r := range []*sim.Rules{sim.Classic(), sim.Extended()} {
		for _, lines := range [][]string{protocol.ActionHelp(r), skill.Forms(r), r.SemanticNames()} {
			h.Write([]byte(strings.Join(lines, "\n") + "\x00"))
		}
	}
	h.Write([]byte(strings.Join(openAIOutcomeKinds(), "|")))
	return fmt.Sprintf("v%d-%s", PromptVersion, hex.EncodeToString(h.Sum(nil)[:6]))
}

// ReplyMode is how a model is asked to answer.
type ReplyMode string

// Reply modes.
const (
	ReplyJSON   ReplyMode = "json"   // a JSON object in the text, parsed leniently
	ReplySchema ReplyMode = "schema" // response_format json_schema: the server constrains the reply
	ReplyTools  ReplyMode = "tools"  // one function, act, that the model must call
)

// ReplyModes lists the modes, for flags and messages.
func ReplyModes() []ReplyMode { return []ReplyMode{ReplyJSON, ReplySchema, ReplyTools} }

// PromptOptions are the prompt's settings that are not the episode's.
type PromptOptions struct {
	Reply ReplyMode
	Notes bool // the scratchpad is on
}

// notesMax bounds the scratchpad shown back, in bytes.
const notesMax = 2000

// SystemPrompt is the system message of the episode obs belongs to: the
// game, the task, what the agent sees and is told, the actions (or
// skills) with their effects, and the reply format. It depends only on
// what stays the same for the whole episode, so every step sends the same
// prefix and a server's prompt cache applies.
func SystemPrompt(obs *protocol.Observation, o PromptOptions) string {
	task := strings.TrimSpace(obs.Task)
	if task == "" {
		task = "Your task: (none stated)"
	}
	data := map[string]any{
		"Task": task, "Observability": obs.Observability, "View": obs.View, "Feedback": obs.FeedbackLevel,
		"Legend": obs.SymbolicLegend, "Reply": string(replyOr(o.Reply)), "Notes": o.Notes, "NotesMax": notesMax,
		"Outcomes": openAIOutcomeKinds(), "RememberedMax": protocol.MaxRemembered,
	}
	if obs.Level == "skills" {
		data["Skills"] = obs.Actions
	} else if len(obs.ActionHelp) == len(obs.Actions) && len(obs.ActionHelp) > 0 {
		data["Actions"] = obs.ActionHelp
	} else {
		data["Actions"] = obs.Actions
	}
	return execute("system", data)
}

// UserMessage is the user message of one step: the counts, the last
// outcome (or skill result), a notice of an invalid reply, the notes shown
// back, the text observation and the symbolic view when asked.
func UserMessage(obs *protocol.Observation, shownNotes string) string {
	data := map[string]any{
		"Skills": obs.Level == "skills", "Step": obs.Step, "BudgetLeft": obs.BudgetLeft, "DecisionsLeft": obs.DecisionsLeft,
		"LastOutcome": obs.LastOutcome, "Invalid": obs.Invalid, "ShownNotes": shownNotes,
		"Text": strings.TrimRight(obs.Text, "\n"),
	}
	if obs.Skill != nil {
		if j, err := json.Marshal(obs.Skill); err == nil {
			data["LastSkill"] = string(j)
		}
	}
	if len(obs.Symbolic) > 0 {
		data["Symbolic"], data["SymbolicRows"] = symbolicText(obs.Symbolic), len(obs.Symbolic)
	}
	return execute("user", data)
}

func replyOr(m ReplyMode) ReplyMode {
	if m == "" {
		return ReplyJSON
	}
	return m
}

func execute(name string, data any) string {
	var b bytes.Buffer
	if err := promptTemplate.ExecuteTemplate(&b, name, data); err != nil {
		panic(fmt.Sprintf("prompt template %s: %v", name, err)) // the template is part of the binary: a test would fail
	}
	return strings.TrimRight(b.String(), "\n")
}

// symbolicText lays a grid of ids out in aligned columns.
func symbolicText(rows [][]int) string {
	w := 1
	for _, row := range rows {
		for _, v := range row {
			w = max(w, len(strconv.Itoa(v)))
		}
	}
	var b strings.Builder
	for y, row := range rows {
		if y > 0 {
			b.WriteByte('\n')
		}
		for i, v := range row {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%*d", w, v)
		}
	}
	return b.String()
}
