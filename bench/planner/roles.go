package planner

import "github.com/longcraft/longcraft/sim"

// role is what an object kind is to the planner, derived from its rules
// row: the planner keeps away from, hunts or walks round kinds by role,
// never by name, so a ruleset's new creature gets the treatment of the
// kinds it resembles.
type role uint8

const (
	roleNone    role = iota // no object, or the player
	rolePrey                // attackable and not hostile: hunted for food (a cow)
	roleMelee               // hostile, strikes when adjacent (a zombie)
	roleShooter             // hostile, shoots missiles (a skeleton)
	roleMissile             // some kind's missile, flying its way (an arrow)
	roleStill               // stays where it is and blocks (a plant, a landmark)
)

// roles derives every kind's role from r's rows.
func roles(r *sim.Rules) [256]role {
	var out [256]role
	for i := range r.Creatures {
		k, c := sim.ObjectKind(i), &r.Creatures[i]
		switch {
		case k == sim.ObjNone || k == sim.ObjPlayer:
			out[k] = roleNone
		case r.Missile(k):
			out[k] = roleMissile
		case c.Hostile && c.Missile != sim.ObjNone:
			out[k] = roleShooter
		case c.Hostile:
			out[k] = roleMelee
		case c.Interact == sim.InteractAttack:
			out[k] = rolePrey
		default:
			out[k] = roleStill
		}
	}
	return out
}

// attackable reports whether `do` hits an object of role ro.
func (ro role) attackable() bool { return ro == rolePrey || ro == roleMelee || ro == roleShooter }

// hostile reports whether an object of role ro hunts the player.
func (ro role) hostile() bool { return ro == roleMelee || ro == roleShooter }
