package sim

import "fmt"

// ExtendedName is the id of the extended ruleset.
const ExtendedName = "extended"

// Extended materials, after the classic ones.
const (
	MatTorch   Material = iota + MatFurnace + 1 // a placed torch: light around it
	MatCrystal                                  // crystal in deep stone: mined in the dark
	MatAnvil                                    // a station for iron work
	MatBridge                                   // planks laid on water: walkable
)

// Extended items, after the classic ones.
const (
	ItemIronIngot Item = iota + ItemIronSword + 1
	ItemTorch
	ItemCrystal
	ItemCompass
	ItemBridge
)

// Extended actions, after the classic ones.
const (
	ActPlaceTorch Action = iota + ActMakeIronSword + 1
	ActPlaceAnvil
	ActPlaceBridge
	ActMakeTorch
	ActMakeIronIngot
	ActMakeCompass
	ActMakeBridge
)

// Extended returns a fresh copy of the extended ruleset: classic with a
// deeper tech tree. Iron must be smelted into ingots at a furnace, iron
// tools are forged at an anvil (placed from ingots), crystal grows deep in
// the mountains and can only be mined with an iron pickaxe and a light
// (a torch held or placed nearby), and a compass takes an ingot and a
// crystal at the anvil: eleven hops from the first tree. Bridges laid on
// water make it walkable. Every rule is a row; the code is classic's.
func Extended() *Rules {
	r := Classic().Clone()
	r.Name = ExtendedName
	r.Version = 2
	ach := func(name string) Achievement {
		r.Achievements = append(r.Achievements, name)
		return Achievement(len(r.Achievements) - 1)
	}
	single := func(it Item) ItemAmount { return ItemAmount{it, 1} }
	r.Materials = append(r.Materials,
		MaterialInfo{Name: "torch", Glyph: '!', Sprite: "Torch", ArrowLeaves: MatPath},
		MaterialInfo{Name: "crystal", Glyph: '*', Sprite: "Crystal", Natural: true},
		MaterialInfo{Name: "anvil", Glyph: 'a', Sprite: "Anvil", ArrowLeaves: MatPath},
		MaterialInfo{Name: "bridge", Glyph: '=', Sprite: "Bridge", Walkable: true, ArrowPasses: true},
	)
	r.Items = append(r.Items,
		ItemInfo{Name: "iron_ingot", Sprite: "IronIngot", Max: 9},
		ItemInfo{Name: "torch", Sprite: "TorchItem", Max: 9},
		ItemInfo{Name: "crystal", Sprite: "CrystalItem", Max: 9},
		ItemInfo{Name: "compass", Sprite: "Compass", Max: 9},
		ItemInfo{Name: "bridge", Sprite: "BridgeItem", Max: 9},
	)
	// Iron tools now need ingots and an anvil.
	for i := range r.Make {
		m := &r.Make[i]
		if m.Name == "iron_pickaxe" || m.Name == "iron_sword" {
			m.Uses = []ItemAmount{single(ItemWood), single(ItemIronIngot)}
			m.Nearby = []Material{MatTable, MatAnvil}
		}
	}
	r.Collect = append(r.Collect, CollectRule{Material: MatCrystal, Require: []ItemAmount{single(ItemIronPickaxe)},
		Receive: single(ItemCrystal), Leaves: MatPath, Chance: 65536, Light: true, Achievement: ach("collect_crystal")})
	place := func(name string, uses []ItemAmount, where MaterialSet, m Material) int {
		r.Place = append(r.Place, PlaceRule{Name: name, Uses: uses, Where: where, Material: m, Achievement: ach("place_" + name)})
		return len(r.Place) - 1
	}
	mk := func(name string, uses []ItemAmount, nearby []Material, gives ItemAmount) int {
		r.Make = append(r.Make, MakeRule{Name: name, Uses: uses, Nearby: nearby, Gives: gives, Achievement: ach("make_" + name)})
		return len(r.Make) - 1
	}
	ground := MaterialsOf(MatGrass, MatSand, MatPath)
	r.Actions = append(r.Actions,
		ActionInfo{Name: "place_torch", Kind: ActionPlace, Recipe: place("torch", []ItemAmount{single(ItemTorch)}, ground, MatTorch), Key: "l"},
		ActionInfo{Name: "place_anvil", Kind: ActionPlace, Recipe: place("anvil", []ItemAmount{{ItemIronIngot, 2}}, ground, MatAnvil), Key: "v"},
		ActionInfo{Name: "place_bridge", Kind: ActionPlace, Recipe: place("bridge", []ItemAmount{single(ItemBridge)}, MaterialsOf(MatWater), MatBridge), Key: "b"},
		ActionInfo{Name: "make_torch", Kind: ActionMake, Recipe: mk("torch", []ItemAmount{single(ItemWood), single(ItemCoal)}, []Material{MatTable}, ItemAmount{ItemTorch, 2}), Key: "7"},
		ActionInfo{Name: "make_iron_ingot", Kind: ActionMake, Recipe: mk("iron_ingot", []ItemAmount{single(ItemIron), single(ItemCoal)}, []Material{MatFurnace}, single(ItemIronIngot)), Key: "8"},
		ActionInfo{Name: "make_compass", Kind: ActionMake, Recipe: mk("compass", []ItemAmount{single(ItemIronIngot), single(ItemCrystal)}, []Material{MatAnvil}, single(ItemCompass)), Key: "9"},
		ActionInfo{Name: "make_bridge", Kind: ActionMake, Recipe: mk("bridge", []ItemAmount{{ItemWood, 3}}, []Material{MatTable}, single(ItemBridge)), Key: "0"},
	)
	r.LightItem, r.LightMaterial, r.LightRadius = ItemTorch, MatTorch, 2
	// Crystal in deep stone: about five per 64×64 world.
	r.Gen.Ores = []OreRule{{Material: MatCrystal, MinMountain: one * 30 / 100, Chance: P(13)}}
	if err := r.compile(); err != nil {
		panic(err) // the extended table is ours; a mistake here is a bug
	}
	return r
}

// RulesByName returns a fresh copy of a built-in ruleset: "classic" or
// "extended".
func RulesByName(name string) (*Rules, error) {
	switch name {
	case ClassicName:
		return Classic(), nil
	case ExtendedName:
		return Extended(), nil
	}
	return nil, fmt.Errorf("unknown ruleset %q (classic, extended)", name)
}
