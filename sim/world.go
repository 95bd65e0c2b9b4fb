package sim

import (
	"fmt"
	"math"
)

// DefaultSize is the side of the default square world, as Crafter's.
const DefaultSize = 64

// MaxSide bounds a world's width and height, so positions fit in int16.
const MaxSide = 1024

// maxObjects bounds the object capacity.
const maxObjects = 65534

// Config chooses a world's shape at construction. The zero value means
// the classic 64×64 world.
type Config struct {
	Width, Height int    // tiles; 0 means DefaultSize
	Rules         *Rules // nil means Classic()
	// MaxObjects is the object capacity, the player included; 0 means one
	// object per 8 tiles (512 on 64×64, where Crafter worlds hold about
	// 60–150). When full, spawns and arrows are skipped.
	MaxObjects int
}

// Object is one creature, arrow or plant, or the player (always object 0,
// whose health lives in the inventory).
type Object struct {
	X, Y   int16
	Kind   ObjectKind
	Health int8
	Facing Dir   // arrows: flight direction
	Timer  int8  // zombie: attack cooldown; skeleton: reload
	Grown  int16 // plant: steps since planted or eaten, saturating
}

// World is one seeded Longcraft world. After New, Reset and Step allocate
// nothing (a clone allocates its generation scratch at its first Reset).
// A World is not safe for concurrent use; give each goroutine its own
// (Clone is cheap).
type World struct {
	rules *Rules
	gen   *generator // worldgen scratch, never part of the state; nil on a clone until its first Reset

	width, height int
	chunksX       int

	// The state: s holds every fixed-size field; the slices below have
	// lengths fixed at New.
	s       state
	tiles   []Material // row-major, y*width + x
	objects []Object   // [:s.NumObjects] live or tombstoned (Kind == ObjNone)

	// Derived from the state, kept in step for speed, copied by CopyFrom
	// and left out of Hash.
	objAt  []uint8       // per tile: no object, or which (see slotOf)
	farAt  []uint16      // per tile: index+1 of an object past objAt's reach, in worlds of many objects (see slotOf); else nil
	chunks []chunkCounts // per 12×12 chunk, row-major

	// Balance's due chunks per rule (balance.go), kept between balances
	// for worlds of at most 64 chunks: dueFresh marks the chunks whose
	// bits were decided under dueLimits and whose counts have not changed
	// since. Every change to a chunk's counts clears its mark.
	due       [maxBalanceRules]uint64
	dueFresh  uint64
	dueLimits [maxBalanceRules][3]int

	// touched marks the items changed during the player's update, which
	// clamps them at its end; always zero between steps.
	touched ItemSet

	// vectorNear is set where updateCreatures finds the objects in range
	// with the AVX2 kernel (near_amd64.s); nearMask is the reference.
	vectorNear bool
	// balanceRuleByRule turns off the one pass of every rule's due chunks (for tests:
	// both must decide alike).
	balanceRuleByRule bool

	// Constant after New: the chunk of a tile is chunkRow[y] + chunkCol[x],
	// which spares a division on every creature move.
	chunkCol, chunkRow []int32
}

// state is every fixed-size field of a world.
type state struct {
	Seed         uint64
	RNG          RNG
	Step         int32
	NumObjects   int32
	Inventory    [MaxItems]int8
	Achievements AchievementSet
	Facing       Dir
	Sleeping     bool
	Dead         bool
	// Hidden vital counters (hunger, thirst and recover in halves).
	Hunger, Thirst, Fatigue, Recover int16
	// LastHealth is the health the player saw at its last update; a drop
	// wakes it. RewardHealth is the health at the last reward.
	LastHealth, RewardHealth int8
	// firstTombstone is the lowest index of an object removed this step,
	// or 0 when none was (the player, object 0, is never removed).
	firstTombstone int32
}

// chunkCounts tracks, for each balance rule, the tiles of its material and
// the creatures of its kind in one chunk, so balancing never scans.
type chunkCounts struct {
	space [maxBalanceRules]uint8
	pop   [maxBalanceRules]uint8
	// held is set once any object (the player included) has been added
	// to or moved into the chunk this episode: only such chunks are
	// balanced, as Crafter keys its chunk table on first use. It is
	// history, not derived from the tiles and objects, so Hash covers it.
	held bool
}

