package planner

import (
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// tables are derived once from a ruleset: the actions by role, the rule
// chosen for each node of a dependency chain and small lookups.
type tables struct {
	r *sim.Rules

	noop, do, sleep sim.Action
	move            [5]sim.Action // by sim.Dir
	placeAct        []sim.Action  // by place rule index; noop when no action
	makeAct         []sim.Action  // by make rule index
	placeOK         []bool
	makeOK          []bool
	collectOf       [sim.MaxMaterials]int  // 1 + index into r.Collect; 0: none
	arrowHit        [sim.MaxMaterials]bool // an arrow that hits it changes it

	steps map[task.Node]*task.Step // the rule the dependency chains choose
	tried map[sim.Item]bool

	depth [sim.MaxItems]int // dependency depth of each item (0: unknown)

	role [256]role // by sim.ObjectKind
}

func newTables(r *sim.Rules) *tables {
	t := &tables{
		r:        r,
		placeAct: make([]sim.Action, len(r.Place)),
		makeAct:  make([]sim.Action, len(r.Make)),
		placeOK:  make([]bool, len(r.Place)),
		makeOK:   make([]bool, len(r.Make)),
		steps:    map[task.Node]*task.Step{},
		tried:    map[sim.Item]bool{},
		role:     roles(r),
	}
	haveDo, haveSleep := false, false
	for i := len(r.Actions) - 1; i >= 0; i-- { // the first of each role wins
		a := &r.Actions[i]
		act := sim.Action(i)
		switch a.Kind {
		case sim.ActionNoop:
			t.noop = act
		case sim.ActionDo:
			t.do, haveDo = act, true
		case sim.ActionSleep:
			t.sleep, haveSleep = act, true
		case sim.ActionMove:
			if a.Dir > sim.DirNone && a.Dir <= sim.DirDown {
				t.move[a.Dir] = act
			}
		case sim.ActionPlace:
			t.placeAct[a.Recipe], t.placeOK[a.Recipe] = act, true
		case sim.ActionMake:
			t.makeAct[a.Recipe], t.makeOK[a.Recipe] = act, true
		}
	}
	if !haveDo {
		t.do = t.noop
	}
	if !haveSleep {
		t.sleep = t.noop
	}
	for i := range r.Collect {
		t.collectOf[r.Collect[i].Material] = i + 1
	}
	for m := range r.Materials {
		info := &r.Materials[m]
		t.arrowHit[m] = sim.Material(m) != sim.MatNone && !info.ArrowPasses && info.ArrowLeaves != sim.MatNone
	}
	for i := range r.Items {
		if st := t.stepFor(task.Node{Item: sim.Item(i)}); st != nil {
			t.depth[i] = st.Depth
		}
	}
	return t
}

// collect returns the collect rule of material m, or nil.
func (t *tables) collect(m sim.Material) *sim.CollectRule {
	if i := t.collectOf[m]; i != 0 {
		return &t.r.Collect[i-1]
	}
	return nil
}

// stepFor returns the rule the dependency chains use to produce n (nil
// for natural materials and things no rule produces).
func (t *tables) stepFor(n task.Node) *task.Step {
	if st, ok := t.steps[n]; ok {
		return st
	}
	if n.Station != sim.MatNone {
		var found *task.Step
		for i := range t.r.Place {
			pr := &t.r.Place[i]
			if pr.Material == n.Station && pr.Object == sim.ObjNone {
				found = &task.Step{Node: n, Place: pr, Achievement: pr.Achievement}
				break
			}
		}
		t.steps[n] = found
		return found
	}
	if !t.tried[n.Item] {
		t.tried[n.Item] = true
		if plan, err := task.Dependencies(t.r, n.Item); err == nil {
			for i := range plan.Steps {
				st := &plan.Steps[i]
				if _, ok := t.steps[st.Node]; !ok {
					t.steps[st.Node] = st
				}
			}
		}
	}
	st, ok := t.steps[n]
	if !ok {
		t.steps[n] = nil
	}
	return st
}

// makeIndex returns the index of make rule m in the rules.
func (t *tables) makeIndex(m *sim.MakeRule) int {
	for i := range t.r.Make {
		if &t.r.Make[i] == m {
			return i
		}
	}
	return -1
}

// placeIndex returns the index of place rule pr in the rules.
func (t *tables) placeIndex(pr *sim.PlaceRule) int {
	for i := range t.r.Place {
		if &t.r.Place[i] == pr {
			return i
		}
	}
	return -1
}

// stationRule returns the place rule of station material s, or nil.
func (t *tables) stationRule(s sim.Material) *sim.PlaceRule {
	if st := t.stepFor(task.Node{Station: s}); st != nil && st.Place != nil {
		return st.Place
	}
	return nil
}

// lightItem returns the light item of the rules, if any.
func (t *tables) lightItem() (sim.Item, bool) {
	return t.r.LightItem, t.r.LightItem != sim.ItemHealth
}
