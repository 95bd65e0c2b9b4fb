package main

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// TestReplayChecksEveryEpisode: replay goes on past a bad episode, names
// each (an unreadable record, metrics that the re-simulation contradicts)
// and fails; the good ones are verified. Before, it stopped at the first
// unreadable episode and never compared the recorded metrics.
func TestReplayChecksEveryEpisode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "three.lctrace")
	wr, err := trace.Create(path)
	require.NoError(t, err)
	for seed := uint64(1); seed <= 3; seed++ {
		w, err := sim.New(sim.Config{Width: 16, Height: 16})
		require.NoError(t, err)
		w.Reset(seed)
		rec := trace.NewRecorder(50)
		rec.Begin(trace.Header{Agent: "noop"}, w)
		var reward int64
		for range 50 {
			out := w.Step(sim.ActNoop)
			rec.Step(sim.ActNoop, &out, w)
			reward += out.RewardTenths()
		}
		m := trace.Metrics{Died: w.Dead(), Achievements: uint64(w.Achievements()), RewardTenths: reward}
		if seed == 3 {
			m.RewardTenths += 50 // a claimed reward the world never gave
		}
		require.NoError(t, wr.Append(rec.End(w, m)))
	}
	require.NoError(t, wr.Close())
	tf, err := trace.Open(path)
	require.NoError(t, err)
	second := tf.Index[1]
	tf.Close()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for i := int64(4); i < 12; i++ {
		data[second.Offset+i] = 0xc1 // msgpack's one unused byte
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))

	out, err := runCLI(t, "replay", path)
	require.Error(t, err, out)
	assert.Contains(t, out, "episode 0 (seed 1): 50 steps")
	assert.Contains(t, out, "episode 1: unreadable")
	assert.Contains(t, out, "episode 2 (seed 3): replay diverged at step 49: recorded metrics {died false, steps 50, achievements 0x0, reward 5.0}, the replay gives {died false, steps 50, achievements 0x0, reward 0.0}")
	assert.ErrorContains(t, err, "1 of 3 episodes unreadable, 1 diverged")
}

// TestInspectEscapesControlCharacters: a header's strings are outside
// input; inspect shows escape sequences quoted instead of sending them to
// the terminal.
func TestInspectEscapesControlCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evil.lctrace")
	wr, err := trace.Create(path)
	require.NoError(t, err)
	w, err := sim.New(sim.Config{Width: 16, Height: 16})
	require.NoError(t, err)
	w.Reset(1)
	rec := trace.NewRecorder(1)
	rec.Begin(trace.Header{Agent: "evil\x1b]0;owned\x07\x1b[2J"}, w)
	out := w.Step(sim.ActNoop)
	rec.Step(sim.ActNoop, &out, w)
	require.NoError(t, wr.Append(rec.End(w, trace.Metrics{})))
	require.NoError(t, wr.Close())
	text, err := runCLI(t, "trace", "inspect", path)
	require.NoError(t, err)
	assert.NotContains(t, text, "\x1b")
	assert.NotContains(t, text, "\x07")
	assert.Contains(t, text, `"evil\x1b]0;owned\a\x1b[2J"`)
}

func TestAllowedHosts(t *testing.T) {
	addr := func(s string) net.Addr { a, err := net.ResolveTCPAddr("tcp", s); require.NoError(t, err); return a }
	machine := func() []string { return []string{"box", "10.0.0.5", "fe80::1"} }
	assert.Equal(t, []string{"127.0.0.1", "::1", "localhost"}, allowedHosts(addr("127.0.0.1:8642"), nil, machine))
	assert.Equal(t, []string{"127.0.0.1", "::1", "box.lab", "localhost"}, allowedHosts(addr("[::1]:8642"), []string{"Box.lab"}, machine))
	assert.Equal(t, []string{"10.0.0.5"}, allowedHosts(addr("10.0.0.5:8642"), nil, machine))
	// Bound everywhere: the machine's own names, never any name (a page
	// could rebind one of its own to the machine).
	assert.Equal(t, []string{"10.0.0.5", "127.0.0.1", "::1", "box", "fe80::1", "localhost"}, allowedHosts(addr("0.0.0.0:8642"), nil, machine))
	assert.Contains(t, allowedHosts(addr(":8642"), []string{"lab.example"}, machine), "lab.example")
	assert.NotEmpty(t, machineNames())
}