// New builds a world with the given shape; call Reset before stepping.
func New(cfg Config) (*World, error) {
	if cfg.Width == 0 {
		cfg.Width = DefaultSize
	}
	if cfg.Height == 0 {
		cfg.Height = DefaultSize
	}
	if cfg.Rules == nil {
		cfg.Rules = Classic()
	}
	if cfg.Rules.achByName == nil {
		// A clone's lookup tables (the update table, the balance list) are
		// built by Compile: without it no creature would act.
		return nil, fmt.Errorf("new world: rules %s not compiled (call Compile after editing a Clone)", cfg.Rules.Name)
	}
	if cfg.Width < 3 || cfg.Height < 3 || cfg.Width > MaxSide || cfg.Height > MaxSide {
		return nil, fmt.Errorf("new world: size %d×%d outside 3×3 to %d×%d", cfg.Width, cfg.Height, MaxSide, MaxSide)
	}
	area := cfg.Width * cfg.Height
	if cfg.MaxObjects == 0 {
		// One object per 8 tiles, within the bound below: at MaxSide that
		// would be 131,072, over what the object indices hold.
		cfg.MaxObjects = min(max(area/8, 64), maxObjects)
	}
	if cfg.MaxObjects < 1 || cfg.MaxObjects > maxObjects {
		return nil, fmt.Errorf("new world: object capacity %d outside 1 to %d", cfg.MaxObjects, maxObjects)
	}
	cs := cfg.Rules.Creature.ChunkSize
	if cs <= 0 || cs*cs > 255 {
		return nil, fmt.Errorf("new world: rules %s: chunk size %d outside 1 to 15", cfg.Rules.Name, cs)
	}
	w := &World{
		rules:   cfg.Rules,
		width:   cfg.Width,
		height:  cfg.Height,
		chunksX: (cfg.Width + cs - 1) / cs,
		tiles:   make([]Material, area),
		objects: make([]Object, cfg.MaxObjects),
		objAt:   make([]uint8, area),
		farAt:   newFarAt(cfg.MaxObjects, area),

		vectorNear: hasVectorKernels(),
	}
	w.chunks = make([]chunkCounts, w.chunksX*((cfg.Height+cs-1)/cs))
	w.chunkCol = make([]int32, cfg.Width)
	for x := range w.chunkCol {
		w.chunkCol[x] = int32(x / cs)
	}
	w.chunkRow = make([]int32, cfg.Height)
	for y := range w.chunkRow {
		w.chunkRow[y] = int32(y / cs * w.chunksX)
	}
	w.gen = newGenerator(w)
	return w, nil
}

// Rules returns the world's ruleset.
func (w *World) Rules() *Rules { return w.rules }

// Width returns the map width in tiles.
func (w *World) Width() int { return w.width }

// Height returns the map height in tiles.
func (w *World) Height() int { return w.height }

// Seed returns the seed of the current episode.
func (w *World) Seed() uint64 { return w.s.Seed }

// StepCount returns the steps taken in this episode.
func (w *World) StepCount() int { return int(w.s.Step) }

// Daylight returns the current daylight in 1/65536 (DaylightFull: full day).
func (w *World) Daylight() int32 { return daylightTable[w.s.Step%DayLength] }

// DaylightFull is Daylight at full day, the unit of its fixed point.
const DaylightFull = one

// Player returns the player's position.
func (w *World) Player() (x, y int) { return int(w.objects[0].X), int(w.objects[0].Y) }

// Facing returns the direction the player faces.
func (w *World) Facing() Dir { return w.s.Facing }

// Target returns the tile the player faces (it may lie outside the map).
func (w *World) Target() (x, y int) {
	dx, dy := w.s.Facing.Offset()
	px, py := w.Player()
	return px + dx, py + dy
}

// Sleeping reports whether the player is asleep.
func (w *World) Sleeping() bool { return w.s.Sleeping }

// Dead reports whether the player has died.
func (w *World) Dead() bool { return w.s.Dead }

