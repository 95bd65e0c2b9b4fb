package trace

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The writer keeps to the reader's limits (codec.go): it never writes what
// Open would refuse. A string longer than maxString is cut, on a rune
// boundary, and ends with a marker saying how much was cut; an episode's
// notes are kept to maxNoteBytes in all, so that a verbose agent neither
// holds gigabytes in the recorder nor writes a record over maxRecord.
const (
	maxNoteBytes = 32 << 20 // an episode's note strings, in bytes
	// noteOverhead is what a note costs beyond its strings: its array
	// header and four small numbers, generously.
	noteOverhead = 64
)

// fitString returns s cut to at most maxString bytes, marker included.
func fitString(s string) string {
	if len(s) <= maxString {
		return s
	}
	marker := fmt.Sprintf("…[cut: %d bytes over the trace's %d-byte limit]", len(s)-maxString, maxString)
	keep := maxString - len(marker)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + marker
}

// WasCut reports whether s is a string fitString cut: it ends with the
// marker naming this trace's limit, and has the length a cut leaves (so
// a reply that merely ends with the marker's words is not read as cut).
// A reader that must know the whole string (a raw reply, which its parser
// refuses over this length) learns from it that it does not.
func WasCut(s string) bool {
	if len(s) <= maxString-utf8.UTFMax {
		return false
	}
	i := strings.LastIndex(s, "…[cut: ")
	if i < 0 || !strings.HasSuffix(s, "-byte limit]") {
		return false
	}
	var over, limit int
	n, err := fmt.Sscanf(s[i:], "…[cut: %d bytes over the trace's %d-byte limit]", &over, &limit)
	return err == nil && n == 2 && over > 0 && limit == maxString
}

// maxNoteNumber bounds a note's token count and latency, as the reader
// does: they come from a model server's usage, which may say anything.
const maxNoteNumber = 1 << 40

// fitNote returns n with every string within maxString and its numbers
// within 0 to maxNoteNumber.
func fitNote(n Note) Note {
	n.Reasoning, n.Raw, n.Belief, n.Scratch = fitString(n.Reasoning), fitString(n.Raw), fitString(n.Belief), fitString(n.Scratch)
	n.Tokens, n.LatencyMs = min(max(n.Tokens, 0), maxNoteNumber), min(max(n.LatencyMs, 0), maxNoteNumber)
	n.Step = min(max(n.Step, 0), maxSteps)
	return n
}

// noteFits reports whether n is within the reader's limits as it is.
func noteFits(n *Note) bool {
	return len(n.Reasoning) <= maxString && len(n.Raw) <= maxString && len(n.Belief) <= maxString && len(n.Scratch) <= maxString &&
		n.Tokens >= 0 && n.Tokens <= maxNoteNumber && n.LatencyMs >= 0 && n.LatencyMs <= maxNoteNumber && n.Step >= 0 && n.Step <= maxSteps
}

// noteSize is what a note adds to an episode's record, at most.
func noteSize(n *Note) int {
	return len(n.Reasoning) + len(n.Raw) + len(n.Belief) + len(n.Scratch) + noteOverhead
}

// droppedNote is the note that stands for the ones left out.
func droppedNote(step, dropped, bytes int) Note {
	return Note{Step: step, Reasoning: fmt.Sprintf("[%d notes (%d bytes) left out: an episode's notes are kept to %d bytes]", dropped, bytes, maxNoteBytes)}
}

// LeftOut reports whether n is the note that stands for the notes an
// episode left out (droppedNote): no step's own note. An agent's note
// with the same reasoning has a raw reply too, which this one lacks.
func LeftOut(n *Note) bool {
	var dropped, bytes, limit int
	k, err := fmt.Sscanf(n.Reasoning, "[%d notes (%d bytes) left out: an episode's notes are kept to %d bytes]", &dropped, &bytes, &limit)
	return n.Raw == "" && err == nil && k == 3 && n.Reasoning == droppedNote(n.Step, dropped, bytes).Reasoning
}

// fitEpisode returns ep, or a shallow copy of it within the reader's
// limits: header strings and notes cut as above.
func fitEpisode(ep *Episode) *Episode {
	h := &ep.Header
	fits := len(h.Goal) <= maxString && len(h.Agent) <= maxString && len(h.Ruleset) <= maxString &&
		len(h.Feedback) <= maxString && len(h.View) <= maxString
	total := 0
	for i := range ep.Notes {
		n := &ep.Notes[i]
		total += noteSize(n)
		fits = fits && noteFits(n)
	}
	if fits && total <= maxNoteBytes {
		return ep
	}
	c := *ep
	c.Header.Goal, c.Header.Agent, c.Header.Ruleset = fitString(h.Goal), fitString(h.Agent), fitString(h.Ruleset)
	c.Header.Feedback, c.Header.View = fitString(h.Feedback), fitString(h.View)
	c.Notes = make([]Note, 0, len(ep.Notes))
	kept, dropped, droppedBytes := 0, 0, 0
	for _, n := range ep.Notes {
		n = fitNote(n)
		if s := noteSize(&n); kept+s > maxNoteBytes {
			dropped, droppedBytes = dropped+1, droppedBytes+s
			continue
		} else {
			kept += s
		}
		c.Notes = append(c.Notes, n)
	}
	if dropped > 0 {
		c.Notes = append(c.Notes, droppedNote(max(len(c.Actions)-1, 0), dropped, droppedBytes))
	}
	return &c
}
