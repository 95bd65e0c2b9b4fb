package trace

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
)

// decoder wraps msgpack's with bounds against the record's size.
type decoder struct {
	d *msgpack.Decoder
	r *bytes.Reader
}

// check bounds a length read from the data by what is left and by max.
func (d *decoder) check(field string, n, max int, err error) (int, error) {
	if err != nil {
		return 0, &fieldError{field, err}
	}
	if n > max || n > d.r.Len() {
		return 0, &fieldError{field, fmt.Errorf("length %d exceeds the %d bytes left or the limit %d", n, d.r.Len(), max)}
	}
	return n, nil
}

// raw reads a str or bin value of at most max bytes (nil for nil).
func (d *decoder) raw(field string, max int) ([]byte, error) {
	n, err := d.d.DecodeBytesLen()
	if n, err = d.check(field, n, max, err); err != nil || n < 0 {
		return nil, err
	}
	buf := make([]byte, n)
	if err := d.d.ReadFull(buf); err != nil {
		return nil, &fieldError{field, err}
	}
	return buf, nil
}

func (d *decoder) str(field string) (string, error) {
	b, err := d.raw(field, maxString)
	return string(b), err
}

func (d *decoder) int(field string) (int64, error) {
	v, err := d.d.DecodeInt64()
	if err != nil {
		return 0, &fieldError{field, err}
	}
	return v, nil
}

func (d *decoder) smallInt(field string, lo, hi int64) (int, error) {
	v, err := d.int(field)
	if err == nil && (v < lo || v > hi) {
		err = &fieldError{field, fmt.Errorf("%d outside %d to %d", v, lo, hi)}
	}
	return int(v), err
}

func (d *decoder) uint(field string) (uint64, error) {
	v, err := d.d.DecodeUint64()
	if err != nil {
		return 0, &fieldError{field, err}
	}
	return v, nil
}

func (d *decoder) arrayLen(field string, want int) error {
	n, err := d.d.DecodeArrayLen()
	if err != nil {
		return &fieldError{field, err}
	}
	if n != want {
		return &fieldError{field, fmt.Errorf("array of %d, want %d", n, want)}
	}
	return nil
}