// Done reports whether the episode is over: death or the step limit.
func (w *World) Done() bool {
	// A world never Reset holds no episode (not even a player): Step on it
	// changes nothing instead of failing.
	return w.s.Dead || w.timeUp() || w.s.NumObjects == 0
}

// timeUp reports whether the episode has run its length: EpisodeLength
// steps, or, when it has none, as many as the step counter holds
// (2³¹ − 1). Past that the counter would wrap to negative steps, and the
// time of day be read at a negative index.
func (w *World) timeUp() bool {
	return w.s.Step >= w.episodeLength()
}

// episodeLength is the number of steps an episode lasts at most.
func (w *World) episodeLength() int32 {
	if n := w.rules.Vitals.EpisodeLength; n > 0 {
		return n
	}
	return math.MaxInt32
}

// Inventory returns the count of an item (vitals included).
func (w *World) Inventory(it Item) int { return int(w.s.Inventory[it]) }

// Achievements returns the achievements unlocked in this episode.
func (w *World) Achievements() AchievementSet { return w.s.Achievements }

// Inside reports whether (x, y) lies on the map.
func (w *World) Inside(x, y int) bool {
	return uint(x) < uint(w.width) && uint(y) < uint(w.height)
}

// Material returns the material at (x, y), or MatNone outside the map.
func (w *World) Material(x, y int) Material {
	if !w.Inside(x, y) {
		return MatNone
	}
	return w.tiles[y*w.width+x]
}

// ObjectAt returns the object at (x, y), if any.
func (w *World) ObjectAt(x, y int) (Object, bool) {
	if !w.Inside(x, y) {
		return Object{}, false
	}
	if i := w.objectAt(y*w.width + x); i >= 0 {
		return w.objects[i], true
	}
	return Object{}, false
}

// Objects returns the live objects, the player first. The slice aliases
// the world and is valid until the next Step or Reset; removed objects
// have Kind ObjNone until the end of the step that removed them.
func (w *World) Objects() []Object { return w.objects[:w.s.NumObjects] }

// SetRules replaces the world's ruleset, for a per-seed variant or a
// difficulty tier of the same table: the new rules must keep the chunk
// size. The state is left as it is, its chunk counts included, which
// follow the old rules' balance list; call Reset (or LoadASCII), which
// recounts them, before stepping.
func (w *World) SetRules(r *Rules) error {
	if r.Creature.ChunkSize != w.rules.Creature.ChunkSize {
		return fmt.Errorf("set rules %s: chunk size %d, the world's is %d", r.Name, r.Creature.ChunkSize, w.rules.Creature.ChunkSize)
	}
	if r.achByName == nil {
		return fmt.Errorf("set rules %s: not compiled", r.Name)
	}
	w.rules = r
	return nil
}

// Clone returns an independent copy of the world. A copy is often a
// snapshot that is never reset, so it leaves out the scratch space of
// world generation: its first Reset allocates it.
func (w *World) Clone() *World {
	c := &World{
		rules:      w.rules,
		width:      w.width,
		height:     w.height,
		chunksX:    w.chunksX,
		tiles:      make([]Material, len(w.tiles)),
		objects:    make([]Object, len(w.objects)),
		objAt:      make([]uint8, len(w.objAt)),
		farAt:      newFarAt(len(w.objects), len(w.objAt)),
		chunks:     make([]chunkCounts, len(w.chunks)),
		vectorNear: w.vectorNear,
		// Constant tables are shared.
		chunkCol: w.chunkCol,
		chunkRow: w.chunkRow,
	}
	c.CopyFrom(w)
	return c
}

// ShareScratch makes w generate its worlds in owner's generation scratch
// instead of its own, so that a batch of worlds stepped on one thread
// keeps one scratch per thread rather than one per world (at 64×64 a
// world's state is 18 KiB, its scratch 117 KiB). The scratch holds no
// state between generations: a world generates the same map in any
// scratch (TestShareScratchKeepsWorlds). Both must have the same size and
// chunk size, and worlds that share a scratch must not Reset at once.
func (w *World) ShareScratch(owner *World) error {
	switch {
	case w.width != owner.width || w.height != owner.height || len(w.chunks) != len(owner.chunks):
		return fmt.Errorf("share scratch: worlds of %d×%d and %d×%d (%d and %d chunks)", w.width, w.height, owner.width, owner.height, len(w.chunks), len(owner.chunks))
	case owner.gen == nil:
		owner.gen = newGenerator(owner)
	}
	w.gen = owner.gen
	return nil
}

