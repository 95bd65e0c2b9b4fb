package task

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// What a scenario's seed may change on its hand-written map (Scenario.Vary).
// Without one, every seed of a hand-written map is the same map: a fixed
// plan learnt on one seed wins them all. A suite varies it, or declares it
// one world by design (Scenario.Fixed); either way summaries count its
// distinct worlds (World), so a fixed map's ten seeds are one observation.
const (
	// VarySymmetry applies one of the 8 symmetries of the square (the
	// rotations and reflections), drawn from the seed, to the map, the
	// start, the objects, the landmarks and the goal's positions alike:
	// the same puzzle, every direction a plan would take changed.
	VarySymmetry = "symmetry"
	// VaryStart draws the player's start and facing from the seed: a free
	// tile of the start's own material, reachable on foot from the map's
	// start, on no position of the goal, whose first view shows no
	// material the map's own start does not see (what the map hides stays
	// hidden).
	VaryStart = "start"
	// VaryWaypoints draws the goal's positions (its reach goals, in
	// order) from the seed: free tiles of the start's material reachable
	// from the start, none on the start or another, each at least half
	// the map's side (L1) from the one before where the map has room.
	VaryWaypoints = "waypoints"
)

// VaryChoices lists what a scenario's seed may vary.
func VaryChoices() []string { return []string{VarySymmetry, VaryStart, VaryWaypoints} }

// Varies reports whether the scenario's seed changes its world beyond the
// random numbers its creatures move by: a generated map, rule variants, or
// a Vary on its hand-written map.
func (s *Scenario) Varies() bool { return s.Map == "" || s.Variants || len(s.Vary) > 0 }

// layoutVaries reports whether the seed changes the map, start, objects
// or goal positions (a generated map or a Vary), so that a placement that
// fails, or a goal that holds at step 0, on one seed may not on the next.
func (s *Scenario) layoutVaries() bool { return s.Map == "" || len(s.Vary) > 0 }

// checkVary validates Vary and Fixed.
func (s *Scenario) checkVary() error {
	for i, v := range s.Vary {
		if !slices.Contains(VaryChoices(), v) {
			return fmt.Errorf("vary: %q (%s)", v, strings.Join(VaryChoices(), ", "))
		}
		if slices.Contains(s.Vary[:i], v) {
			return fmt.Errorf("vary: %s given twice", v)
		}
	}
	if slices.Contains(s.Vary, VaryWaypoints) && !hasReach(&s.Goal) {
		return fmt.Errorf("vary: waypoints draws the goal's positions, and this goal has none (reach or waypoints of [x, y])")
	}
	if len(s.Vary) > 0 && s.Map == "" {
		return fmt.Errorf("vary: a generated world is drawn from its seed already; vary is for a hand-written map")
	}
	if s.Fixed && s.Varies() {
		return fmt.Errorf("fixed: the scenario's seed changes its world (a generated map, variants or vary), so it is not one fixed map")
	}
	return nil
}

// hasReach reports whether g has a position to reach.
func hasReach(g *Goal) bool {
	if g.Kind == KindReach {
		return true
	}
	for i := range g.Goals {
		if hasReach(&g.Goals[i]) {
			return true
		}
	}
	return false
}

// layout is a scenario as one seed lays it out: its map, start, facing,
// objects, landmarks and goal after the seed's symmetry and start.
type layout struct {
	symmetry  int
	mapText   string
	start     *[2]int
	facing    sim.Dir // DirNone: the map's
	objects   []Placed
	landmarks [][2]int
	goal      Goal
}

// varyRNG is the seed's stream of the scenario's variations, apart from
// the world's own.
func varyRNG(seed uint64) sim.RNG { return sim.RNG{State: sim.Mix64(seed ^ 0x76617279)} } // "vary"

// layoutFor lays the scenario out for world seed seed under rules r.
func (s *Scenario) layoutFor(seed uint64, r *sim.Rules) (layout, error) {
	l := layout{mapText: s.Map, objects: slices.Clone(s.Objects), landmarks: slices.Clone(s.Landmarks), goal: s.Goal}
	if s.Start != nil {
		p := *s.Start
		l.start = &p
	}
	if len(s.Vary) == 0 {
		return l, nil
	}
	rng := varyRNG(seed)
	side := s.Side()
	if slices.Contains(s.Vary, VarySymmetry) {
		l.symmetry = rng.Intn(8)
		sym := symmetry{side: side, k: l.symmetry}
		l.mapText = sym.mapText(s.Map)
		if l.start != nil {
			p := sym.point(*l.start)
			l.start = &p
		}
		for i := range l.objects {
			l.objects[i].X, l.objects[i].Y = sym.xy(l.objects[i].X, l.objects[i].Y)
		}
		for i := range l.landmarks {
			l.landmarks[i] = sym.point(l.landmarks[i])
		}
		l.goal = sym.goal(s.Goal)
	}
	if slices.Contains(s.Vary, VaryStart) {
		spots, err := l.freeTiles(s, r, true)
		if err != nil {
			return l, err
		}
		p := spots[rng.Intn(len(spots))]
		l.start = &p
		l.facing = sim.DirLeft + sim.Dir(rng.Intn(4))
	}
	if slices.Contains(s.Vary, VaryWaypoints) {
		if err := l.drawWaypoints(s, r, &rng); err != nil {
			return l, err
		}
	}
	return l, nil
}