// skip skips one value of an unknown key, refusing deep nesting.
func (d *decoder) skip(field string, depth int) error {
	if depth > maxDepth {
		return &fieldError{field, fmt.Errorf("nested deeper than %d", maxDepth)}
	}
	c, err := d.d.PeekCode()
	if err != nil {
		return &fieldError{field, err}
	}
	switch {
	case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
		n, err := d.d.DecodeArrayLen()
		if n, err = d.check(field, n, maxSteps, err); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := d.skip(field, depth+1); err != nil {
				return err
			}
		}
		return nil
	case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
		n, err := d.d.DecodeMapLen()
		if n, err = d.check(field, n, maxSteps, err); err != nil {
			return err
		}
		for i := 0; i < 2*n; i++ {
			if err := d.skip(field, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := d.d.Skip(); err != nil { // a scalar, string or binary
		return &fieldError{field, err}
	}
	return nil
}

// episode decodes the episode map.
func (d *decoder) episode(ep *Episode) error {
	n, err := d.d.DecodeMapLen()
	if n, err = d.check("episode", n, 1024, err); err != nil {
		return err
	}
	var raw rawEpisode
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		kb, err := d.raw("key", maxKeyLen)
		if err != nil {
			return err
		}
		k := string(kb)
		if seen[k] {
			return &fieldError{k, fmt.Errorf("given twice")}
		}
		seen[k] = true
		if err := d.field(k, ep, &raw); err != nil {
			return err
		}
	}
	if err := requireKeys(seen); err != nil {
		return err
	}
	return raw.finish(ep)
}

// rawEpisode is what the episode map holds that is checked and decoded
// once every field is read: the checkpoints' bytes, the scenario's JSON.
type rawEpisode struct {
	cps []byte
	scn string
}

// field decodes the episode's field k: the header's, or the body's.
func (d *decoder) field(k string, ep *Episode, raw *rawEpisode) error {
	if ok, err := d.headerField(k, &ep.Header); ok {
		return err
	}
	var err error
	switch k {
	case "a":
		ep.Actions, err = d.raw(k, maxSteps)
	case "o":
		ep.Outcomes, err = d.raw(k, maxSteps)
	case "a_z", "o_z":
		var z []byte
		if z, err = d.raw(k, maxSteps); err == nil {
			var col []byte
			if col, err = inflate(z); err != nil {
				err = &fieldError{k, err}
			} else if k == "a_z" {
				ep.Actions = col
			} else {
				ep.Outcomes = col
			}
		}
	case "notes":
		ep.Notes, err = d.notes()
	case "dec":
		ep.Decisions, err = d.decisions()
	case "scn":
		raw.scn, err = d.str(k)
	case "every":
		ep.CheckpointEvery, err = d.smallInt(k, 1, maxSteps)
	case "cp":
		raw.cps, err = d.raw(k, 8*(maxSteps+2))
	case "m":
		err = d.metrics(&ep.Metrics)
	default:
		if known, ok := nearKey(k); ok {
			return &fieldError{k, fmt.Errorf("unknown key one byte away from %q: a damaged record, not a later version's field", known)}
		}
		err = d.skip(k, 0) // a field of a later minor version
	}
	return err
}

// headerField decodes field k into h if it is a header's, reporting
// whether it was.
func (d *decoder) headerField(k string, h *Header) (bool, error) {
	var err error
	switch k {
	case "v":
		if h.Version, err = d.smallInt(k, 0, 1<<30); err == nil && h.Version > Version {
			return true, &fieldError{k, fmt.Errorf("%w: version %d, this reader knows %d", ErrVersion, h.Version, Version)}
		}
	case "rules":
		h.Ruleset, err = d.str(k)
	case "rv":
		h.RulesVersion, err = d.smallInt(k, 0, 1<<30)
	case "seed":
		h.Seed, err = d.uint(k)
	case "map":
		h.MapSize, err = d.smallInt(k, 0, 1<<16)
	case "task":
		h.Task, err = d.spec()
	case "goal":
		h.Goal, err = d.str(k)
	case "budget":
		h.Budget, err = d.smallInt(k, 0, maxSteps)
	case "fb":
		h.Feedback, err = d.str(k)
	case "view":
		h.View, err = d.str(k)
	case "agent":
		h.Agent, err = d.str(k)
	case "sc":
		if h.SaltCommitment, err = d.str(k); err == nil && (h.SaltCommitment == "" || !task.ValidCommitment(h.SaltCommitment)) {
			err = &fieldError{k, fmt.Errorf("%q is not a salt commitment (64 lowercase hex digits)", h.SaltCommitment)}
		}
	case "t0":
		h.StartUnixMs, err = d.int(k)
	case "build":
		err = d.build(&h.Build)
	default:
		return false, nil
	}
	return true, err
}

// finish checks the decoded episode ep as a whole (the fields that need
// another: a salt commitment or a scenario without a task, columns of
// different lengths, checkpoints that do not fit the steps) and decodes
// its scenario and checkpoints.
func (raw *rawEpisode) finish(ep *Episode) error {
	h := &ep.Header
	if h.SaltCommitment != "" && h.Task == nil {
		return &fieldError{"sc", fmt.Errorf("a salt commitment without a task")}
	}
	if raw.scn != "" {
		if h.Task == nil {
			return &fieldError{"scn", fmt.Errorf("a scenario without a task")}
		}
		var s task.Scenario
		dec := json.NewDecoder(strings.NewReader(raw.scn))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return &fieldError{"scn", err}
		}
		h.Task.Scenario = &s
	}
	if len(ep.Actions) != len(ep.Outcomes) {
		return &fieldError{"o", fmt.Errorf("%d outcomes for %d actions", len(ep.Outcomes), len(ep.Actions))}
	}
	return raw.checkpoints(ep)
}

// checkpoints decodes the initial and final hashes and the checkpoints,
// refusing a count that does not fit the steps.
func (raw *rawEpisode) checkpoints(ep *Episode) error {
	cps := raw.cps
	if len(cps) < 16 || len(cps)%8 != 0 {
		return &fieldError{"cp", fmt.Errorf("%d bytes: want the initial and final hashes and whole checkpoints", len(cps))}
	}
	if ep.CheckpointEvery == 0 {
		return &fieldError{"every", fmt.Errorf("missing")}
	}
	if want := len(ep.Actions) / ep.CheckpointEvery; (len(cps)-16)/8 != want {
		return &fieldError{"cp", fmt.Errorf("%d checkpoints for %d steps every %d, want %d", (len(cps)-16)/8, len(ep.Actions), ep.CheckpointEvery, want)}
	}
	ep.Initial = binary.LittleEndian.Uint64(cps)
	ep.Final = binary.LittleEndian.Uint64(cps[8:])
	ep.Checkpoints = make([]uint64, (len(cps)-16)/8)
	for i := range ep.Checkpoints {
		ep.Checkpoints[i] = binary.LittleEndian.Uint64(cps[16+8*i:])
	}
	return nil
}

