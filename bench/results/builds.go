package results

import (
	"slices"

	"github.com/longcraft/longcraft/internal/buildinfo"
)

// Builds lists the distinct builds that played rs, in a fixed order (so
// the summary stays a pure function of the results, whatever order
// shards and resumes wrote them in); lines written before Longcraft
// recorded builds add none.
func Builds(rs []Result) []buildinfo.Build {
	var out []buildinfo.Build
	for i := range rs {
		if b := rs[i].Build; !b.IsZero() && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, buildinfo.Compare)
	return out
}
