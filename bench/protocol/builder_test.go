package protocol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// TestBuilder: what each option adds, and that the step count and budget
// are the task's in every field.
func TestBuilder(t *testing.T) {
	atlas, err := render.LoadAtlas()
	require.NoError(t, err)
	for _, c := range []struct {
		view     task.Observability
		fb       task.Feedback
		opts     Options
		image    bool
		symbolic bool
		whole    bool // symbolic_map
		mapImage bool
	}{
		{view: task.Partial, fb: task.FeedbackFull},
		{view: task.Partial, fb: task.FeedbackReason, opts: Options{Symbolic: true}, symbolic: true},
		{view: task.Partial, fb: task.FeedbackNone, opts: Options{ImageSize: 36}, image: true},
		{view: task.Full, fb: task.FeedbackFull, opts: Options{Symbolic: true, ImageSize: 36}, image: true, symbolic: true, whole: true, mapImage: true},
		{view: task.Full, fb: task.FeedbackFull, opts: Options{Symbolic: true}, symbolic: true, whole: true},
	} {
		spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1, Budget: 30, Observability: c.view, Feedback: c.fb}
		tk, err := task.Generate(spec, nil)
		require.NoError(t, err)
		w, err := tk.NewWorld()
		require.NoError(t, err)
		b, err := NewBuilder(tk, c.opts, atlas)
		require.NoError(t, err)
		first := b.Observe(w, nil)
		assert.Nil(t, first.Feedback)
		assert.Empty(t, first.LastOutcome)
		out := w.Step(sim.ActMakeWoodPickaxe) // fails: no table, no wood
		o := b.Observe(w, &out)
		name := string(c.view) + "/" + string(c.fb)
		assert.Equal(t, tk.Describe(), o.Task, name)
		assert.Contains(t, o.Text, "Step 1 of 30", name)
		assert.Equal(t, 1, o.Step, name)
		assert.Equal(t, 29, o.BudgetLeft, name)
		assert.Len(t, o.Actions, len(tk.Rules().Actions), name)
		assert.Equal(t, c.image, o.Image != "", name)
		assert.Equal(t, c.image, strings.HasSuffix(o.Text, ImageNote(task.LongcraftView)), name)
		assert.Equal(t, c.symbolic, o.Symbolic != nil, name)
		assert.Equal(t, c.symbolic, o.SymbolicLegend != nil, name)
		assert.Equal(t, c.whole, o.SymbolicMap != nil, name)
		assert.Equal(t, c.mapImage, o.MapImage != "", name)
		if c.whole {
			assert.Len(t, o.SymbolicMap, w.Height(), name)
		}
		switch c.fb {
		case task.FeedbackFull:
			require.NotNil(t, o.Feedback, name)
			assert.NotEmpty(t, o.Feedback.Missing, name)
		case task.FeedbackReason:
			require.NotNil(t, o.Feedback, name)
			assert.Empty(t, o.Feedback.Missing, name)
		case task.FeedbackNone:
			assert.Nil(t, o.Feedback, name)
			assert.NotContains(t, o.LastOutcome, "failed", name)
		}
	}
	// Past the budget, budget_left stays at 0.
	tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1, Budget: 1}, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	b, err := NewBuilder(tk, Options{}, nil)
	require.NoError(t, err)
	w.Step(sim.ActNoop)
	w.Step(sim.ActNoop)
	assert.Zero(t, b.Observe(w, nil).BudgetLeft)
	_, err = NewBuilder(tk, Options{ImageSize: 36}, nil)
	assert.Error(t, err, "images without an atlas")
}
