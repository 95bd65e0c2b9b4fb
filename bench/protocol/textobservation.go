package protocol

import (
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// TextObservation returns what a language-model agent reads after a step
// of an episode of budget steps: the text observation of view v's window
// with the last outcome filtered by f and by v (what the task lets the
// agent know), and the step counted against the budget ("Step 5 of 12"),
// and under full observability the whole map with a legend.
func TextObservation(w *sim.World, last *sim.Outcome, f task.Feedback, o task.Observability, v task.LocalView, budget int) string {
	var filtered *sim.Outcome
	if last != nil {
		fo := v.Filter(f.Filter(*last))
		filtered = &fo
	}
	local := text.DescribeWindow(w, filtered, budget, v.Window())
	if o != task.Full {
		return local
	}
	var b strings.Builder
	b.WriteString(local)
	px, py := w.Player()
	fmt.Fprintf(&b, "Map (you are @ at x=%d, y=%d; x grows east, y grows south):\n", px, py)
	b.WriteString(w.ASCII())
	b.WriteString("Legend: " + w.Rules().ASCIILegend() + ".\n") // from the rules table
	return b.String()
}
