package skill

import (
	"fmt"
	"slices"

	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// MaxSteps bounds one skill's primitive steps (sleep may take more:
// MaxSleepSteps): a skill that has not finished by then ends as stuck.
const (
	MaxSteps      = 120
	MaxSleepSteps = 400
	exploreReach  = 8 // tiles an explore advances at most
)

// nightLight is the daylight (1/65536) below which it is night: the
// threshold of a skill's "night" interruption.
const nightLight = 19661 // 0.3

// Executor runs skills on one episode's world. It remembers the materials
// of every tile the agent has seen (the local view, after every step), and
// under full observability it knows the whole map; goto and the skills
// built on it go only where that knowledge leads.
type Executor struct {
	full   bool
	width  int
	known  []uint8 // material+1 of each seen tile; 0 unseen
	marks  [9][2]int
	marked [9]bool

	// The running skill.
	cmd        Command
	steps      int
	health     int8
	day        bool
	zombieNear bool
	tries      int
	start      [2]int
	count      int // the goal item's count at the start
	goal       [2]int
	haveGoal   bool

	// The map's shape and the search's scratch, kept between steps.
	g      grid.Grid
	search grid.BFS
}

// Reset starts an episode on w (just reset); full is the task's full
// observability.
func (x *Executor) Reset(w *sim.World, full bool) {
	n := w.Width() * w.Height()
	x.full, x.width = full, w.Width()
	x.known = slices.Grow(x.known[:0], n)[:n]
	clear(x.known)
	x.marked = [9]bool{}
	x.g.Init(w.Width(), w.Height())
	x.Saw(w)
}

// Saw updates what the agent has seen from w: its local view (the whole
// map under full observability). Hosts call it after every step.
func (x *Executor) Saw(w *sim.World) {
	px, py := w.Player()
	const half = sim.ViewSize / 2
	x0, y0, x1, y1 := px-half, py-half, px+half, py+half
	if x.full {
		x0, y0, x1, y1 = 0, 0, w.Width()-1, w.Height()-1
	}
	for y := max(y0, 0); y <= min(y1, w.Height()-1); y++ {
		for xx := max(x0, 0); xx <= min(x1, w.Width()-1); xx++ {
			x.known[y*x.width+xx] = uint8(w.Material(xx, y)) + 1
		}
	}
	for _, o := range w.Objects() {
		if o.Kind == sim.ObjLandmark && x.visible(w, int(o.X), int(o.Y)) && o.Timer >= 0 && o.Timer < 9 {
			x.marks[o.Timer], x.marked[o.Timer] = [2]int{int(o.X), int(o.Y)}, true
		}
	}
}

// visible reports whether tile (tx, ty) is in the agent's view now.
func (x *Executor) visible(w *sim.World, tx, ty int) bool {
	if x.full {
		return true
	}
	px, py := w.Player()
	const half = sim.ViewSize / 2
	return grid.Abs(tx-px) <= half && grid.Abs(ty-py) <= half
}

// material returns the known material of (tx, ty) and whether it is known.
func (x *Executor) material(tx, ty int) (sim.Material, bool) {
	k := x.known[ty*x.width+tx]
	return sim.Material(k - 1), k != 0
}

// Steps is the running (or last) skill's steps so far.
func (x *Executor) Steps() int { return x.steps }

// Begin starts command c on w. A skill that cannot start returns done and
// its result (no step taken); otherwise the host calls Next until done.
func (x *Executor) Begin(w *sim.World, c Command) (done bool, res Result) {
	x.cmd, x.steps, x.tries, x.haveGoal = c, 0, 0, false
	x.health = int8(w.Inventory(sim.ItemHealth))
	x.day = w.Daylight() >= nightLight
	x.zombieNear = x.zombieClose(w)
	px, py := w.Player()
	x.start = [2]int{px, py}
	r := w.Rules()
	fail := func(reason string, missing ...string) (bool, Result) {
		return true, Result{Skill: c.String(), Reason: reason, Missing: missing}
	}
	switch c.Verb {
	case Collect:
		cr, _ := collectRule(r, c.Arg)
		if m := needs(w, cr.Require); len(m) > 0 {
			return fail(ReasonMissing, m...)
		}
		x.count = w.Inventory(cr.Receive.Item)
	case Make:
		mk := makeRule(r, c.Arg)
		if m := needs(w, mk.Uses); len(m) > 0 {
			return fail(ReasonMissing, m...)
		}
		x.count = w.Inventory(mk.Gives.Item)
	case Place:
		if m := needs(w, placeRule(r, c.Arg).Uses); len(m) > 0 {
			return fail(ReasonMissing, m...)
		}
	case Drink:
		if w.Inventory(sim.ItemDrink) >= int(r.Items[sim.ItemDrink].Max) {
			return fail(ReasonNotNeeded)
		}
	case Eat:
		x.count = w.Inventory(sim.ItemFood)
		if x.count >= int(r.Items[sim.ItemFood].Max) {
			return fail(ReasonNotNeeded)
		}
	case Sleep:
		if w.Inventory(sim.ItemEnergy) >= int(r.Items[sim.ItemEnergy].Max) {
			return fail(ReasonNotNeeded)
		}
	case Goto:
		if tx, ty, ok := parseXY(c.Arg); ok && !w.Inside(tx, ty) {
			return fail(ReasonUnreachable)
		}
	}
	return false, Result{}
}

// Next returns the skill's next primitive action given w (after the last
// action, whose full outcome is last; nil before the first), or done and
// the result.
func (x *Executor) Next(w *sim.World, last *sim.Outcome) (a sim.Action, done bool, res Result) {
	if x.steps > 0 {
		if cause := x.interrupted(w); cause != "" {
			return x.finish(false, ReasonInterrupted, cause)
		}
	}
	limit := MaxSteps
	if x.cmd.Verb == Sleep {
		limit = MaxSleepSteps
	}
	if x.steps >= limit {
		return x.finish(false, ReasonStuck, "")
	}
	switch x.cmd.Verb {
	case Noop:
		return x.noop()
	case Goto:
		return x.goTo(w)
	case Collect:
		return x.collect(w, last)
	case Make:
		return x.makeItem(w, last)
	case Place:
		return x.place(w, last)
	case Attack, Eat:
		return x.attackOrEat(w, last)
	case Drink:
		return x.drink(w)
	case Sleep:
		return x.sleep(w)
	case Explore:
		return x.explore(w)
	}
	return x.finish(false, ReasonInvalid, fmt.Sprintf("unknown skill %q", x.cmd.Verb))
}

// finish ends the running skill with its result.
func (x *Executor) finish(ok bool, reason, detail string, missing ...string) (sim.Action, bool, Result) {
	return 0, true, Result{Skill: x.cmd.String(), OK: ok, Reason: reason, Detail: detail, Missing: missing, Steps: x.steps}
}

// act takes primitive action a as the skill's next step.
func (x *Executor) act(a sim.Action) (sim.Action, bool, Result) {
	x.steps++
	return a, false, Result{}
}

// failed ends the skill as failed for the reason the last action failed.
func (x *Executor) failed(r *sim.Rules, last *sim.Outcome) (sim.Action, bool, Result) {
	return x.finish(false, ReasonFailed, last.Reason.String(), ItemNames(r, last.Missing)...)
}

// doAt walks to face target and then presses do.
func (x *Executor) doAt(w *sim.World, target string) (sim.Action, bool, Result) {
	a, arrived, reason, miss := x.approach(w, target, true)
	switch {
	case arrived:
		return x.act(sim.ActDo)
	case reason != "":
		return x.finish(false, reason, "", miss...)
	}
	return x.act(a)
}

// named is the action of the rules called name.
func named(r *sim.Rules, name string) sim.Action {
	a, _ := r.ActionByName(name)
	return a
}

// noop waits one step.
func (x *Executor) noop() (sim.Action, bool, Result) {
	if x.steps == 1 {
		return x.finish(true, "", "")
	}
	return x.act(sim.ActNoop)
}

// goTo walks to goto's target: onto it or, for what cannot be stood on,
// next to it facing it.
func (x *Executor) goTo(w *sim.World) (sim.Action, bool, Result) {
	a, arrived, reason, miss := x.approach(w, x.cmd.Arg, false)
	switch {
	case arrived:
		return x.finish(true, "", "")
	case reason != "":
		return x.finish(false, reason, "", miss...)
	}
	return x.act(a)
}

// collect walks to the material that gives the item and presses do until
// the item is received, reading why a press did not give it.
func (x *Executor) collect(w *sim.World, last *sim.Outcome) (sim.Action, bool, Result) {
	r := w.Rules()
	cr, _ := collectRule(r, x.cmd.Arg)
	if w.Inventory(cr.Receive.Item) > x.count {
		return x.finish(true, "", "")
	}
	if last != nil && last.Action == sim.ActDo {
		switch last.Reason {
		case sim.ReasonNone:
		case sim.ReasonNoLuck:
			if x.tries++; x.tries >= 10 {
				return x.finish(false, ReasonFailed, last.Reason.String())
			}
		case sim.ReasonNeedsLight:
			light := "light"
			if r.LightItem != sim.ItemHealth {
				light = r.Items[r.LightItem].Name
			}
			return x.finish(false, ReasonMissing, "", light)
		case sim.ReasonInventoryFull:
			return x.finish(false, ReasonNotNeeded, last.Reason.String())
		default:
			return x.failed(r, last)
		}
	}
	return x.doAt(w, r.Materials[cr.Material].Name)
}

// makeItem walks to where the recipe's stations are side by side and makes
// the item.
func (x *Executor) makeItem(w *sim.World, last *sim.Outcome) (sim.Action, bool, Result) {
	r := w.Rules()
	mk := makeRule(r, x.cmd.Arg)
	if w.Inventory(mk.Gives.Item) > x.count {
		return x.finish(true, "", "")
	}
	if last != nil && r.Actions[last.Action].Kind == sim.ActionMake {
		if last.Reason == sim.ReasonInventoryFull {
			return x.finish(false, ReasonNotNeeded, last.Reason.String())
		}
		return x.failed(r, last)
	}
	a, arrived, reason, miss := x.stations(w, mk.Nearby)
	switch {
	case arrived:
		return x.act(named(r, "make_"+x.cmd.Arg))
	case reason != "":
		return x.finish(false, reason, "", miss...)
	}
	return x.act(a)
}

// place turns to a tile that takes the block and places it.
func (x *Executor) place(w *sim.World, last *sim.Outcome) (sim.Action, bool, Result) {
	r := w.Rules()
	p := placeRule(r, x.cmd.Arg)
	if last != nil && r.Actions[last.Action].Kind == sim.ActionPlace {
		if last.Kind == sim.OutPlaced {
			return x.finish(true, "", "")
		}
		return x.failed(r, last)
	}
	a, ok := x.placeSpot(w, p)
	if !ok {
		return x.finish(false, ReasonFailed, "no_room")
	}
	return x.act(a)
}

// attackOrEat walks to the creature (a cow, to eat) and strikes it until
// it is defeated or eaten.
func (x *Executor) attackOrEat(w *sim.World, last *sim.Outcome) (sim.Action, bool, Result) {
	r := w.Rules()
	kind := prey(r)
	if x.cmd.Verb == Attack {
		kind, _ = creatureByName(r, x.cmd.Arg)
	}
	if last != nil && last.Action == sim.ActDo && (last.Defeated || last.Kind == sim.OutAte) {
		return x.finish(true, "", "")
	}
	if x.cmd.Verb == Eat && w.Inventory(sim.ItemFood) > x.count {
		return x.finish(true, "", "")
	}
	return x.doAt(w, r.KindName(kind))
}

// drink walks to water and drinks until full.
func (x *Executor) drink(w *sim.World) (sim.Action, bool, Result) {
	r := w.Rules()
	if w.Inventory(sim.ItemDrink) >= int(r.Items[sim.ItemDrink].Max) {
		return x.finish(true, "", "")
	}
	return x.doAt(w, "water")
}

// sleep sleeps until the player wakes: rested, or woken by a hit.
func (x *Executor) sleep(w *sim.World) (sim.Action, bool, Result) {
	r := w.Rules()
	if x.steps > 0 && !w.Sleeping() {
		if w.Inventory(sim.ItemEnergy) >= int(r.Items[sim.ItemEnergy].Max) {
			return x.finish(true, "", "") // woke rested
		}
		return x.finish(false, ReasonInterrupted, "damage") // woken by a hit, not rested
	}
	return x.act(named(r, "sleep"))
}

// interrupted says what cut the running skill short, if anything: death,
// damage (but an attack expects to be hit back), the night falling (but
// not on sleep), or a zombie coming close.
func (x *Executor) interrupted(w *sim.World) string {
	h := int8(w.Inventory(sim.ItemHealth))
	defer func() { x.health = h }()
	switch {
	case w.Dead():
		return "death"
	case h < x.health && x.cmd.Verb != Attack && x.cmd.Verb != Sleep:
		return "damage"
	}
	day := w.Daylight() >= nightLight
	wasDay := x.day
	x.day = day
	if wasDay && !day && x.cmd.Verb != Sleep {
		return "night"
	}
	near := x.zombieClose(w)
	was := x.zombieNear
	x.zombieNear = near
	if near && !was && x.cmd.Verb != Attack {
		return "zombie"
	}
	return ""
}

// zombieClose reports a zombie (a hostile creature that strikes from
// next to the player rather than shooting) within two tiles (L1) of the
// player.
func (x *Executor) zombieClose(w *sim.World) bool {
	r := w.Rules()
	px, py := w.Player()
	for _, o := range w.Objects() {
		if r.Hostile(o.Kind) && r.Kind(o.Kind).Missile == sim.ObjNone && grid.Manhattan(int(o.X), int(o.Y), px, py) <= 2 {
			return true
		}
	}
	return false
}

// walkable reports whether the player may step on (tx, ty) as far as the
// agent knows: a known walkable, non-deadly material with no object seen
// on it now, or a tile not seen yet. Paths are planned optimistically
// through the unseen, as frontier navigation does; this is safe because
// the next step is always onto an adjacent tile, which is in view and so
// known, and the path is planned again after every step.
func (x *Executor) walkable(w *sim.World, tx, ty int) bool {
	if !w.Inside(tx, ty) {
		return false // beyond the map's edge: placeSpot asks about a border player's neighbours
	}
	m, ok := x.material(tx, ty)
	if !ok {
		return true
	}
	info := &w.Rules().Materials[m]
	if !info.Walkable || info.Deadly {
		return false
	}
	if _, occupied := w.ObjectAt(tx, ty); occupied && x.visible(w, tx, ty) {
		px, py := w.Player()
		return tx == px && ty == py
	}
	return true
}

// bfs searches from the player over the tiles walkable as far as the
// agent knows (x.search: distances, paths, the tiles nearest first).
func (x *Executor) bfs(w *sim.World) {
	px, py := w.Player()
	x.search.Run(&x.g, x.g.Index(px, py), func(_, to int) bool {
		tx, ty := x.g.XY(to)
		return x.walkable(w, tx, ty)
	})
}

// stepToward returns the move that takes the player one tile along the
// BFS path to tile goal (bfs must have run and reached goal).
func (x *Executor) stepToward(w *sim.World, goal int32) sim.Action {
	px, py := w.Player()
	tx, ty := x.g.XY(x.search.First(int(goal)))
	return moveTo(px, py, tx, ty)
}

// moveTo is the move action from (px, py) onto the adjacent (tx, ty).
func moveTo(px, py, tx, ty int) sim.Action { return sim.Action(grid.DirOf(tx-px, ty-py)) }

// approach moves toward the nearest known target of goto's argument: it
// returns arrived once the player stands on it (a walkable material, a
// position) or next to it facing it (anything else, and any material when
// mustFace: collecting acts on the faced tile); or a failure reason and
// what is missing.
func (x *Executor) approach(w *sim.World, arg string, mustFace bool) (a sim.Action, arrived bool, reason string, missing []string) {
	r := w.Rules()
	px, py := w.Player()
	var stand, face func(tx, ty int) bool // targets to stand on, or to face
	switch {
	case len(arg) == 10 && arg[:9] == "landmark ":
		l := int(arg[9] - 'A')
		if !x.marked[l] {
			return 0, false, ReasonNotFound, []string{arg}
		}
		p := x.marks[l]
		face = func(tx, ty int) bool { return tx == p[0] && ty == p[1] }
	default:
		if gx, gy, ok := parseXY(arg); ok {
			stand = func(tx, ty int) bool { return tx == gx && ty == gy }
		} else if k, ok := creatureByName(r, arg); ok {
			face = func(tx, ty int) bool {
				o, ok := w.ObjectAt(tx, ty)
				return ok && o.Kind == k && x.visible(w, tx, ty)
			}
		} else if m, ok := r.MaterialByName(arg); ok {
			if r.Materials[m].Walkable && !r.Materials[m].Deadly && !mustFace {
				stand = func(tx, ty int) bool { k, ok := x.material(tx, ty); return ok && k == m }
			} else {
				face = func(tx, ty int) bool { k, ok := x.material(tx, ty); return ok && k == m }
			}
		}
	}
	if stand != nil && stand(px, py) {
		return 0, true, "", nil
	}
	if face != nil {
		if tx, ty := w.Target(); w.Inside(tx, ty) && face(tx, ty) {
			return 0, true, "", nil
		}
		for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			if tx, ty := px+d[0], py+d[1]; w.Inside(tx, ty) && face(tx, ty) {
				return moveTo(px, py, tx, ty), false, "", nil // turns: the tile is not free
			}
		}
	}
	// Is there any known target at all? Then walk to the nearest tile
	// that stands on it or next to it.
	seen := false
	x.bfs(w)
	h := w.Height()
	best := int32(-1)
	for _, i := range x.search.Order {
		tx, ty := int(i)%x.width, int(i)/x.width
		if stand != nil && stand(tx, ty) {
			best = i
			break
		}
		if face != nil {
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if nx, ny := tx+d[0], ty+d[1]; nx >= 0 && ny >= 0 && nx < x.width && ny < h && face(nx, ny) {
					best = i
					break
				}
			}
			if best >= 0 {
				break
			}
		}
	}
	if best >= 0 {
		return x.stepToward(w, best), false, "", nil
	}
	for ty := 0; ty < h && !seen; ty++ {
		for tx := 0; tx < x.width && !seen; tx++ {
			seen = (stand != nil && stand(tx, ty)) || (face != nil && face(tx, ty))
		}
	}
	if seen {
		return 0, false, ReasonUnreachable, nil
	}
	return 0, false, ReasonNotFound, []string{arg}
}

