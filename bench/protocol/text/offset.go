package text

import (
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/sim"
)

// compass names a direction as the text observation does.
func compass(d sim.Dir) string {
	switch d {
	case sim.DirLeft:
		return "west"
	case sim.DirRight:
		return "east"
	case sim.DirUp:
		return "north"
	case sim.DirDown:
		return "south"
	}
	return "nowhere"
}

// Offset describes the offset (dx, dy) per axis, e.g. "2 north, 3 west";
// "here" for (0, 0).
func Offset(dx, dy int) string {
	var parts []string
	switch {
	case dy < 0:
		parts = append(parts, fmt.Sprintf("%d north", -dy))
	case dy > 0:
		parts = append(parts, fmt.Sprintf("%d south", dy))
	}
	switch {
	case dx < 0:
		parts = append(parts, fmt.Sprintf("%d west", -dx))
	case dx > 0:
		parts = append(parts, fmt.Sprintf("%d east", dx))
	}
	if len(parts) == 0 {
		return "here"
	}
	return strings.Join(parts, ", ")
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
