package episode

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Measure is one episode's value of a metric that an episode may leave
// unmeasured (precondition discovery when nothing was missing, world-model
// accuracy when nothing was predicted): "not measured" is a state, never
// a number. JSON writes it as the number, or null.
type Measure struct {
	Value float64
	OK    bool // measured
}

// Measured is a measured value.
func Measured(v float64) Measure { return Measure{Value: v, OK: true} }

// MarshalJSON writes the value, or null when not measured.
func (m Measure) MarshalJSON() ([]byte, error) {
	if !m.OK {
		return []byte("null"), nil
	}
	return json.Marshal(m.Value)
}

// UnmarshalJSON reads a number or null. Results written before Measure
// existed said "not measured" with -1, which no measured value can be
// (these metrics are fractions and step counts): it reads as not measured.
func (m *Measure) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*m = Measure{}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("measure: %w", err)
	}
	if v == -1 {
		*m = Measure{}
		return nil
	}
	*m = Measured(v)
	return nil
}
