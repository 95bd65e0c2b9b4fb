package serve

import (
	"fmt"
	"unicode/utf8"
)

// Bounds of the request fields (docs/serve.md lists them). Every field is
// checked against them before anything is allocated for a request: an
// episode's buffers grow with its budget, so an unchecked budget was a way
// to exhaust the server's memory (3·10¹⁰) or panic it (2⁶³−1).
const (
	// MaxBudget is the largest step budget: the largest any suite allows
	// (bench/suite refuses a block's budget above 1,000,000).
	MaxBudget = 1_000_000
	// MaxName bounds the names a request gives (family, tier, split,
	// feedback, observability, ruleset, action): the longest valid one is
	// far shorter, and an error quotes what it was given.
	MaxName = 64
)

// checkCreate refuses a create request with a field out of its bounds, or
// a field the server does not take, saying which and what is allowed.
func checkCreate(req *CreateRequest) error {
	for _, f := range []struct{ name, v string }{
		{"family", req.Family}, {"tier", req.Tier}, {"split", string(req.Split)}, {"feedback", string(req.Feedback)},
		{"observability", string(req.Observability)}, {"ruleset", req.Ruleset},
	} {
		if err := checkName(f.name, f.v); err != nil {
			return err
		}
	}
	switch {
	case req.Budget < 0 || req.Budget > MaxBudget:
		return fmt.Errorf("budget %d: 1 to %d steps (or 0 for the default)", req.Budget, MaxBudget)
	case req.ImageSize != 0 && (req.ImageSize < MinImageSize || req.ImageSize > MaxImageSize):
		return fmt.Errorf("image_size %d: 0 (no image) or %d to %d", req.ImageSize, MinImageSize, MaxImageSize)
	case req.Scenario != nil:
		return fmt.Errorf("scenario: not served; the server plays the generated families and plain worlds (play a scenario with longcraft score or the browser)")
	}
	return nil
}

// checkName refuses a name longer than MaxName or not UTF-8.
func checkName(field, v string) error {
	switch {
	case len(v) > MaxName:
		return fmt.Errorf("%s: %d bytes, at most %d", field, len(v), MaxName)
	case !utf8.ValidString(v):
		return fmt.Errorf("%s: not UTF-8", field)
	}
	return nil
}

// maxError bounds an error message: what a request sent (an unknown
// field's name, a bad value) is quoted, never a whole body.
const maxError = 512

// clip cuts msg to maxError bytes, at a rune boundary.
func clip(msg string) string {
	if len(msg) <= maxError {
		return msg
	}
	cut := maxError
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "… (cut)"
}
