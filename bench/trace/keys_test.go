package trace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
)

// rewriteKeys re-encodes a record's map, each key through rename ("":
// left out), its values byte for byte.
func rewriteKeys(t *testing.T, data []byte, rename func(k string) string) []byte {
	d := msgpack.NewDecoder(bytes.NewReader(data))
	n, err := d.DecodeMapLen()
	require.NoError(t, err)
	type kv struct {
		k string
		v msgpack.RawMessage
	}
	var kept []kv
	for range n {
		k, err := d.DecodeString()
		require.NoError(t, err)
		v, err := d.DecodeRaw()
		require.NoError(t, err)
		if k = rename(k); k != "" {
			kept = append(kept, kv{k, v})
		}
	}
	var b bytes.Buffer
	e := msgpack.NewEncoder(&b)
	require.NoError(t, e.EncodeMapLen(len(kept)))
	for _, x := range kept {
		require.NoError(t, e.EncodeString(x.k))
		_, err := b.Write(x.v)
		require.NoError(t, err)
	}
	return b.Bytes()
}

// taskRecord is a recorded task episode with notes, every key written.
func taskRecord(t *testing.T) []byte {
	w, h := taskWorld(t, task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1})
	h.StartUnixMs = 1
	h.Build = buildinfo.Build{Version: "v0.0.0-20261203065030-13929d2e4007+dirty", Revision: "13929d2e400751d60afad2f1f4ae1415de497f48", Modified: true, Time: "2026-12-03T06:50:30Z"}
	data, err := MarshalEpisode(record(t, w, h, "explorer", 300, true))
	require.NoError(t, err)
	return data
}

// TestRenamedKeyRefused: a flipped byte in any key of a task episode's
// record fails decoding, naming the key, instead of dropping the field
// (a renamed "task" once decoded as an episode outside any task, which
// replay then passed: 0 diverged).
func TestRenamedKeyRefused(t *testing.T) {
	data := taskRecord(t)
	ep, err := UnmarshalEpisode(data)
	require.NoError(t, err)
	require.NotNil(t, ep.Header.Task)
	var keys []string
	rewriteKeys(t, data, func(k string) string { keys = append(keys, k); return k })
	require.Contains(t, keys, "task")
	for _, key := range keys {
		for pos := range len(key) {
			for _, flip := range []byte{0x01, 0x20, 0x80} {
				renamed := []byte(key)
				renamed[pos] ^= flip
				t.Run(fmt.Sprintf("%s->%q", key, renamed), func(t *testing.T) {
					bad := rewriteKeys(t, data, func(k string) string {
						if k == key {
							return string(renamed)
						}
						return k
					})
					_, err := UnmarshalEpisode(bad)
					require.Error(t, err)
					require.ErrorContains(t, err, "field "+string(renamed))
				})
			}
		}
	}
}

// TestRenamedTaskKeyInAFile: the flipped byte in a trace file, as a
// reader meets it: the episode is unreadable, with the key named.
func TestRenamedTaskKeyInAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.lctrace")
	wr, err := Create(path)
	require.NoError(t, err)
	ep, err := UnmarshalEpisode(taskRecord(t))
	require.NoError(t, err)
	require.NoError(t, wr.Append(ep))
	require.NoError(t, wr.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	at := bytes.Index(data, []byte("\xa4task"))
	require.Positive(t, at)
	data[at+4] ^= 0x01 // "task" -> "tasj"
	require.NoError(t, os.WriteFile(path, data, 0o644))
	tf, err := Open(path)
	require.NoError(t, err) // the index is whole: the damage shows when the episode is read
	defer tf.Close()
	_, err = tf.Episode(0)
	require.ErrorContains(t, err, `field tasj: unknown key one byte away from "task"`)
}

// TestMissingKeyRefused: a record without a key every writer writes is
// damaged, not an episode of zero values.
func TestMissingKeyRefused(t *testing.T) {
	data := taskRecord(t)
	for _, req := range requiredKeys {
		t.Run(req, func(t *testing.T) {
			bad := rewriteKeys(t, data, func(k string) string {
				for _, alt := range bytes.Split([]byte(req), []byte("|")) {
					if k == string(alt) {
						return ""
					}
				}
				return k
			})
			_, err := UnmarshalEpisode(bad)
			require.ErrorContains(t, err, "field "+req+": missing")
		})
	}
}

// TestUnknownKeysStillSkipped: a later minor version's key (unlike any
// known one) is still skipped.
func TestUnknownKeysStillSkipped(t *testing.T) {
	data := taskRecord(t)
	more := rewriteKeys(t, data, func(k string) string {
		if k == "t0" {
			return "started_at" // t0's value under a new key: skipped
		}
		return k
	})
	ep, err := UnmarshalEpisode(more)
	require.NoError(t, err)
	require.Zero(t, ep.Header.StartUnixMs)
	require.NotNil(t, ep.Header.Task)
}

// TestHeaderRecordsTheBuild: the build that recorded an episode survives
// a round trip, and a header without one (traces of older versions, or
// made by hand) writes no key and reads back as none.
func TestHeaderRecordsTheBuild(t *testing.T) {
	data := taskRecord(t)
	ep, err := UnmarshalEpisode(data)
	require.NoError(t, err)
	assert.Equal(t, buildinfo.Build{Version: "v0.0.0-20261203065030-13929d2e4007+dirty", Revision: "13929d2e400751d60afad2f1f4ae1415de497f48", Modified: true, Time: "2026-12-03T06:50:30Z"}, ep.Header.Build)

	ep.Header.Build = buildinfo.Build{}
	bare, err := MarshalEpisode(ep)
	require.NoError(t, err)
	var keys []string
	rewriteKeys(t, bare, func(k string) string { keys = append(keys, k); return k })
	assert.NotContains(t, keys, "build")
	again, err := UnmarshalEpisode(bare)
	require.NoError(t, err)
	assert.True(t, again.Header.Build.IsZero())

	// A damaged build is refused, naming it.
	broken := rewriteKeys(t, data, func(k string) string { return k })
	i := bytes.Index(broken, []byte("build"))
	require.Positive(t, i)
	broken[i+len("build")] = 0x93 // an array of 3, not 4
	_, err = UnmarshalEpisode(broken)
	assert.ErrorContains(t, err, "build")
}
