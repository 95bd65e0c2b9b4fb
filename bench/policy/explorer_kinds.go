package policy

import "github.com/longcraft/longcraft/sim"

// What the explorer makes of an object kind, from its rules row: it never
// names a kind, so a ruleset's new creature gets the treatment of those it
// resembles.

// hostile reports whether kind k hunts the player (zombies, skeletons).
func (p *Explorer) hostile(k sim.ObjectKind) bool { return p.rules.Hostile(k) }

// melee reports whether kind k strikes from next to the player (zombies).
func (p *Explorer) melee(k sim.ObjectKind) bool {
	return p.rules.Hostile(k) && p.rules.Kind(k).Missile == sim.ObjNone
}

// prey reports whether kind k is hunted for food (cows).
func (p *Explorer) prey(k sim.ObjectKind) bool {
	c := p.rules.Kind(k)
	return c.Interact == sim.InteractAttack && c.Food > 0 && !c.Hostile
}

// still reports whether an object of kind k stays where it is and blocks
// (plants, landmarks): it is no creature to hit and no missile in flight.
func (p *Explorer) still(k sim.ObjectKind) bool {
	return k != sim.ObjNone && k != sim.ObjPlayer && p.rules.Kind(k).Interact != sim.InteractAttack && !p.rules.Missile(k)
}
