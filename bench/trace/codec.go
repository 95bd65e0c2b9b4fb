package trace

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
)

// Limits on what a decoder accepts, so that a hostile file cannot make it
// allocate much more than its own size or recurse deeply.
const (
	maxSteps  = 10_000_000 // per episode
	maxNotes  = maxSteps
	maxString = 1 << 20 // bytes in one string field
	maxDepth  = 8       // nesting of unknown values
	maxKeyLen = 64
)

// MarshalEpisode encodes an episode as one msgpack map. Columns that
// compress well are stored deflated under a "_z" key.
func MarshalEpisode(ep *Episode) ([]byte, error) {
	var buf bytes.Buffer
	e := msgpack.NewEncoder(&buf)
	if err := encodeEpisode(e, ep, new(deflater)); err != nil {
		return nil, fmt.Errorf("encode episode: %w", err)
	}
	return buf.Bytes(), nil
}

// Keys are short, for compactness: see docs/trace-format.md.
func encodeEpisode(e *msgpack.Encoder, ep *Episode, z *deflater) error {
	h := &ep.Header
	type field struct {
		key string
		put func() error
	}
	var fields []field
	add := func(k string, f func() error) { fields = append(fields, field{k, f}) }
	str := func(k, v string) {
		if v != "" {
			add(k, func() error { return e.EncodeString(v) })
		}
	}
	num := func(k string, v int64) {
		if v != 0 {
			add(k, func() error { return e.EncodeInt(v) })
		}
	}
	column := func(k string, v []byte) {
		if zv, ok := z.deflate(v); ok {
			add(k+"_z", func() error { return e.EncodeBytes(zv) })
			return
		}
		add(k, func() error { return e.EncodeBytes(v) })
	}
	add("v", func() error { return e.EncodeInt(int64(Version)) })
	str("rules", h.Ruleset)
	num("rv", int64(h.RulesVersion))
	add("seed", func() error { return e.EncodeUint(h.Seed) })
	num("map", int64(h.MapSize))
	if h.Task != nil {
		add("task", func() error { return encodeSpec(e, h.Task) })
	}
	str("goal", h.Goal)
	num("budget", int64(h.Budget))
	str("fb", h.Feedback)
	str("view", h.View)
	str("agent", h.Agent)
	str("sc", h.SaltCommitment)
	num("t0", h.StartUnixMs)
	if !h.Build.IsZero() {
		add("build", func() error { return encodeBuild(e, &h.Build) })
	}
	column("a", ep.Actions)
	column("o", ep.Outcomes)
	if len(ep.Notes) > 0 {
		add("notes", func() error { return encodeNotes(e, ep.Notes) })
	}
	if len(ep.Decisions) > 0 {
		add("dec", func() error { return encodeDecisions(e, ep.Decisions) })
	}
	if h.Task != nil && h.Task.Scenario != nil {
		// The scenario whole, as JSON: a trace rebuilds its task alone.
		b, err := json.Marshal(h.Task.Scenario)
		if err != nil {
			return err
		}
		add("scn", func() error { return e.EncodeString(string(b)) })
	}
	add("every", func() error { return e.EncodeInt(int64(ep.CheckpointEvery)) })
	// Hashes as little-endian uint64s: the initial state's, the final
	// state's, then the checkpoints' (denser than msgpack integers).
	cp := make([]byte, 8*(len(ep.Checkpoints)+2))
	binary.LittleEndian.PutUint64(cp, ep.Initial)
	binary.LittleEndian.PutUint64(cp[8:], ep.Final)
	for i, c := range ep.Checkpoints {
		binary.LittleEndian.PutUint64(cp[16+8*i:], c)
	}
	add("cp", func() error { return e.EncodeBytes(cp) })
	m := &ep.Metrics
	add("m", func() error {
		for _, f := range []func() error{
			func() error { return e.EncodeArrayLen(5) },
			func() error { return e.EncodeBool(m.Success) },
			func() error { return e.EncodeBool(m.Died) },
			func() error { return e.EncodeInt(int64(m.Steps)) },
			func() error { return e.EncodeUint(m.Achievements) },
			func() error { return e.EncodeInt(m.RewardTenths) },
		} {
			if err := f(); err != nil {
				return err
			}
		}
		return nil
	})
	if err := e.EncodeMapLen(len(fields)); err != nil {
		return err
	}
	for _, f := range fields {
		if err := e.EncodeString(f.key); err != nil {
			return err
		}
		if err := f.put(); err != nil {
			return err
		}
	}
	return nil
}

