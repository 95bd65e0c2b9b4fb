package sim

// CreatureInfo describes one object kind: a row of Rules.Creatures, which
// is indexed by ObjectKind. Row 0 is ObjNone (a removed object), row 1
// the player; the others are creatures, arrows, plants and markers. A
// ruleset adds a kind by adding a row and, if it behaves in a new way,
// the update function the row names.
type CreatureInfo struct {
	Name string

	// Glyphs are its characters in the ASCII map format (LoadASCII,
	// ASCII) and in the legend, and Sprites name its pictures in the
	// sprite sheet (assets.SpriteByName), both one per look: Looks says
	// which one an object shows.
	Glyphs  string
	Sprites []string
	Looks   Looks
	// Ground is the material an ASCII map lays under the object's
	// character.
	Ground Material
	// Footing and Soil say which materials it may stand on.
	Footing Footing
	Soil    MaterialSet // FootSoil only

	// Health is the starting health (0 for arrows, which have none).
	Health int8
	// Interact is what `do` on it does. Food is what eating it gives:
	// a defeated attackable creature with Food > 0 is eaten (and resets
	// hunger), a harvested one once it is ripe (Grown > Ripe).
	Interact Interaction
	Food     int8
	Ripe     int16
	// Achievement names the achievement unlocked by defeating or eating
	// it ("" for none).
	Achievement string
	// Hostile marks the creatures that hunt the player (task tiers scale
	// their numbers, planners keep away from them).
	Hostile bool
	// Tramples: a plant next to one of these loses a point of health
	// each step.
	Tramples bool
	// Immune: arrows do not harm it.
	Immune bool
	// Start is where world generation scatters it at the start of an
	// episode; Balance, if set, keeps its numbers up chunk by chunk.
	Start   StartPlace
	Balance *BalanceRule

	// Update is its behaviour, run every step while it is within the
	// update radius: a method expression such as (*World).updateZombie,
	// or nil for an object that does nothing (the player, a landmark).
	// The behaviour parameters below are read by the update functions
	// that document them; the probabilities are in 1/65536.
	Update func(w *World, i int)

	Move        uint32     // probability of a random step (cow, skeleton)
	Chase       uint32     // probability of chasing the player when Near
	LongAxis    uint32     // probability that a chase goes along the longer axis
	Shoot       uint32     // probability of shooting when within Reach
	Near        int        // chase when within this distance
	Flee        int        // flee when within this distance
	Reach       int        // attack (or shoot) when within this distance
	Damage      int8       // damage dealt to the player (or what an arrow hits)
	SleepDamage int8       // damage dealt to a sleeping player
	Cooldown    int8       // steps between attacks (or shots)
	Missile     ObjectKind // what it shoots
}

// Looks says which of a row's glyphs and sprites an object shows.
type Looks uint8

// Looks.
const (
	LooksOne    Looks = iota // one glyph and one sprite
	LooksPlayer              // one glyph; sprites by the player's facing (4), then asleep
	LooksFacing              // four glyphs and sprites, by the object's Facing
	LooksRipe                // two glyphs and sprites: growing, ripe
	LooksLabel               // a glyph per label (Object.Timer), one sprite
)

// Footing says which materials an object may stand on.
type Footing uint8

// Footings.
const (
	FootWalk   Footing = iota // walkable materials
	FootPlayer                // walkable or deadly ones (the player dies there)
	FootFlight                // materials arrows pass over
	FootSoil                  // the row's Soil
)

// Interaction is what the player's `do` does to an object.
type Interaction uint8

// Interactions.
const (
	InteractNone    Interaction = iota // nothing: an invalid target
	InteractAttack                     // hit it; defeated, it is eaten if it gives Food
	InteractHarvest                    // eat it when ripe; it grows again
)

// StartPlace is where world generation scatters a kind, following
// Crafter's generator, whose draws it keeps. At most one row takes each.
type StartPlace uint8

// Start places.
const (
	StartNone     StartPlace = iota
	StartMeadow              // grass more than 3 tiles from the player (scaled by Gen.Abundance)
	StartAnywhere            // walkable tiles more than 10 tiles away (scaled by Gen.Hostility)
	StartTunnel              // tunnel paths (scaled by Gen.Hostility)
	numStartPlaces
)

// Kind returns the row of object kind k, or the ObjNone row for a kind
// the rules do not have.
func (r *Rules) Kind(k ObjectKind) *CreatureInfo {
	if int(k) < len(r.Creatures) {
		return &r.Creatures[k]
	}
	return &r.Creatures[ObjNone]
}

// KindName returns the name of object kind k in r ("kind 9" for a kind r
// does not have).
func (r *Rules) KindName(k ObjectKind) string {
	if int(k) < len(r.Creatures) {
		return r.Creatures[k].Name
	}
	return k.String()
}

// KindByName returns the object kind with the given name.
func (r *Rules) KindByName(name string) (ObjectKind, bool) {
	for k := range r.Creatures {
		if k != int(ObjNone) && r.Creatures[k].Name == name {
			return ObjectKind(k), true
		}
	}
	return ObjNone, false
}

// KindAchievement returns the achievement unlocked by defeating or eating
// an object of kind k.
func (r *Rules) KindAchievement(k ObjectKind) (Achievement, bool) {
	if name := r.Kind(k).Achievement; name != "" {
		return r.Achievement(name)
	}
	return 0, false
}

// Hostile reports whether kind k hunts the player.
func (r *Rules) Hostile(k ObjectKind) bool { return r.hostile.Has(k) }

// Missile reports whether kind k is some row's Missile: what a creature
// shoots, flying its way.
func (r *Rules) Missile(k ObjectKind) bool { return r.missiles.Has(k) }

// Edible reports whether eating an object of kind k gives food: an
// attackable creature with Food (a cow), or a harvest once ripe (a plant).
func (r *Rules) Edible(k ObjectKind) bool { return r.Kind(k).Food > 0 }

// Ripe reports whether o can be harvested now.
func (r *Rules) Ripe(o Object) bool {
	c := r.Kind(o.Kind)
	return c.Interact == InteractHarvest && o.Grown > c.Ripe
}

// Look returns the indices of the glyph and the sprite that o shows in
// its row's Glyphs and Sprites, given the player's facing and sleep.
func (r *Rules) Look(o Object, facing Dir, sleeping bool) (glyph, sprite int) {
	c := r.Kind(o.Kind)
	switch c.Looks {
	case LooksPlayer:
		if sleeping {
			return 0, 4
		}
		return 0, int(facing) - 1
	case LooksFacing:
		return int(o.Facing) - 1, int(o.Facing) - 1
	case LooksRipe:
		if o.Grown > c.Ripe {
			return 1, 1
		}
	case LooksLabel:
		return int(o.Timer), 0
	}
	return 0, 0
}

// counts returns how many glyphs (at least, for LooksLabel) and
// sprites a row of looks l holds.
func (l Looks) counts() (glyphs, sprites int, ok bool) {
	switch l {
	case LooksOne:
		return 1, 1, true
	case LooksPlayer:
		return 1, 5, true
	case LooksFacing:
		return 4, 4, true
	case LooksRipe:
		return 2, 2, true
	case LooksLabel:
		return 1, 1, true
	}
	return 0, 0, false
}

// KindSet is a set of object kinds, one bit per kind.
type KindSet [4]uint64

// Has reports whether k is in the set.
func (s *KindSet) Has(k ObjectKind) bool { return s[k>>6]&(1<<(k&63)) != 0 }

func (s *KindSet) add(k ObjectKind) { s[k>>6] |= 1 << (k & 63) }