// stations walks to a tile whose 3×3 square holds every station of need
// (the square make reads); arrived when the player stands on one.
func (x *Executor) stations(w *sim.World, need []sim.Material) (a sim.Action, arrived bool, reason string, missing []string) {
	r := w.Rules()
	h := w.Height()
	ok := func(tx, ty int) bool {
		for _, st := range need {
			found := false
			for y := ty - 1; y <= ty+1 && !found; y++ {
				for xx := tx - 1; xx <= tx+1 && !found; xx++ {
					if xx >= 0 && y >= 0 && xx < x.width && y < h {
						m, known := x.material(xx, y)
						found = known && m == st
					}
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	px, py := w.Player()
	if ok(px, py) {
		return 0, true, "", nil
	}
	x.bfs(w)
	for _, i := range x.search.Order {
		if ok(int(i)%x.width, int(i)/x.width) {
			return x.stepToward(w, i), false, "", nil
		}
	}
	// Which stations are not known anywhere, or not side by side?
	for _, st := range need {
		if !slices.Contains(x.known, uint8(st)+1) {
			missing = append(missing, r.Materials[st].Name)
		}
	}
	if len(missing) == 0 {
		return 0, false, ReasonUnreachable, nil
	}
	return 0, false, ReasonMissing, missing
}

// placeSpot returns the action toward placing p: place when the faced
// tile takes it; else turn to an adjacent tile that does (moving onto a
// walkable one faces the tile beyond); false when no tile within reach
// will do after a few tries.
func (x *Executor) placeSpot(w *sim.World, p *sim.PlaceRule) (sim.Action, bool) {
	r := w.Rules()
	takes := func(tx, ty int) bool {
		if !w.Inside(tx, ty) {
			return false
		}
		_, occupied := w.ObjectAt(tx, ty)
		return !occupied && p.Where.Has(w.Material(tx, ty))
	}
	if tx, ty := w.Target(); takes(tx, ty) {
		a, _ := r.ActionByName("place_" + p.Name)
		return a, true
	}
	if x.steps >= 8 {
		return 0, false
	}
	px, py := w.Player()
	dirs := [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
	// A non-walkable neighbour that takes it: moving toward it turns.
	for _, d := range dirs {
		tx, ty := px+d[0], py+d[1]
		if takes(tx, ty) && !x.walkable(w, tx, ty) {
			return moveTo(px, py, tx, ty), true
		}
	}
	// A walkable neighbour with a tile beyond that takes it.
	for _, d := range dirs {
		tx, ty := px+d[0], py+d[1]
		if x.walkable(w, tx, ty) && takes(tx+d[0], ty+d[1]) {
			return moveTo(px, py, tx, ty), true
		}
	}
	for _, d := range dirs {
		if tx, ty := px+d[0], py+d[1]; x.walkable(w, tx, ty) {
			return moveTo(px, py, tx, ty), true
		}
	}
	return 0, false
}

// explore walks up to exploreReach tiles in the command's direction,
// around obstacles over known tiles: each step heads for the known
// reachable tile farthest that way (nearest first among ties).
func (x *Executor) explore(w *sim.World) (sim.Action, bool, Result) {
	var dx, dy int
	for _, d := range directions {
		if d.name == x.cmd.Arg {
			dx, dy = d.dx, d.dy
		}
	}
	px, py := w.Player()
	progress := func(tx, ty int) int { return (tx-x.start[0])*dx + (ty-x.start[1])*dy }
	if progress(px, py) >= exploreReach {
		return x.finish(true, "", "")
	}
	x.bfs(w)
	best, bestP := int32(-1), progress(px, py)
	for _, i := range x.search.Order {
		tx, ty := int(i)%x.width, int(i)/x.width
		if p := progress(tx, ty); p > bestP && p <= exploreReach {
			best, bestP = i, p
		}
	}
	if best < 0 {
		if progress(px, py) > 0 {
			return x.finish(true, "", "")
		}
		return x.finish(false, ReasonFailed, "blocked")
	}
	return x.act(x.stepToward(w, best))
}

// CopyFrom makes x a copy of src (what it has seen, the running skill),
// reusing x's memory; its search scratch is its own.
func (x *Executor) CopyFrom(src *Executor) {
	known, search := x.known, x.search
	*x = *src
	x.known = append(known[:0], src.known...)
	x.search = search
}
