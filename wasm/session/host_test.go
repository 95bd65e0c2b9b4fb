package session

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

func hostStatus(t *testing.T, h *Host) HostStatus {
	t.Helper()
	var st HostStatus
	require.NoError(t, json.Unmarshal([]byte(h.Status()), &st))
	return st
}

// TestHostChoicesComeFromTheRegistries: the page's lists are the task,
// tier, agent and feedback registries', in their order.
func TestHostChoicesComeFromTheRegistries(t *testing.T) {
	c := NewHost().Choices()
	assert.Equal(t, task.Families(), c.Families)
	require.Len(t, c.Tiers, len(task.Tiers()))
	for i, tier := range task.Tiers() {
		assert.Equal(t, tier.Name, c.Tiers[i])
	}
	assert.Equal(t, []string{"full", "reason", "none"}, c.Feedback)
	assert.Contains(t, c.Agents, "planner")
	for _, name := range c.Agents {
		k, err := agent.Lookup(name)
		require.NoError(t, err)
		assert.True(t, k.Offline, "%s: the browser offers only offline agents", name)
	}
}

// TestHostPlaysWhatThePageAsks: start, keys, feedback override, pause,
// speed, ticks and seeks, as the page calls them, with the page's strings.
func TestHostPlaysWhatThePageAsks(t *testing.T) {
	h := NewHost()
	assert.Equal(t, "{}", h.Status(), "nothing on show")
	assert.False(t, h.Key("ArrowLeft"))
	assert.EqualError(t, h.Seek("3"), "nothing to seek")
	_, err := h.Recording(0)
	assert.EqualError(t, err, "nothing played yet")
	assert.False(t, h.Draw(func(*sim.World) { t.Fatal("nothing to draw") }))

	assert.ErrorContains(t, h.Start("obtain", "easy", "x", "play", "", ""), `seed index "x": not a number`)
	assert.ErrorContains(t, h.Start("obtain", "easy", "0", "fly", "", ""), `mode "fly": play or watch`)
	assert.ErrorContains(t, h.Start("obtain", "easy", "0", "play", "", "loud"), `feedback "loud" (full, reason or none)`)
	assert.ErrorContains(t, h.Start("obtain", "easy", "0", "watch", "openai", ""), "openai")

	// Play: waits for keys, ticks do nothing; a key is one step.
	require.NoError(t, h.Start("obtain", "hard", "3", "play", "", "full"))
	st := hostStatus(t, h)
	assert.Equal(t, "play", st.Mode)
	assert.True(t, st.Paused)
	drawn := 0
	require.True(t, h.Draw(func(*sim.World) { drawn++ }))
	require.True(t, h.Draw(func(*sim.World) { drawn++ }))
	assert.Equal(t, 1, drawn, "a frame is rendered once per change")
	h.Tick()
	assert.Equal(t, 0, hostStatus(t, h).Step)
	assert.True(t, h.Key("ArrowLeft"))
	assert.False(t, h.Key("F13"), "an unbound key takes no step")
	assert.Equal(t, 1, hostStatus(t, h).Step)
	h.Draw(func(*sim.World) { drawn++ })
	assert.Equal(t, 2, drawn)
	_, err = h.Recording(0)
	require.NoError(t, err)

	// The feedback override reaches the task: hard's tier level is reason.
	require.NoError(t, h.Start("obtain", "hard", "3", "play", "", ""))
	tierLevel := h.s.Task.Feedback
	require.NoError(t, h.Start("obtain", "hard", "3", "play", "", "none"))
	assert.Equal(t, task.FeedbackNone, h.s.Task.Feedback)
	assert.NotEqual(t, task.FeedbackNone, tierLevel)

	// Watch: runs by the speed's steps per tick until paused.
	require.NoError(t, h.Start("obtain", "easy", "0", "watch", "planner", ""))
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(h.Status()), &raw))
	assert.Equal(t, strconv.FormatUint(h.s.Task.Seed, 10), raw["seed"], "a 64-bit seed crosses into JavaScript as a string, not a rounded number")
	assert.False(t, hostStatus(t, h).Paused)
	assert.ErrorContains(t, h.SetSpeed("0"), "1 to 1000")
	assert.ErrorContains(t, h.SetSpeed("fast"), "1 to 1000")
	require.NoError(t, h.SetSpeed("4"))
	h.Tick()
	assert.Equal(t, 4, hostStatus(t, h).Step)
	h.Pause("true")
	h.Tick()
	assert.Equal(t, 4, hostStatus(t, h).Step, "paused")
	h.Step()
	assert.Equal(t, 5, hostStatus(t, h).Step, "one step while paused")
	h.Pause("false")
	require.NoError(t, h.SetSpeed("1000"))
	for i := 0; i < 20 && !hostStatus(t, h).Paused; i++ {
		h.Tick()
	}
	st = hostStatus(t, h)
	assert.True(t, st.Paused, "the end pauses")
	assert.NotEmpty(t, st.Ended)

	// Replay of the watched episode, seeking by the page's strings.
	data, err := h.Recording(0)
	require.NoError(t, err)
	require.NoError(t, h.LoadTrace(data, "watched", ""))
	assert.Equal(t, "replay", hostStatus(t, h).Mode)
	require.NoError(t, h.Seek("3"))
	assert.Equal(t, 3, hostStatus(t, h).Step)
	assert.ErrorContains(t, h.Seek("three"), "not a number")
	assert.ErrorContains(t, h.LoadTrace(data, "watched", "x"), `episode "x"`)
	assert.Error(t, h.LoadTrace([]byte("not a trace"), "junk", "0"))
}
