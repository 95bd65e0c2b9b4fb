package trace

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/longcraft/longcraft/bench/task"
)

// TestSaltCommitmentRoundTrip: a held-out episode's header keeps its
// salt commitment through the codec and names the episode by its salted
// id; it replays from its recorded seed; a header without one (a public
// episode, or a trace written before the key existed) decodes with none.
func TestSaltCommitmentRoundTrip(t *testing.T) {
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 4}
	salt := []byte("s3cret")
	c := task.SaltCommitment(salt)
	tk, err := task.GenerateSalted(spec, task.SeedFor(spec.Split, spec.Family, spec.Tier, spec.Index), salt, task.Certifiers{})
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	h := Header{Task: &spec, SaltCommitment: c, Goal: tk.Goal.String(), Budget: tk.Budget, Agent: "random"}
	ep := record(t, w, h, "random", 120, false)
	data, err := MarshalEpisode(ep)
	require.NoError(t, err)
	assert.False(t, bytes.Contains(data, salt), "the salt itself is never written")
	got, err := UnmarshalEpisode(data)
	require.NoError(t, err)
	assert.Equal(t, c, got.Header.SaltCommitment)
	assert.Equal(t, tk.ID, got.Header.EpisodeID())
	assert.NotEqual(t, spec.ID(), got.Header.EpisodeID())
	_, err = Run(got)
	require.NoError(t, err, "a held-out episode replays from its recorded seed")

	pub := *ep
	pub.Header.SaltCommitment = ""
	data, err = MarshalEpisode(&pub)
	require.NoError(t, err)
	got, err = UnmarshalEpisode(data)
	require.NoError(t, err)
	assert.Empty(t, got.Header.SaltCommitment)
	assert.Equal(t, spec.ID(), got.Header.EpisodeID(), "public ids do not move")
	assert.Empty(t, (&Header{}).EpisodeID())
}

// TestBadSaltCommitmentRefused: the decoder takes a commitment only as
// SaltCommitment writes one, and only on an episode of a task.
func TestBadSaltCommitmentRefused(t *testing.T) {
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval}
	w, h := taskWorld(t, spec)
	ep := record(t, w, h, "random", 20, false)
	ok := *ep
	_, err := UnmarshalEpisode(withKey(t, &ok, "sc", task.SaltCommitment([]byte("x"))))
	require.NoError(t, err, "a commitment spliced in the same way decodes")
	for name, tc := range map[string]struct {
		sc     string
		noTask bool
	}{
		"empty":        {sc: ""},
		"short":        {sc: "1e70425b"},
		"upper case":   {sc: "1E70425B19955F6B94FA7A33943AC4E9B4C77C61E2C8B1023EFE9C6D0B8CF140"},
		"without task": {sc: task.SaltCommitment([]byte("x")), noTask: true},
	} {
		e := *ep
		if tc.noTask {
			e.Header.Task = nil
		}
		data := withKey(t, &e, "sc", tc.sc)
		_, err := UnmarshalEpisode(data)
		assert.ErrorContains(t, err, "field sc", name)
	}
}

// withKey encodes ep with one more string key (the encoder writes "sc"
// only when it is a commitment, so a bad one is spliced in by hand).
func withKey(t *testing.T, ep *Episode, key, value string) []byte {
	data, err := MarshalEpisode(ep)
	require.NoError(t, err)
	d := msgpack.NewDecoder(bytes.NewReader(data))
	n, err := d.DecodeMapLen()
	require.NoError(t, err)
	var buf bytes.Buffer
	e := msgpack.NewEncoder(&buf)
	require.NoError(t, e.EncodeMapLen(n+1))
	require.NoError(t, e.EncodeString(key))
	require.NoError(t, e.EncodeString(value))
	rest := data[mapHeaderLen(n):]
	return append(buf.Bytes(), rest...)
}

// mapHeaderLen is the size of a msgpack map header of n entries.
func mapHeaderLen(n int) int {
	switch {
	case n < 16:
		return 1
	case n < 1<<16:
		return 3
	}
	return 5
}
