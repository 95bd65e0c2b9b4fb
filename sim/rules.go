package sim

import "fmt"

// Rules is a ruleset as data: the materials, items, actions, recipes,
// achievements and object kinds of a world. The simulation has one
// code path; a new ruleset (an extended tech tree, a per-seed variant) is
// a new table, not new code.
//
// A Rules value is immutable once passed to New; many worlds share one.
type Rules struct {
	Name    string // e.g. "classic"
	Version int    // bumped whenever behaviour changes, so old traces fail loudly

	Materials    []MaterialInfo // indexed by Material; [0] is MatNone
	Items        []ItemInfo     // indexed by Item
	Actions      []ActionInfo   // indexed by Action
	Collect      []CollectRule
	Place        []PlaceRule
	Make         []MakeRule
	Achievements []string // indexed by Achievement

	Weapons  []Weapon // damage dealt by `do` on a creature: the best held counts
	BareHand int8     // damage with no weapon

	// Creatures has a row per object kind, indexed by ObjectKind: what it
	// looks like, what it does and what the player gets from it.
	Creatures []CreatureInfo

	Events   EventAchievements
	Vitals   VitalRules
	Creature CreatureRules

	// Light: a collect rule with Light set needs the player to hold
	// LightItem or to stand within LightRadius (Chebyshev) of a placed
	// LightMaterial. MatNone/zero disable the corresponding source.
	LightItem     Item
	LightMaterial Material
	LightRadius   int

	// Gen holds world-generation knobs beyond the classic generator.
	Gen GenRules

	// balance lists the creatures' balance rules in the order they run;
	// balanceOf maps an object kind to its index there, or -1.
	balance   []balanceRule
	balanceOf [256]int8
	// update is each kind's Update (nil: it does nothing), indexed by any
	// byte so that the update loop needs no bounds check.
	update [256]func(w *World, i int)
	// hostile and tramples are the kinds with Hostile and Tramples set;
	// missiles the kinds some row shoots.
	hostile, tramples, missiles KindSet
	// starts maps each start place to the kind scattered there (ObjNone:
	// none).
	starts [numStartPlaces]ObjectKind
	// glyphs maps an ASCII character to the object it stands for.
	glyphs [256]glyphObject
	// walkable holds the materials with Walkable set.
	walkable MaterialSet
	// balanceDiv is ⌈2^64 / balanceDivOf⌉, which tells whether a step is a
	// balance step without a division (balanceStep); balanceDivOf is the
	// Creature.BalanceEvery it was computed for, so that a period edited
	// in place without Compile still counts (as the tests' rules do).
	balanceDiv   uint64
	balanceDivOf int32
	// collectOf maps a material to 1 + its index in Collect (0: none).
	collectOf [MaxMaterials]uint8
	// achByName is filled by compile for lookups by name.
	achByName map[string]Achievement
}

// MaterialInfo describes one material.
type MaterialInfo struct {
	Name string
	// Glyph is its character in the ASCII map format (LoadASCII, ASCII)
	// and in the legend agents read under full observability.
	Glyph byte
	// Sprite names its picture in the sprite sheet (assets.SpriteByName);
	// "" for the void (MatNone), which the renderer draws dark.
	Sprite string
	// Walkable: the player and creatures may stand on it.
	Walkable bool
	// Deadly: the player may step on it and dies there (lava).
	Deadly bool
	// ArrowPasses: arrows fly over it (walkable tiles, water, lava).
	ArrowPasses bool
	// ArrowLeaves, if not MatNone, replaces the material when an arrow
	// hits it (tables and furnaces break into path).
	ArrowLeaves Material
	// Natural: world generation lays it down (stations are placed only).
	Natural bool
}

// ItemInfo describes one inventory entry.
type ItemInfo struct {
	Name string
	// Sprite names its inventory icon in the sprite sheet
	// (assets.SpriteByName).
	Sprite  string
	Max     int8
	Initial int8
	Vital   bool // health, food, drink, energy
}

// ItemAmount is a count of one item.
type ItemAmount struct {
	Item   Item
	Amount int8
}

// ActionKind says what an action does; its arguments sit in ActionInfo.
type ActionKind uint8

// Action kinds.
const (
	ActionNoop ActionKind = iota
	ActionMove
	ActionDo
	ActionSleep
	ActionPlace
	ActionMake
)

// ActionInfo describes one action.
type ActionInfo struct {
	Name   string
	Kind   ActionKind
	Dir    Dir // ActionMove
	Recipe int // index into Place (ActionPlace) or Make (ActionMake)
	// Key is the key that takes the action in the browser's Play mode, as
	// a KeyboardEvent.key value ("a", "1", " " for the space bar); a
	// letter binds both cases (wasm/session derives the keyboard and its
	// legend from these). It is how a person plays, not a rule: no rule
	// reads it, so changing it changes no world and bumps no Version.
	Key string
}

