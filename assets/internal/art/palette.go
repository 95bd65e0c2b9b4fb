package art

import "image/color"

// palette maps the characters of the sprite pictures to colours; '.' and
// ' ' are transparent. One palette serves every sprite, so that a colour
// means the same thing everywhere (wood is wood on a table, a log and a
// pickaxe handle). The colours are slightly muted, with strong steps of
// value between a colour and its shade or highlight.
var palette = map[byte]color.NRGBA{
	// Neutrals.
	'k': {24, 22, 30, 255},    // outline, coal
	'K': {66, 64, 74, 255},    // coal highlight
	'D': {10, 10, 16, 255},    // darkness outside the map
	'W': {244, 246, 240, 255}, // white: cow, bone, shine, digits
	'q': {228, 228, 222, 255}, // bone

	// Water.
	'b': {46, 88, 160, 255},   // water
	'B': {32, 64, 124, 255},   // deep water
	'C': {84, 134, 198, 255},  // wave, drink
	'c': {140, 190, 230, 255}, // wave crest

	// Grass, leaves and plants.
	'g': {88, 148, 62, 255},  // grass
	'G': {60, 108, 44, 255},  // grass blade
	'h': {126, 178, 84, 255}, // grass highlight
	't': {40, 96, 48, 255},   // leaves
	'T': {70, 134, 62, 255},  // leaves in light, stems
	'u': {24, 62, 34, 255},   // leaves in shade
	'A': {152, 206, 86, 255}, // young leaves

	// Stone and steel.
	's': {124, 124, 130, 255}, // stone
	'S': {84, 84, 94, 255},    // stone crack, mortar
	'l': {164, 164, 170, 255}, // stone highlight
	'L': {200, 210, 222, 255}, // steel

	// Ground.
	'p': {186, 152, 108, 255}, // path
	'P': {150, 118, 80, 255},  // path speck, soil
	'E': {208, 180, 136, 255}, // path light, wood highlight
	'y': {228, 212, 152, 255}, // sand
	'Y': {198, 180, 118, 255}, // sand grain

	// Wood.
	'w': {114, 74, 42, 255},  // wood
	'm': {160, 112, 64, 255}, // wood in light
	'M': {74, 48, 28, 255},   // wood in shade

	// Fire and lava.
	'R': {158, 38, 28, 255},  // lava crust, heart shade
	'r': {222, 82, 32, 255},  // lava
	'o': {246, 144, 40, 255}, // glow
	'e': {252, 216, 80, 255}, // yellow heat, lightning
	'Z': {196, 146, 30, 255}, // lightning shade

	// Ores.
	'i': {214, 118, 54, 255},  // iron
	'I': {246, 176, 108, 255}, // iron highlight
	'j': {140, 66, 34, 255},   // iron shade
	'd': {104, 216, 228, 255}, // diamond
	'x': {44, 140, 170, 255},  // diamond shade

	// People and creatures.
	'f': {232, 182, 142, 255}, // skin
	'F': {188, 134, 100, 255}, // skin shade
	'H': {82, 52, 32, 255},    // hair
	'n': {50, 100, 220, 255},  // shirt
	'N': {36, 66, 146, 255},   // shirt shade
	'v': {36, 44, 110, 255},   // trousers
	'z': {152, 198, 58, 255},  // zombie skin
	'V': {128, 54, 30, 255},   // zombie rags
	'X': {212, 40, 48, 255},   // red: eyes, heart, fruit
	'U': {248, 140, 140, 255}, // red highlight
	'a': {236, 152, 162, 255}, // pink snout
	'O': {168, 90, 46, 255},   // cooked meat

	// HUD.
	'J': {255, 228, 40, 255}, // selection frame

	// The extended ruleset. The letters are all taken, so these are digits.
	'1': {104, 40, 146, 255},  // crystal shade
	'2': {182, 78, 216, 255},  // crystal
	'3': {240, 158, 246, 255}, // crystal light
	'4': {54, 52, 64, 255},    // dark stone: crystal rock, anvil floor
	'5': {154, 184, 72, 255},  // torchlit grass
	'6': {204, 208, 96, 255},  // torchlit grass by the flame
}