func (d *decoder) spec() (*task.Spec, error) {
	if c, err := d.d.PeekCode(); err == nil && c == msgpcode.Nil {
		return nil, d.d.Skip()
	}
	if err := d.arrayLen("task", 7); err != nil {
		return nil, err
	}
	s := &task.Spec{}
	var err error
	var split, fb, view string
	for _, f := range []func() error{
		func() error { s.Family, err = d.str("task.family"); return err },
		func() error { s.Tier, err = d.str("task.tier"); return err },
		func() error { split, err = d.str("task.split"); return err },
		func() error { s.Index, err = d.uint("task.index"); return err },
		func() error { s.Budget, err = d.smallInt("task.budget", 0, maxSteps); return err },
		func() error { fb, err = d.str("task.feedback"); return err },
		func() error { view, err = d.str("task.observability"); return err },
	} {
		if err := f(); err != nil {
			return nil, err
		}
	}
	s.Split, s.Feedback, s.Observability = task.Split(split), task.Feedback(fb), task.Observability(view)
	return s, nil
}

func (d *decoder) decisions() ([]Decision, error) {
	n, err := d.d.DecodeArrayLen()
	if n, err = d.check("dec", n, maxSteps, err); err != nil {
		return nil, err
	}
	n = max(n, 0)
	decs := make([]Decision, 0, min(n, 1024))
	for i := 0; i < n; i++ {
		if err := d.arrayLen("dec", 3); err != nil {
			return nil, err
		}
		var dc Decision
		var err error
		for _, f := range []func() error{
			func() error { dc.Step, err = d.smallInt("dec.step", 0, maxSteps); return err },
			func() error { dc.Skill, err = d.str("dec.skill"); return err },
			func() error { dc.Result, err = d.str("dec.result"); return err },
		} {
			if err := f(); err != nil {
				return nil, err
			}
		}
		decs = append(decs, dc)
	}
	return decs, nil
}

func (d *decoder) notes() ([]Note, error) {
	n, err := d.d.DecodeArrayLen()
	if n, err = d.check("notes", n, maxNotes, err); err != nil {
		return nil, err
	}
	n = max(n, 0) // nil: no notes
	notes := make([]Note, 0, min(n, 1024))
	for i := 0; i < n; i++ {
		// Six fields before the scratchpad's, seven since.
		fields, err := d.d.DecodeArrayLen()
		if err != nil {
			return nil, &fieldError{"notes", err}
		}
		if fields != 6 && fields != 7 {
			return nil, &fieldError{"notes", fmt.Errorf("array of %d, want 6 or 7", fields)}
		}
		var nt Note
		for _, f := range []func() error{
			func() error { nt.Step, err = d.smallInt("notes.step", 0, maxSteps); return err },
			func() error { nt.Reasoning, err = d.str("notes.reasoning"); return err },
			func() error { nt.Raw, err = d.str("notes.raw"); return err },
			func() error { nt.Tokens, err = d.smallInt("notes.tokens", 0, maxNoteNumber); return err },
			func() error { nt.LatencyMs, err = d.smallInt("notes.latency_ms", 0, maxNoteNumber); return err },
			func() error { nt.Belief, err = d.str("notes.belief"); return err },
		} {
			if err := f(); err != nil {
				return nil, err
			}
		}
		if fields == 7 {
			if nt.Scratch, err = d.str("notes.scratch"); err != nil {
				return nil, err
			}
		}
		notes = append(notes, nt)
	}
	return notes, nil
}

func (d *decoder) build(b *buildinfo.Build) error {
	if err := d.arrayLen("build", 4); err != nil {
		return err
	}
	var err error
	if b.Version, err = d.str("build.version"); err != nil {
		return err
	}
	if b.Revision, err = d.str("build.revision"); err != nil {
		return err
	}
	if b.Modified, err = d.d.DecodeBool(); err != nil {
		return &fieldError{"build.modified", err}
	}
	b.Time, err = d.str("build.time")
	return err
}

func (d *decoder) metrics(m *Metrics) error {
	if err := d.arrayLen("metrics", 5); err != nil {
		return err
	}
	var err error
	if m.Success, err = d.d.DecodeBool(); err != nil {
		return &fieldError{"metrics.success", err}
	}
	if m.Died, err = d.d.DecodeBool(); err != nil {
		return &fieldError{"metrics.died", err}
	}
	if m.Steps, err = d.smallInt("metrics.steps", 0, maxSteps); err != nil {
		return err
	}
	if m.Achievements, err = d.uint("metrics.achievements"); err != nil {
		return err
	}
	m.RewardTenths, err = d.int("metrics.reward10")
	return err
}