// Counter names a hidden vital counter that a rule resets.
type Counter uint8

// Counters a rule may reset.
const (
	CounterNone Counter = iota
	CounterHunger
	CounterThirst
)

// CollectRule is what `do` on a material does.
type CollectRule struct {
	Material Material
	Require  []ItemAmount // tools held, not consumed
	Receive  ItemAmount
	Leaves   Material
	// Chance is the probability of receiving, in 1/65536 (65536: always).
	// The tile becomes Leaves whatever the draw.
	Chance      uint32
	Resets      Counter
	Achievement Achievement
	// Light: the tile is dark; mining it needs light (see Rules.LightItem).
	Light bool
}

// GenRules are world-generation knobs: the classic generator's
// proportions scaled, and extra ores. Percentages are of the classic
// amounts; 0 means 100.
type GenRules struct {
	Abundance int       // trees, coal, iron, diamonds, extra ores and initial cows
	Hostility int       // initial zombies and skeletons
	Ores      []OreRule // extra ores, tried on stone tiles in order
}

// OreRule places an extra ore in the mountains: a stone tile deeper than
// MinMountain (1/65536) becomes Material with probability Chance/65536.
type OreRule struct {
	Material    Material
	MinMountain int32
	Chance      uint32
}

// PlaceRule is what a place action does to the faced tile.
type PlaceRule struct {
	Name        string
	Uses        []ItemAmount
	Where       MaterialSet
	Material    Material   // placed material, or MatNone
	Object      ObjectKind // placed object, or ObjNone
	Achievement Achievement
}

// MakeRule is a crafting recipe.
type MakeRule struct {
	Name        string
	Uses        []ItemAmount
	Nearby      []Material // stations within distance 1 (the 3×3 square)
	Gives       ItemAmount
	Achievement Achievement
}

// Weapon is a held item that raises the damage of `do` on a creature.
type Weapon struct {
	Item   Item
	Damage int8
}

// EventAchievements are the achievements granted by events rather than
// recipes or objects (defeating or eating an object unlocks its row's
// Achievement).
type EventAchievements struct {
	WakeUp Achievement
}

// VitalRules are the thresholds of the hidden vital counters. Hunger,
// thirst and recovery are counted in halves, so sleeping's half rates stay
// integers.
type VitalRules struct {
	HungerLimit   int16 // in halves: food -1 when the counter exceeds it
	ThirstLimit   int16 // in halves
	FatigueLimit  int16 // energy -1 above it
	RestLimit     int16 // energy +1 below minus it
	RecoverLimit  int16 // in halves: health +1 above it
	DegenLimit    int16 // in halves: health -1 below minus it
	EpisodeLength int32 // steps; 0: as many as the step counter holds (2³¹ − 1)
}

// CreatureRules are the parameters of creatures that no single kind
// owns: which ones act, and how often and over what chunks their numbers
// are balanced. Each kind's own parameters are in its Creatures row.
type CreatureRules struct {
	UpdateRadius int   // creatures within this L1 distance (exclusive) act
	BalanceEvery int32 // steps between chunk balancing
	ChunkSize    int
}

// BalanceRule keeps the population of its row's kind in every chunk near
// a target that may follow daylight. Bounds are in 1/65536 creatures and
// truncated like Crafter's int(): Min = MinBase + MinLight·daylight, used
// only when the chunk has at least MinSpace tiles of Material.
//
// The rules run in increasing Order, ties in kind order, each drawing
// from the world's generator: classic's order (zombies, skeletons, cows)
// is Crafter's and part of every classic world.
type BalanceRule struct {
	Order             int
	Material          Material
	MinSpace          int
	MinBase, MinLight int32
	MaxBase, MaxLight int32
	SpawnDist         int
	DespawnDist       int
	SpawnP, DespawnP  uint32
}

// P converts a probability to 1/65536 units. It is exact for the
// probabilities the rules use (multiples of 1/1000 round to nearest).
func P(permille int) uint32 { return uint32((permille*65536 + 500) / 1000) }

// Achievement returns the index of the named achievement.
func (r *Rules) Achievement(name string) (Achievement, bool) {
	a, ok := r.achByName[name]
	return a, ok
}

// ActionByName returns the action with the given name.
func (r *Rules) ActionByName(name string) (Action, bool) {
	for i := range r.Actions {
		if r.Actions[i].Name == name {
			return Action(i), true
		}
	}
	return 0, false
}

// MaterialByName returns the material with the given name.
func (r *Rules) MaterialByName(name string) (Material, bool) {
	for i := range r.Materials {
		if r.Materials[i].Name == name {
			return Material(i), true
		}
	}
	return 0, false
}

