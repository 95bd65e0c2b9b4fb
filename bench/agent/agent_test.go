package agent

import (
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/task"
)

// TestRegistry: every kind is found by its usage, unknown names say what
// is known, and the capabilities are found by interface.
func TestRegistry(t *testing.T) {
	for _, k := range Kinds() {
		name := k.Usage
		got, err := Lookup(name)
		require.NoError(t, err, name)
		assert.Equal(t, k.Name, got.Name)
		assert.Contains(t, Help(), k.Usage)
	}
	_, err := Lookup("fly")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "explorer")
	_, err = Lookup("exec:")
	assert.Error(t, err, "a prefix alone names nothing")
	offline := append(policy.Names(), "planner")
	slices.Sort(offline)
	assert.Equal(t, offline, Names(func(k Kind) bool { return k.Offline }), "every built-in policy and the planner, and nothing that needs I/O")

	tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1}, nil)
	require.NoError(t, err)
	for _, name := range Names(func(k Kind) bool { return k.Offline }) {
		a, err := New(name, tk, Options{})
		require.NoError(t, err, name)
		a.Reset(1)
		w, err := tk.NewWorld()
		require.NoError(t, err)
		assert.Less(t, int(a.Act(w, nil)), len(w.Rules().Actions), name)
		_, fails := a.(Failer)
		assert.False(t, fails, "%s cannot fail", name)
	}
	_, err = New("planner", nil, Options{})
	assert.ErrorContains(t, err, "tasks only", "the planner reads the goal")
	_, err = New("random", nil, Options{})
	assert.NoError(t, err, "a policy plays plain worlds")
	_, err = New("openai", tk, Options{External: External{Model: "m", BaseURL: "http://x"}})
	assert.ErrorContains(t, err, "another process", "no Remote: no connection")
	assert.ErrorContains(t, Check("openai", Options{}), "--model")
}

// TestNoTransportsInTheRegistry: the registry (which the browser imports)
// pulls in no HTTP client, process launcher or player transport; they are
// bench/agent/remote's.
func TestNoTransportsInTheRegistry(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("no go command under js/wasm")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	for _, banned := range []string{"net/http", "os/exec", "github.com/longcraft/longcraft/bench/player"} {
		assert.NotContains(t, deps, banned)
	}
}