// drawWaypoints moves the goal's reach positions, in order, to tiles drawn
// by VaryWaypoints.
func (l *layout) drawWaypoints(s *Scenario, r *sim.Rules, rng *sim.RNG) error {
	free := l.goal
	clearReach(&free)
	spots, err := (&layout{mapText: l.mapText, start: l.start, objects: l.objects, landmarks: l.landmarks, goal: free}).freeTiles(s, r, false)
	if err != nil {
		return err
	}
	prev := l.startOf(s, r)
	used := map[[2]int]bool{prev: true}
	far := s.Side() / 2
	var move func(g *Goal)
	move = func(g *Goal) {
		if g.Kind == KindReach {
			var near, farOnes [][2]int
			for _, p := range spots {
				if used[p] {
					continue
				}
				near = append(near, p)
				if grid.Manhattan(p[0], p[1], prev[0], prev[1]) >= far {
					farOnes = append(farOnes, p)
				}
			}
			pool := farOnes
			if len(pool) == 0 {
				pool = near
			}
			if len(pool) > 0 {
				p := pool[rng.Intn(len(pool))]
				g.X, g.Y = p[0], p[1]
				used[p], prev = true, p
			}
		}
		if len(g.Goals) > 0 {
			g.Goals = slices.Clone(g.Goals)
			for i := range g.Goals {
				move(&g.Goals[i])
			}
		}
	}
	move(&l.goal)
	return nil
}

// clearReach empties g's reach positions (a copy's), so that they are not
// kept from the draw.
func clearReach(g *Goal) {
	if g.Kind == KindReach {
		g.X, g.Y = -1, -1
	}
	if len(g.Goals) > 0 {
		g.Goals = slices.Clone(g.Goals)
		for i := range g.Goals {
			clearReach(&g.Goals[i])
		}
	}
}

// startOf is where the layout's player starts.
func (l *layout) startOf(s *Scenario, r *sim.Rules) [2]int {
	if l.start != nil {
		return *l.start
	}
	if w, err := l.world(s, r); err == nil {
		x, y := w.Player()
		return [2]int{x, y}
	}
	return [2]int{}
}

// world loads the layout's map and start on a fresh world.
func (l *layout) world(s *Scenario, r *sim.Rules) (*sim.World, error) {
	side := s.Side()
	w, err := sim.New(sim.Config{Width: side, Height: side, Rules: r})
	if err != nil {
		return nil, err
	}
	w.Reset(0)
	if err := w.LoadASCII(l.mapText); err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	if l.start != nil {
		if err := w.MovePlayer(l.start[0], l.start[1]); err != nil {
			return nil, fmt.Errorf("start: %w", err)
		}
	}
	return w, nil
}

// freeTiles lists, in map order, the free tiles of the start's material
// reachable on foot from the start: no object, landmark or position of
// the goal on them, and with hidden, none whose first view shows a
// material the start's own view does not.
func (l *layout) freeTiles(s *Scenario, r *sim.Rules, hidden bool) ([][2]int, error) {
	side := s.Side()
	w, err := l.world(s, r)
	if err != nil {
		return nil, err
	}
	taken := map[[2]int]bool{}
	for _, o := range w.Objects()[1:] { // not the player: the map's own start may be drawn
		taken[[2]int{int(o.X), int(o.Y)}] = true
	}
	for _, o := range l.objects {
		taken[[2]int{o.X, o.Y}] = true
	}
	for _, p := range l.landmarks {
		taken[p] = true
	}
	var mark func(g *Goal)
	mark = func(g *Goal) {
		if g.Kind == KindReach {
			taken[[2]int{g.X, g.Y}] = true
		}
		for i := range g.Goals {
			mark(&g.Goals[i])
		}
	}
	mark(&l.goal)
	px, py := w.Player()
	ground := w.Material(px, py)
	const half = sim.ViewSize / 2
	var own [256]bool // the materials the start's view shows
	for vy := py - half; vy <= py+half; vy++ {
		for vx := px - half; vx <= px+half; vx++ {
			if w.Inside(vx, vy) {
				own[w.Material(vx, vy)] = true
			}
		}
	}
	showsOnlyOwn := func(x, y int) bool {
		for vy := y - half; vy <= y+half; vy++ {
			for vx := x - half; vx <= x+half; vx++ {
				if w.Inside(vx, vy) && !own[w.Material(vx, vy)] {
					return false
				}
			}
		}
		return true
	}
	reach := reachable(w)
	var spots [][2]int
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			if !reach.Reached(y*side+x) || w.Material(x, y) != ground || taken[[2]int{x, y}] {
				continue
			}
			if hidden && !showsOnlyOwn(x, y) {
				continue
			}
			spots = append(spots, [2]int{x, y})
		}
	}
	if len(spots) == 0 {
		return nil, fmt.Errorf("vary: no free %s tile reachable from the start (that sees only what the start sees)", r.Materials[ground].Name)
	}
	return spots, nil
}

