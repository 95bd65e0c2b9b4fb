package task

import (
	"encoding/json"

	"github.com/longcraft/longcraft/internal/json64"
)

// SpecJSON is a Spec as JSON holds it: the same fields under the same
// names, but the index (a scenario's seed, any unsigned 64-bit integer) as
// a decimal string, which float64 decoders (JavaScript, jq) keep exact,
// read back from a string or a bare number (what Longcraft wrote before).
// Spec's MarshalJSON and UnmarshalJSON go through it; a host that embeds
// a spec in a request of its own (bench/serve) embeds this instead, since
// Spec's methods would otherwise be promoted to its request and read it
// as a bare spec.
type SpecJSON struct {
	Family        string        `json:"family"`
	Tier          string        `json:"tier"`
	Split         Split         `json:"split"`
	Index         json64.Uint   `json:"index"`
	Budget        int           `json:"budget,omitempty"`
	Feedback      Feedback      `json:"feedback,omitempty"`
	Observability Observability `json:"observability,omitempty"`
	Scenario      *Scenario     `json:"scenario,omitempty"`
}

// JSON is s in its JSON form.
func (s Spec) JSON() SpecJSON {
	return SpecJSON{Family: s.Family, Tier: s.Tier, Split: s.Split, Index: json64.Uint(s.Index), Budget: s.Budget,
		Feedback: s.Feedback, Observability: s.Observability, Scenario: s.Scenario}
}

// Spec is the spec j holds.
func (j SpecJSON) Spec() Spec {
	return Spec{Family: j.Family, Tier: j.Tier, Split: j.Split, Index: uint64(j.Index), Budget: j.Budget,
		Feedback: j.Feedback, Observability: j.Observability, Scenario: j.Scenario}
}

// MarshalJSON writes s with its index as a string (SpecJSON).
func (s Spec) MarshalJSON() ([]byte, error) { return json.Marshal(s.JSON()) }

// UnmarshalJSON reads a spec whose index is a string or a number.
func (s *Spec) UnmarshalJSON(data []byte) error {
	var j SpecJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*s = j.Spec()
	return nil
}
