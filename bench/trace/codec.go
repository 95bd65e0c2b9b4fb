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
	m := fieldMap{e: e, z: z, fields: make([]mapField, 0, maxEpisodeFields)}
	m.header(&ep.Header)
	if err := m.body(ep); err != nil {
		return err
	}
	m.add("every", func() error { return e.EncodeInt(int64(ep.CheckpointEvery)) })
	cp := checkpointBytes(ep)
	m.add("cp", func() error { return e.EncodeBytes(cp) })
	m.add("m", func() error { return encodeMetrics(e, &ep.Metrics) })
	return m.write()
}

// fieldMap gathers an episode's map fields before it is written, since
// msgpack puts the map's length, which the empty fields left out decide,
// before its first key.
type fieldMap struct {
	e      *msgpack.Encoder
	z      *deflater
	fields []mapField
}

// maxEpisodeFields is the number of keys encodeEpisode can write, so
// that the fields are gathered without growing their slice.
const maxEpisodeFields = 22

// mapField is one key of the episode's map and the writer of its value.
type mapField struct {
	key string
	put func() error
}

func (m *fieldMap) add(k string, f func() error) { m.fields = append(m.fields, mapField{k, f}) }

// str adds a string field, left out when empty.
func (m *fieldMap) str(k, v string) {
	if e := m.e; v != "" {
		m.add(k, func() error { return e.EncodeString(v) })
	}
}

// num adds an integer field, left out when zero.
func (m *fieldMap) num(k string, v int64) {
	if e := m.e; v != 0 {
		m.add(k, func() error { return e.EncodeInt(v) })
	}
}

// column adds a byte column, deflated under k+"_z" when that is smaller.
func (m *fieldMap) column(k string, v []byte) {
	e := m.e
	if zv, ok := m.z.deflate(v); ok {
		m.add(k+"_z", func() error { return e.EncodeBytes(zv) })
		return
	}
	m.add(k, func() error { return e.EncodeBytes(v) })
}

// header adds the format version and the header's fields.
func (m *fieldMap) header(h *Header) {
	e := m.e
	m.add("v", func() error { return e.EncodeInt(int64(Version)) })
	m.str("rules", h.Ruleset)
	m.num("rv", int64(h.RulesVersion))
	m.add("seed", func() error { return e.EncodeUint(h.Seed) })
	m.num("map", int64(h.MapSize))
	if h.Task != nil {
		m.add("task", func() error { return encodeSpec(e, h.Task) })
	}
	m.str("goal", h.Goal)
	m.num("budget", int64(h.Budget))
	m.str("fb", h.Feedback)
	m.str("view", h.View)
	m.str("agent", h.Agent)
	m.str("sc", h.SaltCommitment)
	m.num("t0", h.StartUnixMs)
	if !h.Build.IsZero() {
		m.add("build", func() error { return encodeBuild(e, &h.Build) })
	}
}

// body adds the episode's columns, notes, decisions and scenario.
func (m *fieldMap) body(ep *Episode) error {
	e := m.e
	m.column("a", ep.Actions)
	m.column("o", ep.Outcomes)
	if len(ep.Notes) > 0 {
		m.add("notes", func() error { return encodeNotes(e, ep.Notes) })
	}
	if len(ep.Decisions) > 0 {
		m.add("dec", func() error { return encodeDecisions(e, ep.Decisions) })
	}
	if t := ep.Header.Task; t != nil && t.Scenario != nil {
		// The scenario whole, as JSON: a trace rebuilds its task alone.
		b, err := json.Marshal(t.Scenario)
		if err != nil {
			return err
		}
		m.add("scn", func() error { return e.EncodeString(string(b)) })
	}
	return nil
}

// write writes the gathered fields as one map.
func (m *fieldMap) write() error {
	if err := m.e.EncodeMapLen(len(m.fields)); err != nil {
		return err
	}
	for _, f := range m.fields {
		if err := m.e.EncodeString(f.key); err != nil {
			return err
		}
		if err := f.put(); err != nil {
			return err
		}
	}
	return nil
}

// checkpointBytes is the episode's hashes as little-endian uint64s: the
// initial state's, the final state's, then the checkpoints' (denser than
// msgpack integers).
func checkpointBytes(ep *Episode) []byte {
	cp := make([]byte, 8*(len(ep.Checkpoints)+2))
	binary.LittleEndian.PutUint64(cp, ep.Initial)
	binary.LittleEndian.PutUint64(cp[8:], ep.Final)
	for i, c := range ep.Checkpoints {
		binary.LittleEndian.PutUint64(cp[16+8*i:], c)
	}
	return cp
}

// encodeMetrics writes an episode's metrics as [success, died, steps,
// achievements, reward tenths].
func encodeMetrics(e *msgpack.Encoder, m *Metrics) error {
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
