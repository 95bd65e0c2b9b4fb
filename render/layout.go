package render

import (
	"github.com/longcraft/longcraft/assets"
	"github.com/longcraft/longcraft/sim"
)

// worldLayout places the sprites of the world tile set: the void and the
// fallback, every material of the drawn rules in sim.Material order from
// 1, then the pictures of every object kind from the player on, each
// kind's as its rules row lists them (Sprites). Nothing here names a
// material or a kind: a new row brings its pictures.
type worldLayout struct {
	sprites   []assets.Sprite
	materials int         // materials drawn, MatNone included
	kinds     []kindSlots // by sim.ObjectKind
}

// kindSlots are the slots of one kind's pictures.
type kindSlots struct{ first, n int }

// Fixed slots of the world tile set.
const (
	slotDarkness = 0
	slotUnknown  = 1
	slotMaterial = 2 // + material − 1
)

func newWorldLayout() *worldLayout {
	r := drawn()
	l := &worldLayout{sprites: []assets.Sprite{assets.Darkness, assets.Unknown}, materials: len(r.Materials)}
	for _, m := range r.Materials[1:] {
		l.sprites = append(l.sprites, spriteNamed(m.Sprite))
	}
	l.kinds = make([]kindSlots, len(r.Creatures))
	for k, c := range r.Creatures {
		if sim.ObjectKind(k) == sim.ObjNone {
			continue
		}
		l.kinds[k] = kindSlots{len(l.sprites), len(c.Sprites)}
		for _, name := range c.Sprites {
			l.sprites = append(l.sprites, spriteNamed(name))
		}
	}
	return l
}

// ground returns the slot of material m (the void and materials the
// drawn rules lack have their own).
func (l *worldLayout) ground(m sim.Material) int {
	switch {
	case m == sim.MatNone:
		return slotDarkness
	case int(m) < l.materials:
		return slotMaterial + int(m) - 1
	}
	return slotUnknown
}

// object returns the slot of object o of a world of rules r, as drawn
// when the player faces facing and sleeps or not: the picture r's row
// chooses (Rules.Look) among those the drawn row lists.
func (l *worldLayout) object(r *sim.Rules, o sim.Object, facing sim.Dir, sleeping bool) int {
	if int(o.Kind) >= len(l.kinds) {
		return slotUnknown
	}
	ks := l.kinds[o.Kind]
	if _, sp := r.Look(o, facing, sleeping); uint(sp) < uint(ks.n) {
		return ks.first + sp
	}
	return slotUnknown
}

// groundOpaque makes the ground slots draw whole: a ground tile covers its
// square even where its sprite has holes (they show black).
func (l *worldLayout) groundOpaque(t *tileSet) {
	for slot := 0; slot < slotMaterial+l.materials-1; slot++ {
		t.opaque[slot] = true
	}
}
