package sim

// ClassicName is the id of the ruleset that reproduces Crafter.
const ClassicName = "classic"

// Classic returns a fresh copy of the classic ruleset: the mechanics of
// the Crafter benchmark as given in shared/spec/classic-rules.md, every
// number taken from there.
func Classic() *Rules {
	achievements := []string{
		"collect_coal", "collect_diamond", "collect_drink", "collect_iron",
		"collect_sapling", "collect_stone", "collect_wood", "defeat_skeleton",
		"defeat_zombie", "eat_cow", "eat_plant", "make_iron_pickaxe",
		"make_iron_sword", "make_stone_pickaxe", "make_stone_sword",
		"make_wood_pickaxe", "make_wood_sword", "place_furnace", "place_plant",
		"place_stone", "place_table", "wake_up",
	}
	ach := func(name string) Achievement {
		for i, n := range achievements {
			if n == name {
				return Achievement(i)
			}
		}
		panic("classic: unknown achievement " + name)
	}
	walk := func(name string, glyph byte, sprite string) MaterialInfo {
		return MaterialInfo{Name: name, Glyph: glyph, Sprite: sprite, Walkable: true, ArrowPasses: true, Natural: true}
	}
	solid := func(name string, glyph byte, sprite string) MaterialInfo {
		return MaterialInfo{Name: name, Glyph: glyph, Sprite: sprite, Natural: true}
	}
	item := func(name, sprite string, initial int8, vital bool) ItemInfo {
		return ItemInfo{Name: name, Sprite: sprite, Max: 9, Initial: initial, Vital: vital}
	}
	one := func(it Item) ItemAmount { return ItemAmount{it, 1} }
	const always = 65536

	r := &Rules{
		Name:    ClassicName,
		Version: 2,
		Materials: []MaterialInfo{
			MatNone:    {Name: "none", Glyph: ' '},
			MatWater:   {Name: "water", Glyph: '~', Sprite: "Water", ArrowPasses: true, Natural: true},
			MatGrass:   walk("grass", '.', "Grass"),
			MatStone:   solid("stone", '#', "Stone"),
			MatPath:    walk("path", '_', "Path"),
			MatSand:    walk("sand", ':', "Sand"),
			MatTree:    solid("tree", 'T', "Tree"),
			MatLava:    {Name: "lava", Glyph: '%', Sprite: "Lava", Deadly: true, ArrowPasses: true, Natural: true},
			MatCoal:    solid("coal", 'c', "Coal"),
			MatIron:    solid("iron", 'i', "Iron"),
			MatDiamond: solid("diamond", 'd', "Diamond"),
			MatTable:   {Name: "table", Glyph: 't', Sprite: "Table", ArrowLeaves: MatPath},
			MatFurnace: {Name: "furnace", Glyph: 'f', Sprite: "Furnace", ArrowLeaves: MatPath},
		},
		Items: []ItemInfo{
			ItemHealth:       item("health", "ItemHealth", 9, true),
			ItemFood:         item("food", "ItemFood", 9, true),
			ItemDrink:        item("drink", "ItemDrink", 9, true),
			ItemEnergy:       item("energy", "ItemEnergy", 9, true),
			ItemSapling:      item("sapling", "ItemSapling", 0, false),
			ItemWood:         item("wood", "ItemWood", 0, false),
			ItemStone:        item("stone", "ItemStone", 0, false),
			ItemCoal:         item("coal", "ItemCoal", 0, false),
			ItemIron:         item("iron", "ItemIron", 0, false),
			ItemDiamond:      item("diamond", "ItemDiamond", 0, false),
			ItemWoodPickaxe:  item("wood_pickaxe", "ItemWoodPickaxe", 0, false),
			ItemStonePickaxe: item("stone_pickaxe", "ItemStonePickaxe", 0, false),
			ItemIronPickaxe:  item("iron_pickaxe", "ItemIronPickaxe", 0, false),
			ItemWoodSword:    item("wood_sword", "ItemWoodSword", 0, false),
			ItemStoneSword:   item("stone_sword", "ItemStoneSword", 0, false),
			ItemIronSword:    item("iron_sword", "ItemIronSword", 0, false),
		},
		Actions: []ActionInfo{
			ActNoop:             {Name: "noop", Kind: ActionNoop, Key: "n"},
			ActMoveLeft:         {Name: "move_left", Kind: ActionMove, Dir: DirLeft, Key: "a"},
			ActMoveRight:        {Name: "move_right", Kind: ActionMove, Dir: DirRight, Key: "d"},
			ActMoveUp:           {Name: "move_up", Kind: ActionMove, Dir: DirUp, Key: "w"},
			ActMoveDown:         {Name: "move_down", Kind: ActionMove, Dir: DirDown, Key: "s"},
			ActDo:               {Name: "do", Kind: ActionDo, Key: " "},
			ActSleep:            {Name: "sleep", Kind: ActionSleep, Key: "z"},
			ActPlaceStone:       {Name: "place_stone", Kind: ActionPlace, Recipe: 0, Key: "r"},
			ActPlaceTable:       {Name: "place_table", Kind: ActionPlace, Recipe: 1, Key: "t"},
			ActPlaceFurnace:     {Name: "place_furnace", Kind: ActionPlace, Recipe: 2, Key: "f"},
			ActPlacePlant:       {Name: "place_plant", Kind: ActionPlace, Recipe: 3, Key: "p"},
			ActMakeWoodPickaxe:  {Name: "make_wood_pickaxe", Kind: ActionMake, Recipe: 0, Key: "1"},
			ActMakeStonePickaxe: {Name: "make_stone_pickaxe", Kind: ActionMake, Recipe: 1, Key: "2"},
			ActMakeIronPickaxe:  {Name: "make_iron_pickaxe", Kind: ActionMake, Recipe: 2, Key: "3"},
			ActMakeWoodSword:    {Name: "make_wood_sword", Kind: ActionMake, Recipe: 3, Key: "4"},
			ActMakeStoneSword:   {Name: "make_stone_sword", Kind: ActionMake, Recipe: 4, Key: "5"},
			ActMakeIronSword:    {Name: "make_iron_sword", Kind: ActionMake, Recipe: 5, Key: "6"},
		},
		Collect: []CollectRule{
			{Material: MatTree, Receive: one(ItemWood), Leaves: MatGrass, Chance: always, Achievement: ach("collect_wood")},
			{Material: MatStone, Require: []ItemAmount{one(ItemWoodPickaxe)}, Receive: one(ItemStone), Leaves: MatPath, Chance: always, Achievement: ach("collect_stone")},
			{Material: MatCoal, Require: []ItemAmount{one(ItemWoodPickaxe)}, Receive: one(ItemCoal), Leaves: MatPath, Chance: always, Achievement: ach("collect_coal")},
			{Material: MatIron, Require: []ItemAmount{one(ItemStonePickaxe)}, Receive: one(ItemIron), Leaves: MatPath, Chance: always, Achievement: ach("collect_iron")},
			{Material: MatDiamond, Require: []ItemAmount{one(ItemIronPickaxe)}, Receive: one(ItemDiamond), Leaves: MatPath, Chance: always, Achievement: ach("collect_diamond")},
			{Material: MatWater, Receive: one(ItemDrink), Leaves: MatWater, Chance: always, Resets: CounterThirst, Achievement: ach("collect_drink")},
			{Material: MatGrass, Receive: one(ItemSapling), Leaves: MatGrass, Chance: uint32(P(100)), Achievement: ach("collect_sapling")},
		},
		Place: []PlaceRule{
			{Name: "stone", Uses: []ItemAmount{one(ItemStone)}, Where: MaterialsOf(MatGrass, MatSand, MatPath, MatWater, MatLava), Material: MatStone, Achievement: ach("place_stone")},
			{Name: "table", Uses: []ItemAmount{{ItemWood, 2}}, Where: MaterialsOf(MatGrass, MatSand, MatPath), Material: MatTable, Achievement: ach("place_table")},
			{Name: "furnace", Uses: []ItemAmount{{ItemStone, 4}}, Where: MaterialsOf(MatGrass, MatSand, MatPath), Material: MatFurnace, Achievement: ach("place_furnace")},
			{Name: "plant", Uses: []ItemAmount{one(ItemSapling)}, Where: MaterialsOf(MatGrass), Object: ObjPlant, Achievement: ach("place_plant")},
		},
		Make: []MakeRule{
			{Name: "wood_pickaxe", Uses: []ItemAmount{one(ItemWood)}, Nearby: []Material{MatTable}, Gives: one(ItemWoodPickaxe), Achievement: ach("make_wood_pickaxe")},
			{Name: "stone_pickaxe", Uses: []ItemAmount{one(ItemWood), one(ItemStone)}, Nearby: []Material{MatTable}, Gives: one(ItemStonePickaxe), Achievement: ach("make_stone_pickaxe")},
			{Name: "iron_pickaxe", Uses: []ItemAmount{one(ItemWood), one(ItemCoal), one(ItemIron)}, Nearby: []Material{MatTable, MatFurnace}, Gives: one(ItemIronPickaxe), Achievement: ach("make_iron_pickaxe")},
			{Name: "wood_sword", Uses: []ItemAmount{one(ItemWood)}, Nearby: []Material{MatTable}, Gives: one(ItemWoodSword), Achievement: ach("make_wood_sword")},
			{Name: "stone_sword", Uses: []ItemAmount{one(ItemWood), one(ItemStone)}, Nearby: []Material{MatTable}, Gives: one(ItemStoneSword), Achievement: ach("make_stone_sword")},
			{Name: "iron_sword", Uses: []ItemAmount{one(ItemWood), one(ItemCoal), one(ItemIron)}, Nearby: []Material{MatTable, MatFurnace}, Gives: one(ItemIronSword), Achievement: ach("make_iron_sword")},
		},
		Achievements: achievements,
		Weapons: []Weapon{
			{ItemWoodSword, 2}, {ItemStoneSword, 3}, {ItemIronSword, 5},
		},
		BareHand: 1,
		Events:   EventAchievements{WakeUp: ach("wake_up")},
		Vitals: VitalRules{
			HungerLimit:   2 * 25,
			ThirstLimit:   2 * 20,
			FatigueLimit:  30,
			RestLimit:     10,
			RecoverLimit:  2 * 25,
			DegenLimit:    2 * 15,
			EpisodeLength: 10000,
		},
		Creatures: classicCreatures(),
		Creature: CreatureRules{
			UpdateRadius: 18, // 2 × the 9-tile view, as Crafter
			BalanceEvery: 10,
			ChunkSize:    12,
		},
	}
	if err := r.compile(); err != nil {
		panic(err) // the classic table is ours; a mistake here is a bug
	}
	return r
}

