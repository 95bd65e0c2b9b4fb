package render

// Daylight and sleep, as in Crafter's renderer: below half daylight the
// view is darker, desaturated, tinted blue and noisy; asleep it is grey and
// dark. Each transform is integer arithmetic on 8-bit channels.

// Levels is the number of daylight levels a renderer prepares.
const Levels = 16

// levelOf quantises daylight (1/65536 units) to a level in [0, Levels).
func levelOf(daylight int32) int {
	l := (int(daylight)*(Levels-1) + 32768) >> 16
	return min(max(l, 0), Levels-1)
}

// levelDaylight returns the daylight of level l in 1/256 units.
func levelDaylight(l int) int { return l * 256 / (Levels - 1) }

// luma is ITU-R 601 luma, as PIL's ImageEnhance.Color uses.
func luma(r, g, b int) int { return (r*299 + g*587 + b*114) / 1000 }

// lit applies daylight d (1/256) to a colour: d·c + (1−d)·night(c), where
// night desaturates to 40% colour and mixes half and half with a dark blue.
func lit(r, g, b, d int) (int, int, int) {
	y := luma(r, g, b)
	night := func(c, tint int) int {
		desat := y + (c-y)*2/5
		return (desat + tint) / 2
	}
	nr, ng, nb := night(r, 0), night(g, 16), night(b, 64)
	return (d*r + (256-d)*nr) >> 8, (d*g + (256-d)*ng) >> 8, (d*b + (256-d)*nb) >> 8
}

// asleep greys a colour fully and darkens it toward a deep blue.
func asleep(r, g, b int) (int, int, int) {
	y := luma(r, g, b)
	return y / 2, y / 2, (y + 16) / 2
}

// variant applies the level's daylight and, if sleeping, sleep.
func variant(r, g, b, level int, sleeping bool) (int, int, int) {
	r, g, b = lit(r, g, b, levelDaylight(level))
	if sleeping {
		r, g, b = asleep(r, g, b)
	}
	return r, g, b
}

// levelNoise is how strongly night noise covers the view at daylight
// level l, in 1/256: Crafter's 2·(0.5 − daylight) below half daylight.
func levelNoise(l int) int {
	return max(256-2*levelDaylight(l), 0)
}
