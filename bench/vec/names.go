package vec

import (
	"fmt"

	"github.com/longcraft/longcraft/render"
)

// NameKinds are the lists of names Names reports, each in the order of the
// values it names: actions by action id, achievements by bit of the
// Achievements buffer, inventory by column of the Inventory buffer, and
// symbolic by id of the Symbolic and Semantic buffers (the legend).
var NameKinds = []string{"actions", "achievements", "inventory", "symbolic"}

// Names returns the batch's names of kind (one of NameKinds), from its
// ruleset: what a host labels actions, achievements, inventory columns
// and symbolic ids with.
func (b *Batch) Names(kind string) ([]string, error) {
	r := b.rules
	var out []string
	switch kind {
	case "actions":
		for _, a := range r.Actions {
			out = append(out, a.Name)
		}
	case "achievements":
		out = append(out, r.Achievements...)
	case "inventory":
		for _, it := range r.Items {
			out = append(out, it.Name)
		}
	case "symbolic":
		out = r.SemanticNames()
	default:
		return nil, fmt.Errorf("vec: no names of kind %q: want one of %v", kind, NameKinds)
	}
	return out, nil
}

// RenderWorlds draws the agent views of worlds first to first+len(dst)/
// v.FrameBytes()-1, as they are now, into dst, one frame after another
// with v (any size, unlike the RGB buffer's ImageSize): what a host's
// render() shows. It reads the worlds only, so it is not to run during a
// step (a Batch takes one call at a time).
func (b *Batch) RenderWorlds(v *render.AgentView, first int, dst []byte) error {
	fb := v.FrameBytes()
	if fb == 0 || len(dst)%fb != 0 {
		return fmt.Errorf("vec: render: %d bytes is not a whole number of %d-byte frames", len(dst), fb)
	}
	n := len(dst) / fb
	if first < 0 || n < 1 || first+n > b.cfg.N {
		return fmt.Errorf("vec: render: worlds %d to %d of a batch of %d", first, first+n-1, b.cfg.N)
	}
	if !b.started {
		return fmt.Errorf("vec: render before Reset")
	}
	for i := range n {
		v.Render(b.worlds[first+i], dst[i*fb:(i+1)*fb])
	}
	return nil
}
