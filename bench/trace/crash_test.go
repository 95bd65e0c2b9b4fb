package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/longcraft/longcraft/sim"
)

// sixEpisodes writes a trace of six short random episodes and returns its
// bytes and the file offset where each record ends.
func sixEpisodes(t *testing.T) ([]byte, []int64) { return episodes(t, 6) }

// episodes writes a trace of n short random episodes and returns its bytes
// and the file offset where each record ends.
func episodes(t *testing.T, n int) ([]byte, []int64) {
	t.Helper()
	var buf bytes.Buffer
	wr, err := NewWriter("six", &buf)
	require.NoError(t, err)
	var ends []int64
	for seed := uint64(0); seed < uint64(n); seed++ {
		w, err := sim.New(sim.Config{Width: 16, Height: 16})
		require.NoError(t, err)
		w.Reset(seed)
		require.NoError(t, wr.Append(record(t, w, Header{Agent: "random"}, "random", 20+int(seed)*7, seed%2 == 0)))
		ends = append(ends, wr.off)
	}
	require.NoError(t, wr.Close())
	return buf.Bytes(), ends
}

// TestCutAnywhereKeepsTheWholeEpisodes: a trace cut at any byte (a crash
// while it was written, the index and footer included) opens and yields
// exactly the episodes whose records are whole before the cut: never an
// error, a duplicate or a bogus episode. The first scan read a cut index
// as records: 213 of 307 cut points failed, and a partly valid index
// turned 36 episodes into 42.
func TestCutAnywhereKeepsTheWholeEpisodes(t *testing.T) {
	data, ends := episodes(t, 36)
	full, err := OpenReader("full", bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	require.True(t, full.Indexed)
	var want [][]byte
	for i := range full.Index {
		ep, err := full.Episode(i)
		require.NoError(t, err)
		b, err := MarshalEpisode(ep)
		require.NoError(t, err)
		want = append(want, b)
	}
	// Every byte of the end marker, index and footer, a few around each
	// record's end, and a sample inside the records.
	cuts := map[int]bool{}
	for cut := int(ends[len(ends)-1]) - 8; cut < len(data); cut++ {
		cuts[cut] = true
	}
	for _, e := range ends {
		for d := -1; d <= 1; d++ {
			cuts[int(e)+d] = true
		}
	}
	for cut := len(fileMagic); cut < len(data); cut += 211 {
		cuts[cut] = true
	}
	failed := 0
	for cut := range cuts {
		if cut < len(fileMagic) || cut >= len(data) {
			continue
		}
		tf, err := OpenReader("cut", bytes.NewReader(data[:cut]), int64(cut))
		whole := 0
		for _, e := range ends {
			if e <= int64(cut) {
				whole++
			}
		}
		if whole == 0 && cut > len(fileMagic) {
			assert.Error(t, err, "cut at %d: no whole record", cut)
			continue
		}
		if !assert.NoError(t, err, "cut at %d", cut) {
			failed++
			continue
		}
		if !assert.Len(t, tf.Index, whole, "cut at %d of %d", cut, len(data)) {
			failed++
			continue
		}
		for i := range tf.Index {
			require.Equal(t, full.Index[i].Offset, tf.Index[i].Offset, "cut at %d, episode %d", cut, i)
			require.Equal(t, full.Index[i].Length, tf.Index[i].Length, "cut at %d, episode %d", cut, i)
		}
		if whole > 0 { // the last whole one reads back as written
			ep, err := tf.Episode(whole - 1)
			require.NoError(t, err, "cut at %d", cut)
			b, err := MarshalEpisode(ep)
			require.NoError(t, err)
			require.Equal(t, want[whole-1], b, "cut at %d", cut)
		}
	}
	assert.Zero(t, failed, "cut points that lost or invented episodes")
}

// TestIndexIsOneMsgpackValue: the index is one msgpack array of
// [offset, length, steps] arrays, as docs/trace-format.md says, so any
// msgpack library reads it.
func TestIndexIsOneMsgpackValue(t *testing.T) {
	data, ends := sixEpisodes(t)
	off := int64(0)
	for i := 0; i < 8; i++ {
		off |= int64(data[len(data)-footerLen+i]) << (8 * i)
	}
	require.Equal(t, byte(0), data[off-1], "the end marker precedes the index")
	require.Equal(t, ends[len(ends)-1]+1, off)
	var idx [][3]int64
	d := msgpack.NewDecoder(bytes.NewReader(data[off : len(data)-footerLen]))
	require.NoError(t, d.Decode(&idx))
	require.Len(t, idx, 6)
	prev := int64(len(fileMagic))
	for i, e := range idx {
		assert.Equal(t, prev, e[0], "entry %d's offset", i)
		prev = ends[i]
	}
	_, err := d.DecodeInterface()
	assert.Error(t, err, "nothing follows the index before the footer")
}

// TestWriterKeepsToTheReaderLimits: whatever an agent writes in its
// notes, the trace stays readable: strings over the reader's 1 MiB limit
// are cut with a marker, and past the episode's note budget notes are left
// out with one note saying so. Before, a 900 KiB reply a step made a
// 413 MB trace that Open refused.
func TestWriterKeepsToTheReaderLimits(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 16, Height: 16})
	require.NoError(t, err)
	w.Reset(3)
	huge := strings.Repeat("é", maxString) // 2 MiB of two-byte runes
	verbose := strings.Repeat("x", 900<<10)
	rec := NewRecorder(100)
	rec.Begin(Header{Agent: "verbose", Goal: huge}, w)
	for i := range 100 {
		out := w.Step(sim.ActNoop)
		rec.Step(sim.ActNoop, &out, w)
		n := Note{Raw: verbose, Reasoning: verbose}
		if i == 0 {
			n.Reasoning = huge
		}
		rec.Annotate(n)
	}
	ep := rec.End(w, Metrics{})
	kept := 0
	for i := range ep.Notes {
		kept += noteSize(&ep.Notes[i])
	}
	assert.LessOrEqual(t, kept, maxNoteBytes+1024, "the recorder holds at most the note budget")
	last := ep.Notes[len(ep.Notes)-1]
	assert.Contains(t, last.Reasoning, "notes (", "the left-out notes are said")
	assert.Contains(t, ep.Notes[0].Reasoning, "…[cut: ")
	assert.LessOrEqual(t, len(ep.Notes[0].Reasoning), maxString)

	path := filepath.Join(t.TempDir(), "verbose.lctrace")
	wr, err := Create(path)
	require.NoError(t, err)
	require.NoError(t, wr.Append(ep))
	// An episode built by hand, not through a recorder, is fitted at Append.
	byHand := *ep
	byHand.Notes = nil
	for i := range 100 {
		byHand.Notes = append(byHand.Notes, Note{Step: i, Raw: huge, Belief: huge})
	}
	require.NoError(t, wr.Append(&byHand))
	require.NoError(t, wr.Close())
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Less(t, st.Size(), int64(2*maxRecord))
	tf, err := Open(path)
	require.NoError(t, err)
	defer tf.Close()
	require.Len(t, tf.Index, 2)
	for i := range tf.Index {
		got, err := tf.Episode(i)
		require.NoError(t, err, "episode %d reads back", i)
		assert.True(t, strings.HasSuffix(got.Header.Goal, "byte limit]"))
		assert.Contains(t, got.Notes[len(got.Notes)-1].Reasoning, "left out")
	}
}

