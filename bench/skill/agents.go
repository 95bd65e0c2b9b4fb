package skill

import (
	"slices"
	"strconv"
	"strings"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Agent plays the skill level: each decision is a command, written as
// text as an external player would write it, from the world and the last
// skill's result as the task's feedback level lets the agent read it (nil
// at none and before the first decision). Agents are deterministic given
// their seed.
type Agent interface {
	Reset(seed uint64)
	Decide(w *sim.World, last *Result) string
}

// Random draws every decision uniformly from the skill menu: the floor.
type Random struct {
	rng  sim.RNG
	menu []Command
}

// Reset seeds the agent.
func (a *Random) Reset(seed uint64) { a.rng = sim.RNG{State: seed ^ 0x736b696c6c} }

// Decide draws a command.
func (a *Random) Decide(w *sim.World, _ *Result) string {
	if a.menu == nil {
		a.menu = Menu(w.Rules())
	}
	return a.menu[a.rng.Intn(len(a.menu))].String()
}

// Learner is the skill level's fair baseline: it knows the goal, the
// skill menu and the results it is told, and nothing of the rules nor
// its coordinates. It tries the goal's own skill; when told what is
// missing it pursues that first (a stack of needs, the one named last on
// top) and learns that it needs more of an item than it held when the
// failure named it; when something has not been seen it explores,
// keeping to one direction until that way is blocked; a skill that failed
// twice in a row without a step is not tried a third time before the
// world has changed; it keeps its vitals up. Below the full feedback
// level it is never told what is missing, and falls back to trying the
// menu's skills that gather things.
type Learner struct {
	goal    task.Goal
	rng     sim.RNG
	stack   []string       // needs, the goal's item first
	want    map[string]int // how many of an item it has learned a need takes
	dir     int
	prog    *task.Progress // the goal's stages (nil before the first decision)
	pending string         // the command of the last decision
	serves  string         // the need it was for ("" for an explore or vitals)
	// The last failure that took no step, and how often in a row.
	stuck  string
	stucks int
	w      *sim.World // the world of the current decision: its local view only
}

// NewLearner returns a learner for goal.
func NewLearner(goal task.Goal) *Learner { return &Learner{goal: goal} }

// Reset starts an episode.
func (a *Learner) Reset(seed uint64) {
	a.rng = sim.RNG{State: seed ^ 0x6c6561726e}
	a.stack, a.prog, a.pending, a.serves, a.stuck, a.stucks = a.stack[:0], nil, "", "", "", 0
	a.want = map[string]int{}
	a.dir = a.rng.Intn(len(directions)) // no way is better before anything is seen
}

// Decide picks the next command.
func (a *Learner) Decide(w *sim.World, last *Result) string {
	r := w.Rules()
	a.w = w // for explore, which reads the local view only
	if last != nil && !last.OK && last.Steps == 0 && last.Skill == a.pending {
		if a.stuck == last.Skill+last.Reason {
			a.stucks++
		} else {
			a.stuck, a.stucks = last.Skill+last.Reason, 1
		}
	} else if last != nil && last.Steps > 0 {
		a.stuck, a.stucks = "", 0
	}
	if c, ok := vitals(w); ok {
		return a.remember(c)
	}
	leaf, ok := current(&a.prog, a.goal, w)
	if !ok {
		return a.remember("noop")
	}
	if last != nil && !last.OK && last.Skill == a.pending && strings.HasPrefix(last.Skill, "explore") {
		a.dir = (a.dir + 1) % len(clockwise) // that way is blocked: turn right
	}
	switch leaf.Kind {
	case task.KindReach:
		return a.remember(Command{Goto, strconv.Itoa(leaf.X) + "," + strconv.Itoa(leaf.Y)}.String())
	case task.KindWaypoints:
		if last != nil && !last.OK && last.Reason == ReasonNotFound {
			return a.remember(a.explore())
		}
		return a.remember("goto landmark " + sim.LandmarkName(leaf.Order[0]))
	case task.KindSurvive:
		return a.remember("noop")
	case task.KindObtain:
	default:
		menu := Menu(r)
		return a.remember(menu[a.rng.Intn(len(menu))].String())
	}
	// Obtain: follow the needs.
	if len(a.stack) == 0 || a.stack[0] != leaf.Item {
		a.stack = append(a.stack[:0], leaf.Item)
		a.want[leaf.Item] = max(a.want[leaf.Item], leaf.Count)
	}
	if last != nil {
		switch {
		case last.OK && last.Skill == a.pending && a.serves == a.stack[len(a.stack)-1] && len(a.stack) > 1:
			if it, isItem := r.ItemByName(a.serves); !isItem || w.Inventory(it) >= a.needOf(a.serves) {
				a.stack = a.stack[:len(a.stack)-1] // that need is met
			}
		case !last.OK && last.Reason == ReasonMissing && len(last.Missing) > 0:
			for _, m := range last.Missing {
				if it, isItem := r.ItemByName(m); isItem {
					a.want[m] = max(a.want[m], w.Inventory(it)+1) // it takes more than it holds
				}
				if k := slices.Index(a.stack, m); k > 0 {
					a.stack = slices.Delete(a.stack, k, k+1) // named again: it comes first now
				}
				if !slices.Contains(a.stack, m) {
					a.stack = append(a.stack, m)
				}
			}
		case !last.OK && (last.Reason == ReasonNotFound || last.Reason == ReasonUnreachable):
			return a.remember(a.explore())
		case !last.OK && last.Reason == ReasonMissing:
			// Told that something is missing, not what: try to gather.
			gather := []string{"collect wood", "collect stone", "place table", "collect coal", "collect iron", "place furnace"}
			return a.remember(gather[a.rng.Intn(len(gather))])
		}
	}
	// Drop needs already held in the amount they take.
	for len(a.stack) > 1 {
		top := a.stack[len(a.stack)-1]
		if it, ok := r.ItemByName(top); ok && w.Inventory(it) >= a.needOf(top) {
			a.stack = a.stack[:len(a.stack)-1]
			continue
		}
		break
	}
	top := a.stack[len(a.stack)-1]
	c := verbFor(r, top)
	if a.stucks >= 2 && a.stuck == c+ReasonMissing || a.stucks >= 2 && strings.HasPrefix(a.stuck, c) {
		return a.remember(a.explore()) // the same failure twice, no step taken: change something first
	}
	c = a.remember(c)
	a.serves = top
	return c
}

// needOf is how many of item a need takes, as far as the learner knows.
func (a *Learner) needOf(item string) int { return max(a.want[item], 1) }

// remember notes the command decided (and, until the caller says
// otherwise, that it serves no need).
func (a *Learner) remember(c string) string { a.pending, a.serves = c, ""; return c }

// explore goes on in the direction it keeps (it turns when that way is
// blocked); a direction its view shows the map's edge in ("outside"
// tiles on that side) is passed over while another is open.
func (a *Learner) explore() string {
	var view [sim.ViewSize * sim.ViewSize]uint8
	a.w.LocalView(view[:])
	edge := func(d int) bool { // the map ends within view straight that way
		const half = sim.ViewSize / 2
		for k := 1; k <= half; k++ {
			if view[(half+k*directions[d].dy)*sim.ViewSize+half+k*directions[d].dx] == 0 {
				return true
			}
		}
		return false
	}
	for k := 0; k < len(clockwise); k++ {
		if d := (a.dir + k) % len(clockwise); !edge(clockwise[d]) {
			a.dir = d
			break
		}
	}
	return "explore " + directions[clockwise[a.dir]].name
}

// clockwise orders directions' indices north, east, south, west: the
// learner turns right when its way is blocked, sweeping the map's rim.
var clockwise = [4]int{0, 2, 1, 3}

// verbFor is the skill that produces name, from the menu alone: make an
// item that is made, collect one that is gathered, place a station.
func verbFor(r *sim.Rules, name string) string {
	_, isItem := r.ItemByName(name)
	switch {
	case isItem && makeRule(r, name) != nil:
		return "make " + name
	case isItem:
		if _, ok := collectRule(r, name); ok {
			return "collect " + name
		}
	case placeRule(r, name) != nil:
		return "place " + name
	}
	return "explore north"
}

// vitals returns the command that keeps the player alive, if one is due.
func vitals(w *sim.World) (string, bool) {
	switch {
	case w.Inventory(sim.ItemDrink) <= 2:
		return "drink", true
	case w.Inventory(sim.ItemFood) <= 2:
		return "eat", true
	case w.Inventory(sim.ItemEnergy) <= 1:
		return "sleep", true
	}
	return "", false
}

// current returns the goal's leaf being pursued, following the goal with
// the episode's own rule of stages (task.Progress), begun on the first
// decision.
func current(prog **task.Progress, goal task.Goal, w *sim.World) (task.Goal, bool) {
	if *prog == nil {
		*prog = task.NewProgress(goal, w)
	} else {
		(*prog).Update(w)
	}
	return (*prog).Current()
}

// Oracle is the skill level's ceiling: it reads the rules and the whole
// world, and resolves the goal's needs itself, so it never spends a
// decision on a skill that cannot start for want of an item. The
// certifier plays it under full observability.
type Oracle struct {
	goal task.Goal
	prog *task.Progress // the goal's stages (nil before the first decision)
	dir  int
	// unseen are stations a make was told are missing: there may be one
	// somewhere, but not where the agent has been (or not beside the
	// others); anchor is the station to place them beside.
	unseen []string
	anchor sim.Material
}

// NewOracle returns the oracle for goal.
func NewOracle(goal task.Goal) *Oracle { return &Oracle{goal: goal} }

// Reset starts an episode.
func (a *Oracle) Reset(uint64) { a.prog, a.dir, a.unseen, a.anchor = nil, 0, a.unseen[:0], sim.MatNone }

// Decide resolves the next command.
func (a *Oracle) Decide(w *sim.World, last *Result) string {
	if last != nil && !last.OK && last.Reason == ReasonUnreachable && strings.HasPrefix(last.Skill, "make ") {
		// Its stations stand apart: go to the last (the rules list the
		// dearer ones last: an anvil after a table), and place the
		// others beside it.
		if mk := makeRule(w.Rules(), strings.TrimPrefix(last.Skill, "make ")); mk != nil && len(mk.Nearby) > 1 {
			for _, st := range mk.Nearby[:len(mk.Nearby)-1] {
				if name := w.Rules().Materials[st].Name; !slices.Contains(a.unseen, name) {
					a.unseen = append(a.unseen, name)
				}
			}
			a.anchor = mk.Nearby[len(mk.Nearby)-1]
			return "goto " + w.Rules().Materials[a.anchor].Name
		}
	}
	if last != nil && !last.OK && (last.Reason == ReasonNotFound || last.Reason == ReasonUnreachable) {
		// It knows where the thing is: head that way.
		if len(last.Missing) == 1 {
			if d, ok := toward(w, last.Missing[0]); ok {
				return "explore " + d
			}
		}
		a.dir = (a.dir + 1) % len(directions)
		return "explore " + directions[a.dir].name
	}
	if last != nil && last.Reason == ReasonMissing {
		for _, m := range last.Missing {
			if _, isItem := w.Rules().ItemByName(m); !isItem && !slices.Contains(a.unseen, m) {
				a.unseen = append(a.unseen, m)
			}
		}
	}
	if c, ok := vitals(w); ok {
		return c
	}
	leaf, ok := current(&a.prog, a.goal, w)
	if !ok {
		return "noop"
	}
	switch leaf.Kind {
	case task.KindReach:
		return Command{Goto, strconv.Itoa(leaf.X) + "," + strconv.Itoa(leaf.Y)}.String()
	case task.KindWaypoints:
		return "goto landmark " + sim.LandmarkName(leaf.Order[0])
	case task.KindObtain:
		if c, ok := a.need(w, leaf.Item, leaf.Count, 0); ok {
			return c
		}
	}
	return "noop"
}

// need returns the first command toward holding n of item under w's
// rules, or false when it is held (or cannot be made: depth guards
// circular rules).
func (a *Oracle) need(w *sim.World, item string, n, depth int) (string, bool) {
	r := w.Rules()
	it, ok := r.ItemByName(item)
	if !ok || w.Inventory(it) >= n || depth > 12 {
		return "", false
	}
	if mk := makeRule(r, item); mk != nil {
		for _, u := range mk.Uses {
			if w.Inventory(u.Item) < int(u.Amount) {
				if c, ok := a.need(w, r.Items[u.Item].Name, int(u.Amount), depth+1); ok {
					return c, true
				}
			}
		}
		for _, st := range mk.Nearby {
			if !hasMaterial(w, st) || slices.Contains(a.unseen, r.Materials[st].Name) {
				if c, ok := a.station(w, st, depth+1); ok {
					return c, true
				}
			}
		}
		return "make " + item, true
	}
	if cr, ok := collectRule(r, item); ok {
		for _, t := range cr.Require {
			if w.Inventory(t.Item) < int(t.Amount) {
				if c, ok := a.need(w, r.Items[t.Item].Name, int(t.Amount), depth+1); ok {
					return c, true
				}
			}
		}
		if cr.Light && r.LightItem != sim.ItemHealth && w.Inventory(r.LightItem) == 0 {
			if c, ok := a.need(w, r.Items[r.LightItem].Name, 1, depth+1); ok {
				return c, true
			}
		}
		return "collect " + item, true
	}
	return "", false
}

// station returns the first command toward placing station st.
func (a *Oracle) station(w *sim.World, st sim.Material, depth int) (string, bool) {
	r := w.Rules()
	for i := range r.Place {
		p := &r.Place[i]
		if p.Material != st {
			continue
		}
		for _, u := range p.Uses {
			if w.Inventory(u.Item) < int(u.Amount) {
				if c, ok := a.need(w, r.Items[u.Item].Name, int(u.Amount), depth+1); ok {
					return c, true
				}
			}
		}
		if i := slices.Index(a.unseen, r.Materials[st].Name); i >= 0 {
			if a.anchor != sim.MatNone && !beside(w, a.anchor) {
				return "goto " + r.Materials[a.anchor].Name, true
			}
			a.unseen = slices.Delete(a.unseen, i, i+1) // placed next: seen
		}
		return "place " + p.Name, true
	}
	return "", false
}

// toward returns the direction of the nearest tile of material (or
// creature) name in the whole world, along its longer axis.
func toward(w *sim.World, name string) (string, bool) {
	r := w.Rules()
	px, py := w.Player()
	best, bx, by := -1, 0, 0
	consider := func(x, y int) {
		if d := grid.Manhattan(x, y, px, py); best < 0 || d < best {
			best, bx, by = d, x, y
		}
	}
	if m, ok := r.MaterialByName(name); ok {
		for y := 0; y < w.Height(); y++ {
			for x := 0; x < w.Width(); x++ {
				if w.Material(x, y) == m {
					consider(x, y)
				}
			}
		}
	} else if k, ok := creatureByName(r, name); ok {
		for _, o := range w.Objects() {
			if o.Kind == k {
				consider(int(o.X), int(o.Y))
			}
		}
	}
	if best < 0 {
		return "", false
	}
	d := grid.Toward(bx-px, by-py)
	if d == sim.DirNone {
		d = sim.DirLeft // standing on it: any way will do, and it has been west
	}
	for _, n := range directions {
		if dx, dy := d.Offset(); n.dx == dx && n.dy == dy {
			return n.name, true
		}
	}
	return "", false
}

// beside reports whether a tile of st is in the player's 3×3 square.
func beside(w *sim.World, st sim.Material) bool {
	px, py := w.Player()
	for y := py - 1; y <= py+1; y++ {
		for x := px - 1; x <= px+1; x++ {
			if w.Material(x, y) == st {
				return true
			}
		}
	}
	return false
}

// hasMaterial reports whether any tile of w is st.
func hasMaterial(w *sim.World, st sim.Material) bool {
	for y := 0; y < w.Height(); y++ {
		for x := 0; x < w.Width(); x++ {
			if w.Material(x, y) == st {
				return true
			}
		}
	}
	return false
}

// Idle decides noop, always: the skill level's noop agent.
type Idle struct{}

// Reset does nothing.
func (Idle) Reset(uint64) {}

// Decide returns noop.
func (Idle) Decide(*sim.World, *Result) string { return "noop" }
