package protocol

import (
	"encoding/base64"
	"fmt"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// Options say which modalities an agent asked for.
type Options struct {
	ImageSize int  // a PNG agent view of ImageSize×ImageSize pixels (0: none)
	Symbolic  bool // the semantic local view (the task's LocalView); under full observability, the whole map too
	// Image renders the agent view of w as PNG bytes at ImageSize, for a
	// host that shares renderers between episodes (the HTTP server); nil:
	// the builder keeps its own, built from the atlas.
	Image func(w *sim.World) ([]byte, error)
}

// Builder builds the observations of one task's episode. Every transport
// builds through it, so the statement, the step count and budget (the
// task's), the feedback filtering and the area each modality covers are
// the same everywhere: the text and the symbolic view cover the task's
// local view (task.LocalView: the 9×9 square around the player, or
// Crafter's 9×7 in Crafter's protocols); the image Crafter's 9×7 tiles
// above the inventory (ImageNote says so in the text); under full
// observability the text and, when asked, the symbolic map and a map
// image cover the whole world.
type Builder struct {
	statement string
	budget    int
	feedback  task.Feedback
	view      task.Observability
	local     task.LocalView
	opts      Options
	actions   []string
	help      []string // one line per action
	legend    []string // the ruleset's semantic-id names, with symbolic views

	agent *render.AgentView // the builder's own image renderer, when Options.Image is nil
	frame []byte
	full  *FullObservation // full observability with images or symbolic views
}

// NewBuilder prepares the observations of task t. The atlas is needed only
// for images.
func NewBuilder(t *task.Task, opts Options, atlas *render.Atlas) (*Builder, error) {
	if opts.ImageSize < 0 {
		return nil, fmt.Errorf("observation: image size %d", opts.ImageSize)
	}
	b := &Builder{statement: t.Describe(), budget: t.Budget, feedback: t.Feedback, view: t.Observability, local: t.View, opts: opts}
	for _, a := range t.Rules().Actions {
		b.actions = append(b.actions, a.Name)
	}
	b.help = ActionHelp(t.Rules())
	if opts.Symbolic {
		b.legend = t.Rules().SemanticNames()
	}
	if opts.ImageSize > 0 && opts.Image == nil {
		if atlas == nil {
			return nil, fmt.Errorf("observation: images need the sprite atlas")
		}
		v, err := render.NewAgentView(atlas, opts.ImageSize, render.RGBA)
		if err != nil {
			return nil, fmt.Errorf("observation: %w", err)
		}
		b.agent, b.frame = v, make([]byte, v.FrameBytes())
	}
	if t.Observability == task.Full && (opts.ImageSize > 0 || opts.Symbolic) {
		var a *render.Atlas
		if opts.ImageSize > 0 {
			if atlas == nil {
				return nil, fmt.Errorf("observation: the full-map image needs the sprite atlas")
			}
			a = atlas
		}
		f, err := NewFullObservation(a)
		if err != nil {
			return nil, fmt.Errorf("observation: %w", err)
		}
		b.full = f
	}
	return b, nil
}

// Statement is the task as the agent reads it (Task.Describe).
func (b *Builder) Statement() string { return b.statement }

// Actions lists the action names an agent may answer, in ruleset order.
func (b *Builder) Actions() []string { return b.actions }

// ObserveSkill builds a skill-level observation of w after the skill
// result last (already filtered by the feedback level: nil at none and
// before the first decision), with decisionsLeft of the decision budget.
// The world's text, symbolic view and image are Observe's; the last
// primitive outcome is left out (the skill's result says what happened).
func (b *Builder) ObserveSkill(w *sim.World, last *skill.Result, decisionsLeft int) *Observation {
	obs := b.Observe(w, nil)
	obs.Level, obs.Skill, obs.DecisionsLeft = string(task.ActionsSkills), last, decisionsLeft
	obs.Actions, obs.ActionHelp = skill.Forms(w.Rules()), nil
	if last != nil {
		obs.LastOutcome = last.Text()
	}
	return obs
}

// Observe builds the observation of w after the outcome last (nil before
// the first step). last may be the outcome in full or already filtered:
// the builder filters it by the task's feedback level either way.
func (b *Builder) Observe(w *sim.World, last *sim.Outcome) *Observation {
	r := w.Rules()
	obs := &Observation{Type: "observation", Task: b.statement,
		Text: TextObservation(w, last, b.feedback, b.view, b.local, b.budget),
		Step: w.StepCount(), BudgetLeft: max(b.budget-w.StepCount(), 0), Actions: b.actions,
		ActionHelp: b.help, Budget: b.budget, FeedbackLevel: string(b.feedback), Observability: string(b.view),
		View: string(b.local)}
	if last != nil {
		f := b.local.Filter(b.feedback.Filter(*last))
		obs.LastOutcome = text.Outcome(f, r)
		obs.Feedback = b.feedback.Record(last, r)
	}
	if b.opts.Symbolic {
		var v [sim.ViewSize * sim.ViewSize]uint8
		win := b.local.Window()
		w.WindowView(v[:], win)
		obs.Symbolic = make([][]int, win.Height())
		for y := range obs.Symbolic {
			row := make([]int, win.Width())
			for x := range row {
				row[x] = int(v[y*win.Width()+x])
			}
			obs.Symbolic[y] = row
		}
		obs.SymbolicLegend = b.legend
	}
	if b.opts.ImageSize > 0 {
		var png []byte
		var err error
		if b.opts.Image != nil {
			png, err = b.opts.Image(w)
		} else {
			b.agent.Render(w, b.frame)
			png, err = EncodePNG(b.frame, b.opts.ImageSize, b.opts.ImageSize)
		}
		if err == nil { // an encoding error leaves the image out
			obs.Image = base64.StdEncoding.EncodeToString(png)
		}
		obs.Text += ImageNote(b.local)
	}
	if b.full != nil {
		_ = b.full.Fill(w, obs, b.opts.Symbolic) // an encoding error leaves the map image out
	}
	return obs
}

// ActionHelp states each action of r in one line, in ruleset order: what
// it does, never a recipe (what a make or place uses is for the agent to
// find out).
func ActionHelp(r *sim.Rules) []string {
	dirs := map[sim.Dir]string{sim.DirLeft: "west", sim.DirRight: "east", sim.DirUp: "north", sim.DirDown: "south"}
	var out []string
	for _, a := range r.Actions {
		var h string
		switch a.Kind {
		case sim.ActionMove:
			h = fmt.Sprintf("face %s and step there if the tile is free; into something solid, water or a creature it only turns you", dirs[a.Dir])
		case sim.ActionDo:
			h = "act on the tile you face: collect a material (some need a tool), drink water, hit a creature, eat a cow or a ripe plant"
		case sim.ActionSleep:
			h = "sleep; you wake when rested, or when hurt"
		case sim.ActionPlace:
			h = fmt.Sprintf("put a %s on the tile you face (it uses materials)", r.Place[a.Recipe].Name)
		case sim.ActionMake:
			h = fmt.Sprintf("craft one %s (it uses materials and may need stations nearby)", r.Items[r.Make[a.Recipe].Gives.Item].Name)
		default:
			h = "do nothing for a step"
		}
		out = append(out, a.Name+": "+h)
	}
	return out
}
