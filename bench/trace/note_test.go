package trace

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// TestNoteNumbersStayReadable: a note's token count comes from the
// model server's usage (prompt_tokens + completion_tokens, any JSON int);
// the reader accepts 0 to 2^40. fitNote cuts strings but not numbers, so a
// server answering "prompt_tokens": -1 makes the writer write a record
// Open's reader refuses: replay, merge and resume (OpenAppend's keep reads
// every episode) then fail on the whole file, and the crash scan drops
// that episode and every one after it.
func TestNoteNumbersStayReadable(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 16, Height: 16})
	require.NoError(t, err)
	w.Reset(1)
	rec := NewRecorder(10)
	rec.Begin(Header{Agent: "openai (m)"}, w)
	for range 3 {
		out := w.Step(sim.ActNoop)
		rec.Step(sim.ActNoop, &out, w)
		rec.Annotate(Note{Raw: `{"action":"noop"}`, Tokens: -1})
	}
	ep := rec.End(w, Metrics{})
	path := filepath.Join(t.TempDir(), "neg.lctrace")
	wr, err := Create(path)
	require.NoError(t, err)
	require.NoError(t, wr.Append(ep), "the writer accepts it")
	require.NoError(t, wr.Close())
	tf, err := Open(path)
	require.NoError(t, err)
	defer tf.Close()
	_, err = tf.Episode(0)
	assert.NoError(t, err, "what the writer wrote must read back")
	_, err = OpenAppend(path, func(int, *Episode) bool { return true })
	assert.NoError(t, err, "a resumed run must open the file")
}