// ItemByName returns the item with the given name.
func (r *Rules) ItemByName(name string) (Item, bool) {
	for i := range r.Items {
		if r.Items[i].Name == name {
			return Item(i), true
		}
	}
	return 0, false
}

// CollectRuleOf returns the collect rule of m, or nil.
func (r *Rules) CollectRuleOf(m Material) *CollectRule {
	if i := r.collectOf[m]; i != 0 {
		return &r.Collect[i-1]
	}
	return nil
}

// Clone returns a deep copy of the table, to derive variants from.
func (r *Rules) Clone() *Rules {
	c := *r
	c.Materials = append([]MaterialInfo(nil), r.Materials...)
	c.Items = append([]ItemInfo(nil), r.Items...)
	c.Actions = append([]ActionInfo(nil), r.Actions...)
	c.Collect = append([]CollectRule(nil), r.Collect...)
	for i := range c.Collect {
		c.Collect[i].Require = append([]ItemAmount(nil), r.Collect[i].Require...)
	}
	c.Place = append([]PlaceRule(nil), r.Place...)
	for i := range c.Place {
		c.Place[i].Uses = append([]ItemAmount(nil), r.Place[i].Uses...)
	}
	c.Make = append([]MakeRule(nil), r.Make...)
	for i := range c.Make {
		c.Make[i].Uses = append([]ItemAmount(nil), r.Make[i].Uses...)
		c.Make[i].Nearby = append([]Material(nil), r.Make[i].Nearby...)
	}
	c.Achievements = append([]string(nil), r.Achievements...)
	c.Creatures = append([]CreatureInfo(nil), r.Creatures...)
	for i := range c.Creatures {
		cr := &c.Creatures[i]
		cr.Sprites = append([]string(nil), cr.Sprites...)
		if cr.Balance != nil {
			b := *cr.Balance
			cr.Balance = &b
		}
	}
	c.balance = nil
	c.Weapons = append([]Weapon(nil), r.Weapons...)
	c.Gen.Ores = append([]OreRule(nil), r.Gen.Ores...)
	c.achByName = nil
	return &c
}

// Compile checks the table and builds its lookup arrays. Classic and
// Extended return compiled tables; call Compile after editing a Clone.
func (r *Rules) Compile() error { return r.compile() }

// compile checks the table and builds its lookup arrays.
func (r *Rules) compile() error {
	if len(r.Materials) > MaxMaterials || len(r.Items) > MaxItems || len(r.Achievements) > MaxAchievements {
		return fmt.Errorf("rules %s: too many materials, items or achievements", r.Name)
	}
	if len(r.Actions) > 256 {
		return fmt.Errorf("rules %s: %d actions, at most 256", r.Name, len(r.Actions))
	}
	r.walkable = 0
	for i, m := range r.Materials {
		if m.Walkable {
			r.walkable |= 1 << i
		}
	}
	r.collectOf = [MaxMaterials]uint8{}
	r.achByName = make(map[string]Achievement, len(r.Achievements))
	for i, name := range r.Achievements {
		if _, dup := r.achByName[name]; dup {
			return fmt.Errorf("rules %s: achievement %q listed twice", r.Name, name)
		}
		r.achByName[name] = Achievement(i)
	}
	for i := range r.Collect {
		c := &r.Collect[i]
		if int(c.Material) >= len(r.Materials) || r.collectOf[c.Material] != 0 {
			return fmt.Errorf("rules %s: collect rule %d: bad or repeated material %d", r.Name, i, c.Material)
		}
		r.collectOf[c.Material] = uint8(i + 1)
	}
	for i, a := range r.Actions {
		switch {
		case a.Kind == ActionPlace && (a.Recipe < 0 || a.Recipe >= len(r.Place)),
			a.Kind == ActionMake && (a.Recipe < 0 || a.Recipe >= len(r.Make)):
			return fmt.Errorf("rules %s: action %s: recipe %d out of range", r.Name, a.Name, a.Recipe)
		case a.Kind == ActionMove && a.Dir == DirNone:
			return fmt.Errorf("rules %s: action %d %s: move without direction", r.Name, i, a.Name)
		}
	}
	for _, it := range r.Items {
		if it.Initial > it.Max || it.Max <= 0 {
			return fmt.Errorf("rules %s: item %s: initial %d, max %d", r.Name, it.Name, it.Initial, it.Max)
		}
	}
	if r.Creature.ChunkSize <= 0 || r.Creature.BalanceEvery <= 0 {
		return fmt.Errorf("rules %s: chunk size and balance period must be positive", r.Name)
	}
	r.balanceDiv, r.balanceDivOf = ^uint64(0)/uint64(r.Creature.BalanceEvery)+1, r.Creature.BalanceEvery
	return r.compileCreatures()
}