// CopyFrom makes w an exact copy of src, rules included, without
// allocating: a snapshot for planners and counterfactuals. Both worlds must
// have the same size, object capacity and chunk size; CopyFrom panics
// otherwise, as copy into a short array would.
func (w *World) CopyFrom(src *World) {
	if w.width != src.width || w.height != src.height || len(w.objects) != len(src.objects) || len(w.chunks) != len(src.chunks) {
		panic(fmt.Sprintf("sim: CopyFrom between worlds of different shape (%d×%d, %d objects, %d chunks) and (%d×%d, %d objects, %d chunks)",
			w.width, w.height, len(w.objects), len(w.chunks), src.width, src.height, len(src.objects), len(src.chunks)))
	}
	w.rules = src.rules
	w.chunkCol, w.chunkRow = src.chunkCol, src.chunkRow // constant tables
	w.s = src.s
	copy(w.tiles, src.tiles)
	copy(w.objects[:src.s.NumObjects], src.objects[:src.s.NumObjects])
	copy(w.objAt, src.objAt)
	copy(w.farAt, src.farAt)
	copy(w.chunks, src.chunks)
	w.due, w.dueFresh, w.dueLimits = src.due, src.dueFresh, src.dueLimits
}

// index returns the tile index of (x, y), which must be inside.
func (w *World) index(x, y int) int { return y*w.width + x }

// chunkOf returns the chunk index of (x, y).
func (w *World) chunkOf(x, y int) int {
	return int(w.chunkRow[y] + w.chunkCol[x])
}

// setMaterial changes a tile, keeping the chunk counts.
func (w *World) setMaterial(x, y int, m Material) {
	i := w.index(x, y)
	old := w.tiles[i]
	if old == m {
		return
	}
	w.tiles[i] = m
	w.chunkChanged(w.chunkOf(x, y))
	c := &w.chunks[w.chunkOf(x, y)]
	for r := range w.rules.balance {
		switch w.rules.balance[r].Material {
		case old:
			c.space[r]--
		case m:
			c.space[r]++
		}
	}
}

// chunkChanged notes that chunk c's counts changed, so that balance
// decides its due bits again. Worlds of more than 64 chunks keep no due
// bits; the aliasing of their chunk numbers does no harm.
func (w *World) chunkChanged(c int) { w.dueFresh &^= 1 << (c & 63) }

// balanceIndex returns the balance rule of a creature kind, or -1.
func (w *World) balanceIndex(k ObjectKind) int {
	return int(w.rules.balanceOf[k])
}

// addObject places o on a free tile; it reports false when the object
// array is full.
func (w *World) addObject(o Object) bool {
	n := int(w.s.NumObjects)
	if n == len(w.objects) {
		return false
	}
	w.objects[n] = o
	w.s.NumObjects++
	x, y := int(o.X), int(o.Y)
	w.setSlot(w.index(x, y), n)
	w.chunkChanged(w.chunkOf(x, y))
	c := &w.chunks[w.chunkOf(x, y)]
	c.held = true
	if r := w.balanceIndex(o.Kind); r >= 0 {
		c.pop[r]++
	}
	return true
}

// removeObject tombstones object i; Step compacts the array at its end so
// that indices stay stable while objects update. The tombstone keeps the
// object's fields, so a creature removed at the start of its own update
// (it died) can finish that update, as in Crafter.
func (w *World) removeObject(i int) {
	o := &w.objects[i]
	x, y := int(o.X), int(o.Y)
	w.objAt[w.index(x, y)] = 0
	if r := w.balanceIndex(o.Kind); r >= 0 {
		w.chunks[w.chunkOf(x, y)].pop[r]--
		w.chunkChanged(w.chunkOf(x, y))
	}
	o.Kind = ObjNone
	if t := w.s.firstTombstone; t == 0 || int32(i) < t {
		w.s.firstTombstone = int32(i)
	}
}

