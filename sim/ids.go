package sim

import "strconv"

// Material is the id of a terrain material. Ids are small and dense so
// that per-material tables are plain arrays. Zero means "no material",
// which is what lies outside the map.
//
// The classic ids follow Crafter's semantic numbering (water is 1, furnace
// is 12), so a symbolic observation from Longcraft's classic ruleset uses
// the same numbers as Crafter's semantic view. Later rulesets append ids.
type Material uint8

// materials8 packs eight tiles into a word, the first in the low byte:
// the compiler merges the byte loads into one.
func materials8(t *[8]Material) uint64 {
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// Classic materials.
const (
	MatNone Material = iota
	MatWater
	MatGrass
	MatStone
	MatPath
	MatSand
	MatTree
	MatLava
	MatCoal
	MatIron
	MatDiamond
	MatTable
	MatFurnace
)

// MaxMaterials bounds the material ids of every ruleset, so that material
// sets fit in a uint64 and per-material tables are fixed arrays.
const MaxMaterials = 64

// MaterialSet is a set of materials, one bit per id.
type MaterialSet uint64

// Has reports whether m is in the set.
func (s MaterialSet) Has(m Material) bool { return s&(1<<m) != 0 }

// MaterialsOf builds a set from a list of materials.
func MaterialsOf(ms ...Material) MaterialSet {
	var s MaterialSet
	for _, m := range ms {
		s |= 1 << m
	}
	return s
}

// Item is the id of an inventory entry. Vitals (health, food, drink,
// energy) are items too, as in Crafter, so the inventory is one array.
type Item uint8

// Classic items, in Crafter's inventory order.
const (
	ItemHealth Item = iota
	ItemFood
	ItemDrink
	ItemEnergy
	ItemSapling
	ItemWood
	ItemStone
	ItemCoal
	ItemIron
	ItemDiamond
	ItemWoodPickaxe
	ItemStonePickaxe
	ItemIronPickaxe
	ItemWoodSword
	ItemStoneSword
	ItemIronSword
)

// MaxItems bounds the item ids of every ruleset.
const MaxItems = 64

// ItemSet is a set of items, one bit per id.
type ItemSet uint64

// Has reports whether it is in the set.
func (s ItemSet) Has(it Item) bool { return s&(1<<it) != 0 }

// Action is the index of an action in the ruleset's action table.
type Action uint8

// Classic actions, in Crafter's order.
const (
	ActNoop Action = iota
	ActMoveLeft
	ActMoveRight
	ActMoveUp
	ActMoveDown
	ActDo
	ActSleep
	ActPlaceStone
	ActPlaceTable
	ActPlaceFurnace
	ActPlacePlant
	ActMakeWoodPickaxe
	ActMakeStonePickaxe
	ActMakeIronPickaxe
	ActMakeWoodSword
	ActMakeStoneSword
	ActMakeIronSword
)

// ObjectKind is the kind of a creature or other object on the map: the
// index of its row in Rules.Creatures, which says what it is.
type ObjectKind uint8

// The object kinds of the classic rows, in order; later rulesets append
// kinds. The player is an object like the others, so arrows and zombies
// find it on the object grid; none and the player have these numbers in
// every ruleset.
const (
	ObjNone ObjectKind = iota
	ObjPlayer
	ObjCow
	ObjZombie
	ObjSkeleton
	ObjArrow
	ObjPlant
	// ObjLandmark is a fixed marker placed by task generators; its label
	// (0 for A, 1 for B, …) is kept in Object.Timer. Nothing moves it and
	// nothing harms it.
	ObjLandmark
)

// String returns "kind" and the number, such as "kind 3": a kind's name
// belongs to its ruleset's row (Rules.KindName), and without the rules
// the number is all there is to say.
func (k ObjectKind) String() string { return "kind " + strconv.Itoa(int(k)) }

// LandmarkName returns the letter of landmark label i: "A", "B", ….
func LandmarkName(i int) string { return string(rune('A' + i%26)) }

// Dir is a facing or moving direction.
type Dir uint8

// Directions. DirNone is the zero offset.
const (
	DirNone Dir = iota
	DirLeft
	DirRight
	DirUp
	DirDown
)

// Offset returns the unit step of d: x grows east, y grows south.
func (d Dir) Offset() (dx, dy int) {
	// Constant tables indexed by Dir: a load each instead of a switch.
	const xs, ys = "\x00\xff\x01\x00\x00", "\x00\x00\x00\xff\x01"
	if int(d) >= len(xs) {
		return 0, 0
	}
	return int(int8(xs[d])), int(int8(ys[d]))
}

// Opposite returns the direction pointing the other way.
func (d Dir) Opposite() Dir {
	switch d {
	case DirLeft:
		return DirRight
	case DirRight:
		return DirLeft
	case DirUp:
		return DirDown
	case DirDown:
		return DirUp
	}
	return DirNone
}

var dirNames = [...]string{"none", "left", "right", "up", "down"}

// String returns "left", "right", "up", "down" or "none".
func (d Dir) String() string {
	if int(d) < len(dirNames) {
		return dirNames[d]
	}
	return "unknown"
}

// Achievement is the index of an achievement in the ruleset's table.
type Achievement uint8

// MaxAchievements bounds the achievements of every ruleset.
const MaxAchievements = 64

// AchievementSet is a set of achievements, one bit per index.
type AchievementSet uint64

// Has reports whether a is in the set.
func (s AchievementSet) Has(a Achievement) bool { return s&(1<<a) != 0 }
