package dataset

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// Config describes a dataset: Episodes seeded episodes (world i seeded
// Seed+i) of a built-in policy, each frame rendered at Size×Size.
type Config struct {
	Out      string // directory, created if missing
	Episodes int
	Seed     uint64
	MaxSteps int // per episode; 0 means the ruleset's episode length
	Size     int
	Policy   string
}

// Record is one line of steps.jsonl: the frame of the same index in
// frames.npy, the action then taken (absent on an episode's last frame),
// and what it did.
type Record struct {
	Frame   int     `json:"frame"`
	Episode int     `json:"episode"`
	Seed    uint64  `json:"seed,string"` // a string: float64 JSON readers round 64-bit seeds
	Step    int     `json:"step"`
	Action  *string `json:"action"`
	Outcome string  `json:"outcome,omitempty"`
	Reward  float64 `json:"reward"`
	Done    bool    `json:"done"`
	Text    string  `json:"text"` // the text observation of this frame
}

// NoAction marks an episode's last frame in actions.npy.
const NoAction = 255

// Stats counts what Build wrote.
type Stats struct{ Episodes, Frames int }

// Build writes the dataset: frames.npy (uint8 [N, Size, Size, 3]),
// actions.npy (uint8 [N], NoAction on last frames) and steps.jsonl (N
// records). Memory stays bounded: one frame at a time is rendered and
// streamed. When ctx is cancelled it finishes the current frame, closes
// every file as a valid dataset of the frames so far, and returns ctx's
// error. progress, if not nil, is called after every frame.
func Build(ctx context.Context, cfg Config, a *render.Atlas, progress func(frames int)) (Stats, error) {
	var st Stats
	policy, err := policy.New(cfg.Policy)
	if err != nil {
		return st, err
	}
	view, err := render.NewAgentView(a, cfg.Size, render.RGB)
	if err != nil {
		return st, err
	}
	w, err := sim.New(sim.Config{})
	if err != nil {
		return st, err
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return st, fmt.Errorf("dataset: %w", err)
	}
	frames, err := CreateNPY(filepath.Join(cfg.Out, "frames.npy"), cfg.Size, cfg.Size, 3)
	if err != nil {
		return st, err
	}
	actions, err := CreateNPY(filepath.Join(cfg.Out, "actions.npy"))
	if err != nil {
		frames.Close()
		return st, err
	}
	stepsPath := filepath.Join(cfg.Out, "steps.jsonl")
	stepsFile, err := os.Create(stepsPath)
	if err != nil {
		frames.Close()
		actions.Close()
		return st, fmt.Errorf("create %s: %w", stepsPath, err)
	}
	steps := bufio.NewWriterSize(stepsFile, 1<<16)
	enc := json.NewEncoder(steps)

	// closeAll finishes every file; the first error wins.
	closeAll := func(err error) error {
		errs := []error{err, frames.Close(), actions.Close(), steps.Flush(), stepsFile.Close()}
		return errors.Join(errs...)
	}

	frame := make([]byte, view.FrameBytes())
	names := w.Rules().Actions
	for e := 0; e < cfg.Episodes && ctx.Err() == nil; e++ {
		seed := cfg.Seed + uint64(e)
		w.Reset(seed)
		policy.Reset(seed)
		var last *sim.Outcome
		var out sim.Outcome
		for t := 0; ctx.Err() == nil; t++ {
			// Frame t shows the state the policy chooses action t in.
			done := w.Done() || (cfg.MaxSteps > 0 && t >= cfg.MaxSteps)
			view.Render(w, frame)
			rec := Record{Frame: st.Frames, Episode: e, Seed: seed, Step: t, Text: text.Describe(w, last), Done: done}
			act := uint8(NoAction)
			if !done {
				a := policy.Act(w, last)
				out = w.Step(a)
				last = &out
				name := names[a].Name
				act = uint8(a)
				rec.Action, rec.Outcome, rec.Reward = &name, text.Outcome(out, w.Rules()), out.Reward()
			}
			if err := frames.Append(frame); err != nil {
				return st, closeAll(err)
			}
			if err := actions.Append([]byte{act}); err != nil {
				return st, closeAll(err)
			}
			if err := enc.Encode(&rec); err != nil {
				return st, closeAll(fmt.Errorf("write %s: %w", stepsPath, err))
			}
			st.Frames++
			if progress != nil {
				progress(st.Frames)
			}
			if done {
				st.Episodes++
				break
			}
		}
	}
	return st, closeAll(ctx.Err())
}