// TestOpenAppendKeeps: a resumed run keeps the episodes it asks for and
// drops the others, wherever they are in the file.
func TestOpenAppendKeeps(t *testing.T) {
	data, _ := sixEpisodes(t)
	path := filepath.Join(t.TempDir(), "run.lctrace")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	wr, err := OpenAppend(path, func(i int, ep *Episode) bool { return i != 1 && i != 4 })
	require.NoError(t, err)
	w, err := sim.New(sim.Config{Width: 16, Height: 16})
	require.NoError(t, err)
	w.Reset(77)
	require.NoError(t, wr.Append(record(t, w, Header{Agent: "random"}, "random", 30, false)))
	require.NoError(t, wr.Close())
	tf, err := Open(path)
	require.NoError(t, err)
	defer tf.Close()
	require.True(t, tf.Indexed)
	var seeds []uint64
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		require.NoError(t, err)
		seeds = append(seeds, ep.Header.Seed)
	}
	assert.Equal(t, []uint64{0, 2, 3, 5, 77}, seeds)
	assert.NoFileExists(t, path+".tmp")
}

// TestOpenAppendTornFirstRecord: a file holding the magic and part
// of its first record (a crash during the first Append) is what a crash
// leaves; OpenAppend must start over rather than refuse the run.
func TestOpenAppendTornFirstRecord(t *testing.T) {
	data, ends := sixEpisodes(t)
	path := filepath.Join(t.TempDir(), "torn.lctrace")
	cut := (int64(len(fileMagic)) + ends[0]) / 2
	require.NoError(t, os.WriteFile(path, data[:cut], 0o644))
	wr, err := OpenAppend(path, nil)
	if assert.NoError(t, err) {
		assert.NoError(t, wr.Close())
	}
}