// moveObject moves object i to the free tile (x, y).
func (w *World) moveObject(i, x, y int) {
	o := &w.objects[i]
	ox, oy := int(o.X), int(o.Y)
	w.objAt[w.index(ox, oy)] = 0
	w.setSlot(w.index(x, y), i)
	if from, to := w.chunkOf(ox, oy), w.chunkOf(x, y); from != to {
		w.chunkChanged(from)
		w.chunkChanged(to)
		w.chunks[to].held = true
		if r := w.balanceIndex(o.Kind); r >= 0 {
			w.chunks[from].pop[r]--
			w.chunks[to].pop[r]++
		}
	}
	o.X, o.Y = int16(x), int16(y)
}

// compact drops tombstoned objects, keeping the order of the rest. The
// objects before the first tombstone stay where they are.
func (w *World) compact() {
	if w.s.firstTombstone == 0 {
		return
	}
	w.compactFrom(int(w.s.firstTombstone))
}

// compactFrom closes the tombstones of objects from index j on, j at or
// below the first of them (compactPlain, the tests' reference, takes 0).
func (w *World) compactFrom(j int) {
	n := int(w.s.NumObjects)
	for i := j; i < n; i++ {
		o := w.objects[i]
		if o.Kind == ObjNone {
			continue
		}
		if i != j {
			w.objects[j] = o
			w.setSlot(w.index(int(o.X), int(o.Y)), j)
		}
		j++
	}
	w.s.NumObjects = int32(j)
	w.s.firstTombstone = 0
}

// objectIndex returns the index of the object at (x, y), or -1.
func (w *World) objectIndex(x, y int) int {
	if !w.Inside(x, y) {
		return -1
	}
	return w.objectAt(w.index(x, y))
}

// The object slots (objAt) are a byte a tile, so that the rows around
// the player that every step reads (the local view, the moves) take one
// cache line, not two, and a world's state 4 KiB less at 64×64: 0 for
// no object, index+1 for the first slotFar−1 objects, and slotFar for an
// object further along the array. In a world that may hold more than
// farObjects objects (over 8,192 tiles by default), where most of them
// are that far along, farAt holds their index; in the others (Crafter's
// 64×64 worlds hold 60 to 150 objects, at most 512) objectAtFar finds
// them by position among the few past slotFar−1.
const (
	slotFar    = 255
	farObjects = 1024
)

// newFarAt is the far slots of a world of capacity objects and area
// tiles: none where objectAtFar's search is short.
func newFarAt(capacity, area int) []uint16 {
	if capacity <= farObjects {
		return nil
	}
	return make([]uint16, area)
}

// slotOf is the slot of object i.
func slotOf(i int) uint8 { return uint8(min(i+1, slotFar)) }

// setSlot records object i on tile t.
func (w *World) setSlot(t, i int) {
	w.objAt[t] = slotOf(i)
	if i >= slotFar-1 && w.farAt != nil {
		w.farAt[t] = uint16(i + 1)
	}
}

// objectAt returns the index of the object on tile t, or -1.
func (w *World) objectAt(t int) int {
	j := int(w.objAt[t])
	if j < slotFar {
		return j - 1
	}
	return w.objectAtFar(t)
}

// objectAtFar returns the object on tile t past the slots' reach: from
// farAt, or found among the objects past slotFar−1 (removed objects keep
// their place until the step ends, so they are skipped: only a live one
// holds its tile). It is kept out of line so that objectAt, on every
// step's path, inlines.
//
//go:noinline
func (w *World) objectAtFar(t int) int {
	if w.farAt != nil {
		return int(w.farAt[t]) - 1
	}
	x, y := int16(t%w.width), int16(t/w.width)
	for i := slotFar - 1; i < int(w.s.NumObjects); i++ {
		if o := &w.objects[i]; o.X == x && o.Y == y && o.Kind != ObjNone {
			return i
		}
	}
	panic("sim: a far object slot with no object on its tile")
}