// classicCreatures returns classic's object rows, by ObjectKind. The
// balance rules run zombies, skeletons, cows, as Crafter's do.
func classicCreatures() []CreatureInfo {
	return []CreatureInfo{
		ObjNone: {Name: "none"},
		ObjPlayer: {Name: "player", Glyphs: "@", Looks: LooksPlayer, Ground: MatGrass, Footing: FootPlayer,
			Sprites: []string{"PlayerLeft", "PlayerRight", "PlayerUp", "PlayerDown", "PlayerSleep"}},
		ObjCow: {Name: "cow", Glyphs: "C", Sprites: []string{"Cow"}, Ground: MatGrass,
			Health: 3, Interact: InteractAttack, Food: 6, Achievement: "eat_cow", Tramples: true,
			Start: StartMeadow,
			Balance: &BalanceRule{Order: 2, Material: MatGrass, MinSpace: 30,
				MinBase: 65536, MaxBase: 65536 * 3 / 2, MaxLight: 65536,
				SpawnDist: 5, DespawnDist: 5, SpawnP: P(10), DespawnP: P(100)},
			Update: (*World).updateCow, Move: P(500)},
		ObjZombie: {Name: "zombie", Glyphs: "Z", Sprites: []string{"Zombie"}, Ground: MatGrass,
			Health: 5, Interact: InteractAttack, Achievement: "defeat_zombie", Hostile: true, Tramples: true,
			Start: StartAnywhere,
			Balance: &BalanceRule{Order: 0, Material: MatGrass, MinSpace: 50,
				MinBase: 65536 * 7 / 2, MinLight: -3 * 65536, MaxBase: 65536 * 7 / 2, MaxLight: -3 * 65536,
				SpawnDist: 6, DespawnDist: 0, SpawnP: P(300), DespawnP: P(400)},
			Update: (*World).updateZombie, Near: 8, Chase: P(900), LongAxis: P(800), Reach: 1,
			Damage: 2, SleepDamage: 7, Cooldown: 5},
		ObjSkeleton: {Name: "skeleton", Glyphs: "S", Sprites: []string{"Skeleton"}, Ground: MatPath,
			Health: 3, Interact: InteractAttack, Achievement: "defeat_skeleton", Hostile: true, Tramples: true,
			Start: StartTunnel,
			Balance: &BalanceRule{Order: 1, Material: MatPath, MinSpace: 6,
				MinBase: 65536, MaxBase: 2 * 65536,
				SpawnDist: 7, DespawnDist: 7, SpawnP: P(100), DespawnP: P(100)},
			Update: (*World).updateSkeleton, Flee: 3, Reach: 5, Near: 8, LongAxis: P(600),
			Shoot: P(500), Chase: P(300), Move: P(200), Cooldown: 4, Missile: ObjArrow},
		ObjArrow: {Name: "arrow", Glyphs: "<>^v", Looks: LooksFacing, Ground: MatPath, Footing: FootFlight,
			Sprites: []string{"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"},
			Update:  (*World).updateArrow, Damage: 2},
		ObjPlant: {Name: "plant", Glyphs: "pP", Sprites: []string{"Plant", "PlantRipe"}, Looks: LooksRipe,
			Ground: MatGrass, Footing: FootSoil, Soil: MaterialsOf(MatGrass),
			Health: 1, Interact: InteractHarvest, Food: 4, Ripe: 300, Achievement: "eat_plant",
			Update: (*World).updatePlant},
		ObjLandmark: {Name: "landmark", Glyphs: "123456789", Sprites: []string{"Flag"}, Looks: LooksLabel,
			Ground: MatGrass, Health: 1, Immune: true},
	}
}
