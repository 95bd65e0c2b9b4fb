package trace

import (
	"fmt"
	"strings"
)

// knownKeys are the episode map's keys (docs/trace-format.md).
var knownKeys = []string{"v", "rules", "rv", "seed", "map", "task", "goal", "budget", "fb", "view", "agent", "t0", "build",
	"a", "a_z", "o", "o_z", "notes", "dec", "scn", "every", "cp", "m"}

// requiredKeys are the keys every writer since version 1 writes: a record
// without one of them is damaged, not an episode with zero values. Each
// entry is one key or alternatives ("a|a_z": the column plain or deflated).
var requiredKeys = []string{"v", "rules", "rv", "seed", "map", "a|a_z", "o|o_z", "every", "cp", "m"}

// requireKeys refuses a record missing a required key.
func requireKeys(seen map[string]bool) error {
	for _, req := range requiredKeys {
		found := false
		for _, k := range strings.Split(req, "|") {
			found = found || seen[k]
		}
		if !found {
			return &fieldError{req, fmt.Errorf("missing: a damaged record (every episode has it)")}
		}
	}
	return nil
}

// nearKey returns the known key that k differs from in exactly one byte
// (a flipped byte renames a key: "task" read as "tasj" would otherwise be
// skipped as a later version's field, and the episode read as one
// outside any task). Later minor versions must therefore add keys that
// differ from every known key in more than one byte, or in length.
func nearKey(k string) (string, bool) {
	for _, known := range knownKeys {
		if len(known) != len(k) {
			continue
		}
		diff := 0
		for i := range len(k) {
			if k[i] != known[i] {
				diff++
			}
		}
		if diff == 1 {
			return known, true
		}
	}
	return "", false
}
