package assets

// spriteNames are the sprites' names, in Sprite order: the names the rules
// table gives each material and item (sim.MaterialInfo.Sprite), so that
// the renderer finds their sprites by name.
var spriteNames = [...]string{
	"Water", "Grass", "Stone", "Path", "Sand", "Tree", "Lava", "Coal", "Iron", "Diamond", "Table", "Furnace",
	"PlayerLeft", "PlayerRight", "PlayerUp", "PlayerDown", "PlayerSleep", "Cow", "Zombie", "Skeleton",
	"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Plant", "PlantRipe",
	"ItemHealth", "ItemFood", "ItemDrink", "ItemEnergy", "ItemSapling", "ItemWood", "ItemStone", "ItemCoal",
	"ItemIron", "ItemDiamond", "ItemWoodPickaxe", "ItemStonePickaxe", "ItemIronPickaxe",
	"ItemWoodSword", "ItemStoneSword", "ItemIronSword",
	"Digit0", "Digit1", "Digit2", "Digit3", "Digit4", "Digit5", "Digit6", "Digit7", "Digit8", "Digit9",
	"Unknown", "Darkness", "Selection",
	"IronIngot", "TorchItem", "Torch", "Crystal", "CrystalItem", "Compass", "Anvil", "Bridge", "BridgeItem", "Flag",
}

// SpriteNames lists every sprite's name, in Sprite order.
func SpriteNames() []string { return spriteNames[:] }

// SpriteName returns s's name.
func SpriteName(s Sprite) string {
	if s < 0 || int(s) >= len(spriteNames) {
		return "Sprite?"
	}
	return spriteNames[s]
}

// SpriteByName returns the sprite named name.
func SpriteByName(name string) (Sprite, bool) {
	for i, n := range spriteNames {
		if n == name {
			return Sprite(i), true
		}
	}
	return 0, false
}
