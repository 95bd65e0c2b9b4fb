package assets

// A sprite's name is its constant's identifier ("Water", "ItemWood"),
// which stringer writes into sprite_string.go from the Sprite constants
// (go generate ./assets): the rules table names each material's and item's
// sprite by it (sim.MaterialInfo.Sprite), so that the renderer finds them
// by name and the constants stay the one list of sprites.

// SpriteNames lists every sprite's name, in Sprite order.
func SpriteNames() []string {
	names := make([]string, NumSprites)
	for s := range NumSprites {
		names[s] = s.String()
	}
	return names
}

// SpriteName returns s's name.
func SpriteName(s Sprite) string { return s.String() }

// SpriteByName returns the sprite named name.
func SpriteByName(name string) (Sprite, bool) {
	for s := range NumSprites {
		if s.String() == name {
			return s, true
		}
	}
	return 0, false
}
