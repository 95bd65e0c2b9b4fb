package report

import "github.com/longcraft/longcraft/bench/results"

// onePerWorld keeps the first pair of each world A played (results.WorldKey):
// a fixed map's seeds are one world, and ten identical plays of it are one
// discordant pair for McNemar's test and Newcombe's interval, not ten.
func onePerWorld(pairs [][2]*results.Result) [][2]*results.Result {
	seen := map[string]bool{}
	out := pairs[:0:0]
	for _, p := range pairs {
		if k := results.WorldKey(*p[0]); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}
