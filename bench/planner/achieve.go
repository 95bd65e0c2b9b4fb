package planner

import (
	"sort"

	"github.com/longcraft/longcraft/sim"
)

// achState tracks the open-ended achievements goal: the achievement being
// pursued, since when, and those given up for now.
type achState struct {
	order []achTarget // by depth, built on first use
	cur   int         // index into order; -1: none
	since int
	given sim.AchievementSet
}

type achKind uint8

const (
	achCollect achKind = iota
	achPlace
	achMake
	achWakeUp
	achObject // defeat or eat an object of kind obj
)

type achTarget struct {
	a       sim.Achievement
	kind    achKind
	depth   int
	collect *sim.CollectRule
	place   *sim.PlaceRule
	make    *sim.MakeRule
	obj     sim.ObjectKind
}

// achTry is how long the planner pursues one achievement before it moves
// on to the next.
const achTry = 300

// achTargets lists the achievements the rules offer, shallowest first.
func (p *Planner) achTargets() []achTarget {
	r := p.tab.r
	var out []achTarget
	seen := map[sim.Achievement]bool{}
	add := func(t achTarget) {
		if !seen[t.a] && int(t.a) < len(r.Achievements) {
			seen[t.a] = true
			out = append(out, t)
		}
	}
	maxDepth := func(items []sim.ItemAmount) int {
		d := 0
		for _, u := range items {
			d = max(d, p.tab.depth[u.Item])
		}
		return d
	}
	for i := range r.Collect {
		c := &r.Collect[i]
		d := 1 + maxDepth(c.Require)
		if c.Light {
			if li, ok := p.tab.lightItem(); ok {
				d = max(d, 1+p.tab.depth[li])
			}
		}
		add(achTarget{a: c.Achievement, kind: achCollect, depth: d, collect: c})
	}
	for i := range r.Place {
		pr := &r.Place[i]
		add(achTarget{a: pr.Achievement, kind: achPlace, depth: 1 + maxDepth(pr.Uses), place: pr})
	}
	for i := range r.Make {
		m := &r.Make[i]
		add(achTarget{a: m.Achievement, kind: achMake, depth: max(p.tab.depth[m.Gives.Item], 1), make: m})
	}
	add(achTarget{a: r.Events.WakeUp, kind: achWakeUp, depth: 2})
	for k := range r.Creatures {
		if a, ok := r.KindAchievement(sim.ObjectKind(k)); ok {
			add(achTarget{a: a, kind: achObject, depth: objectDepth(p.tab.role[k]), obj: sim.ObjectKind(k)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].depth != out[j].depth {
			return out[i].depth < out[j].depth
		}
		return out[i].a < out[j].a
	})
	return out
}

// achievements pursues the shallowest achievement not yet unlocked.
func (p *Planner) achievements() (sim.Action, bool) {
	s := &p.ach
	if s.order == nil {
		s.order = p.achTargets()
		s.cur = -1
	}
	unlocked := p.w.Achievements()
	if s.cur >= 0 {
		t := &s.order[s.cur]
		if unlocked.Has(t.a) {
			s.cur = -1
		} else if p.w.StepCount()-s.since > achTry {
			s.given |= 1 << t.a
			s.cur = -1
		}
	}
	for pass := 0; pass < 2; pass++ {
		tries := 0
		for i := range s.order {
			t := &s.order[i]
			if unlocked.Has(t.a) || s.given.Has(t.a) {
				continue
			}
			if s.cur >= 0 && i != s.cur && tries == 0 {
				// Keep the current one first.
				if a, ok := p.achieve(&s.order[s.cur]); ok {
					return a, true
				}
				tries++
			}
			if a, ok := p.achieve(t); ok {
				if s.cur != i {
					s.cur, s.since = i, p.w.StepCount()
				}
				return a, true
			}
			if tries++; tries >= 4 {
				break
			}
		}
		if s.given == 0 {
			break
		}
		s.given = 0 // everything left was given up: try again
	}
	return 0, false
}

// achieve returns the next action toward achievement t.
func (p *Planner) achieve(t *achTarget) (sim.Action, bool) {
	switch t.kind {
	case achCollect:
		c := t.collect
		if a, ok := p.needItems(c.Require); ok || !p.holds(c.Require) {
			return a, ok
		}
		if c.Light {
			if li, ok := p.tab.lightItem(); ok && p.inv[li] == 0 {
				return p.obtain(li, 1)
			}
		}
		u, f, ok := p.approach(func(i int) (bool, int32) {
			return p.mat[i] == c.Material && p.obj[i] == sim.ObjNone, 0
		})
		if !ok {
			return 0, false
		}
		return p.act(u, f, p.tab.do), true
	case achPlace:
		pr := t.place
		i := p.tab.placeIndex(pr)
		if i < 0 || !p.tab.placeOK[i] {
			return 0, false
		}
		if a, ok := p.needItems(pr.Uses); ok || !p.holds(pr.Uses) {
			return a, ok
		}
		u, f, ok := p.approach(func(j int) (bool, int32) {
			return j != p.pos && pr.Where.Has(p.mat[j]) && p.obj[j] == sim.ObjNone, 0
		})
		if !ok {
			return 0, false
		}
		return p.act(u, f, p.tab.placeAct[i]), true
	case achMake:
		it := t.make.Gives.Item
		want := min(p.inv[it]+1, int(p.tab.r.Items[it].Max))
		return p.obtain(it, want)
	case achObject:
		if ro := p.tab.role[t.obj]; ro.attackable() {
			limit := int32(inf)
			if ro.hostile() {
				limit = 30
			}
			return p.huntNear(func(k sim.ObjectKind) bool { return k == t.obj }, limit)
		}
		return p.harvest(t.obj)
	case achWakeUp:
		if p.inv[sim.ItemEnergy] >= int(p.tab.r.Items[sim.ItemEnergy].Max) {
			return 0, false
		}
		p.tired = true
		return p.rest()
	}
	return 0, false
}

// objectDepth is how deep in the game defeating or eating a kind of this
// role lies, for the order of the achievements: prey at once, a melee
// creature once armed, a harvest once planted and grown, a shooter last
// (it keeps its distance, in tunnels).
func objectDepth(ro role) int {
	switch ro {
	case rolePrey:
		return 1
	case roleMelee:
		return 2
	case roleShooter:
		return 6
	}
	return 4
}

// harvest walks to a ripe object of kind k and eats it.
func (p *Planner) harvest(k sim.ObjectKind) (sim.Action, bool) {
	r := p.tab.r
	found := false
	for _, o := range p.w.Objects() {
		if o.Kind == k && r.Ripe(o) {
			found = true
		}
	}
	if !found {
		return 0, false
	}
	u, f, ok := p.approach(func(i int) (bool, int32) {
		if p.obj[i] != k {
			return false, 0
		}
		o, _ := p.w.ObjectAt(i%p.nav.w, i/p.nav.w)
		return r.Ripe(o), 0
	})
	if !ok {
		return 0, false
	}
	return p.act(u, f, p.tab.do), true
}

// needItems obtains the first of items the inventory lacks.
func (p *Planner) needItems(items []sim.ItemAmount) (sim.Action, bool) {
	for _, u := range items {
		if p.inv[u.Item] < int(u.Amount) {
			return p.obtain(u.Item, int(u.Amount))
		}
	}
	return 0, false
}

// huntNear hunts the nearest creature of a kind want accepts within path
// cost limit.
func (p *Planner) huntNear(want func(sim.ObjectKind) bool, limit int32) (sim.Action, bool) {
	u, f, ok := p.approachWithin(func(t int) (bool, int32) {
		return p.obj[t] != sim.ObjNone && want(p.obj[t]), 0
	}, 0, limit)
	if !ok || p.nav.At(u) > limit {
		return 0, false
	}
	return p.act(u, f, p.tab.do), true
}