// encodeBuild writes a build as [version, revision, modified, time].
func encodeBuild(e *msgpack.Encoder, b *buildinfo.Build) error {
	for _, f := range []func() error{
		func() error { return e.EncodeArrayLen(4) },
		func() error { return e.EncodeString(b.Version) },
		func() error { return e.EncodeString(b.Revision) },
		func() error { return e.EncodeBool(b.Modified) },
		func() error { return e.EncodeString(b.Time) },
	} {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

func encodeSpec(e *msgpack.Encoder, s *task.Spec) error {
	for _, f := range []func() error{
		func() error { return e.EncodeArrayLen(7) },
		func() error { return e.EncodeString(s.Family) },
		func() error { return e.EncodeString(s.Tier) },
		func() error { return e.EncodeString(string(s.Split)) },
		func() error { return e.EncodeUint(s.Index) },
		func() error { return e.EncodeInt(int64(s.Budget)) },
		func() error { return e.EncodeString(string(s.Feedback)) },
		func() error { return e.EncodeString(string(s.Observability)) },
	} {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

func encodeDecisions(e *msgpack.Encoder, decs []Decision) error {
	if err := e.EncodeArrayLen(len(decs)); err != nil {
		return err
	}
	for _, d := range decs {
		for _, f := range []func() error{
			func() error { return e.EncodeArrayLen(3) },
			func() error { return e.EncodeInt(int64(d.Step)) },
			func() error { return e.EncodeString(d.Skill) },
			func() error { return e.EncodeString(d.Result) },
		} {
			if err := f(); err != nil {
				return err
			}
		}
	}
	return nil
}

func encodeNotes(e *msgpack.Encoder, notes []Note) error {
	if err := e.EncodeArrayLen(len(notes)); err != nil {
		return err
	}
	for _, n := range notes {
		for _, f := range []func() error{
			func() error { return e.EncodeArrayLen(7) },
			func() error { return e.EncodeInt(int64(n.Step)) },
			func() error { return e.EncodeString(n.Reasoning) },
			func() error { return e.EncodeString(n.Raw) },
			func() error { return e.EncodeInt(int64(n.Tokens)) },
			func() error { return e.EncodeInt(int64(n.LatencyMs)) },
			func() error { return e.EncodeString(n.Belief) },
			func() error { return e.EncodeString(n.Scratch) },
		} {
			if err := f(); err != nil {
				return err
			}
		}
	}
	return nil
}

// deflater compresses columns with one flate.Writer, Reset between
// columns: a new flate.Writer allocates about 1 MB of tables, which cost
// more than compressing a short episode's columns.
type deflater struct {
	zw  *flate.Writer
	buf bytes.Buffer
}

// deflate compresses a column if that saves at least a quarter of it. The
// result is a fresh slice: columns are encoded after all are compressed.
func (d *deflater) deflate(v []byte) ([]byte, bool) {
	if len(v) < 64 {
		return nil, false
	}
	d.buf.Reset()
	if d.zw == nil {
		d.zw, _ = flate.NewWriter(&d.buf, flate.BestCompression)
	} else {
		d.zw.Reset(&d.buf)
	}
	d.zw.Write(v)
	d.zw.Close()
	if d.buf.Len()*4 > len(v)*3 {
		return nil, false
	}
	return bytes.Clone(d.buf.Bytes()), true
}

// inflate decompresses a column of at most maxSteps bytes.
func inflate(z []byte) ([]byte, error) {
	zr := flate.NewReader(bytes.NewReader(z))
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, maxSteps+1))
	if err != nil {
		return nil, fmt.Errorf("inflate: %w", err)
	}
	if len(out) > maxSteps {
		return nil, fmt.Errorf("inflated column longer than %d steps", maxSteps)
	}
	return out, nil
}

// fieldError names the field a decoding error happened in.
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return fmt.Sprintf("field %s: %v", e.field, e.err) }
func (e *fieldError) Unwrap() error { return e.err }

// ErrVersion reports a trace of a later major format version.
var ErrVersion = errors.New("trace from a later format version")

// UnmarshalEpisode decodes one episode from data, accepting only what
// its limits allow; unknown keys are skipped (later minor versions).
func UnmarshalEpisode(data []byte) (*Episode, error) {
	d := decoder{r: bytes.NewReader(data)}
	d.d = msgpack.NewDecoder(d.r)
	ep := &Episode{}
	if err := d.episode(ep); err != nil {
		return nil, err
	}
	return ep, nil
}