// symmetry is one of the 8 symmetries of a side×side square: k's bit 2
// transposes (x, y) to (y, x), then bit 0 mirrors x and bit 1 mirrors y.
// 0 is the identity.
type symmetry struct{ side, k int }

func (t symmetry) xy(x, y int) (int, int) {
	if t.k&4 != 0 {
		x, y = y, x
	}
	if t.k&1 != 0 {
		x = t.side - 1 - x
	}
	if t.k&2 != 0 {
		y = t.side - 1 - y
	}
	return x, y
}

func (t symmetry) point(p [2]int) [2]int {
	x, y := t.xy(p[0], p[1])
	return [2]int{x, y}
}

// dir maps a direction as the map's tiles are mapped.
func (t symmetry) dir(d sim.Dir) sim.Dir {
	dx, dy := d.Offset()
	if t.k&4 != 0 {
		dx, dy = dy, dx
	}
	if t.k&1 != 0 {
		dx = -dx
	}
	if t.k&2 != 0 {
		dy = -dy
	}
	for _, n := range []sim.Dir{sim.DirLeft, sim.DirRight, sim.DirUp, sim.DirDown} {
		if ndx, ndy := n.Offset(); ndx == dx && ndy == dy {
			return n
		}
	}
	return d
}

// arrows are the ASCII map's flying arrows by direction.
var arrows = map[byte]sim.Dir{'<': sim.DirLeft, '>': sim.DirRight, '^': sim.DirUp, 'v': sim.DirDown}

// mapText transforms an ASCII map (square, checked): each tile moves, and
// an arrow turns with it.
func (t symmetry) mapText(text string) string {
	rows, err := sim.ParseASCII(text)
	if err != nil || len(rows) != t.side {
		return text // Check refuses it
	}
	out := make([][]byte, t.side)
	for y := range out {
		out[y] = make([]byte, t.side)
	}
	for y, row := range rows {
		for x := 0; x < len(row); x++ {
			c := row[x]
			if d, ok := arrows[c]; ok {
				nd := t.dir(d)
				for ch, ad := range arrows {
					if ad == nd {
						c = ch
					}
				}
			}
			nx, ny := t.xy(x, y)
			out[ny][nx] = c
		}
	}
	var b strings.Builder
	for _, row := range out {
		b.Write(row)
		b.WriteByte('\n')
	}
	return b.String()
}

// goal moves every position of g.
func (t symmetry) goal(g Goal) Goal {
	if g.Kind == KindReach {
		g.X, g.Y = t.xy(g.X, g.Y)
	}
	if len(g.Goals) > 0 {
		goals := make([]Goal, len(g.Goals))
		for i := range g.Goals {
			goals[i] = t.goal(g.Goals[i])
		}
		g.Goals = goals
	}
	return g
}

// World names the world an episode of spec played on world seed seed, so
// that summaries count distinct worlds rather than episodes: a generated
// family's episode, or a scenario's on a generated map or with rule
// variants, is a world of its own; a hand-written map's is its layout
// (symmetry, start, facing, the goal's positions), so that ten seeds of
// one fixed map are one world. Two episodes that differ only in the
// random numbers their creatures move by are one world.
func World(spec Spec, seed uint64) string {
	own := "episode " + spec.ID() + " seed " + strconv.FormatUint(seed, 10)
	s := spec.Scenario
	if s == nil || s.Map == "" || s.Variants {
		return own
	}
	if len(s.Vary) == 0 {
		return "fixed"
	}
	r, err := s.rules()
	if err != nil {
		return own
	}
	l, err := s.layoutFor(seed, r)
	if err != nil {
		return own
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%v\x00%d\x00%v\x00%v\x00%s", l.symmetry, l.start, l.facing, l.objects, l.landmarks, l.goal.String())
	return "layout " + hex.EncodeToString(h.Sum(nil)[:8])
}
