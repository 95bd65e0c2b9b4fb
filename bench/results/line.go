package results

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/longcraft/longcraft/bench/episode"
)

// Measured returns every declared metric (Metrics) of the episode by
// name: its value, or not measured. An errored episode (its task could
// not be generated) measures none, as the summary leaves it out.
func (r Result) Measured() map[string]episode.Measure {
	out := make(map[string]episode.Measure, len(Metrics()))
	for _, m := range Metrics() {
		if v, ok := m.Of(r); ok && r.Err == "" {
			out[m.Name] = episode.Measured(v)
		} else {
			out[m.Name] = episode.Measure{}
		}
	}
	return out
}

// resultLine is a results line: the result's fields, and its declared
// metrics under "metrics", null where not measured, so that a reader of
// results.jsonl alone (jq, pandas) aggregates exactly what the summary
// aggregates without re-deriving a metric from its fields.
type resultLine struct {
	plainResult
	Measured map[string]episode.Measure `json:"metrics"`
}

type plainResult Result // Result's fields, without its JSON methods

// MarshalJSON writes a results line.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultLine{plainResult: plainResult(r), Measured: r.Measured()})
}

// UnmarshalJSON reads a results line, old or new. The "metrics" it holds
// must be what its fields give (a line edited by hand in one place and
// not the other is refused). Lines written before the behaviour ratios
// could be null said 0 for "not measured": an episode of no step has no
// valid-action ratio, one with no failed action no repeated-failure rate.
func (r *Result) UnmarshalJSON(b []byte) error {
	var line resultLine
	if err := json.Unmarshal(b, &line); err != nil {
		return err
	}
	*r = Result(line.plainResult)
	if r.Steps == 0 {
		r.ValidActionRatio = episode.Measure{}
	}
	if r.FailedActions == 0 {
		r.RepeatedFailures = episode.Measure{}
	}
	if line.Measured == nil { // a line written before it held its metrics
		return nil
	}
	if want := r.Measured(); !maps.Equal(line.Measured, want) {
		for name, v := range want {
			if line.Measured[name] != v {
				return fmt.Errorf("results line %s: metrics.%s is %s, its fields give %s", r.ID, name, measureText(line.Measured[name]), measureText(v))
			}
		}
		for name := range line.Measured {
			if _, ok := want[name]; !ok {
				return fmt.Errorf("results line %s: metrics.%s is no declared metric", r.ID, name)
			}
		}
	}
	return nil
}

func measureText(m episode.Measure) string {
	if !m.OK {
		return "null"
	}
	return fmt.Sprint(m.Value)
}
