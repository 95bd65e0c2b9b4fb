package suite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
)

// TestScenarioRefusedOrNormalised: scenario suites that are ambiguous or
// wrong, each refused or normalised.
func TestScenarioRefusedOrNormalised(t *testing.T) {
	head := "name: s\nscenarios:\n"
	bad := map[string]string{
		// Two different scenarios of one name would share a results row.
		head + "  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n  - name: x\n    grid: 12\n    goal: {reach: [2, 2]}\n    budget: 50\n    seeds: {from: 5, count: 1}\n": "two different scenarios are named",
		// A hand-written params would label a scenario as something else.
		head + "  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n    params: [grid=99]\n": "unknown field",
		// Names are one word a scoped --set can name.
		head + "  - name: a:b,c=d\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n": "one word of letters",
		// Keys given twice in a mapping.
		head + "  - name: x\n    grid: 6\n    inventory: {wood: 1, wood: 5}\n    goal: {reach: [2, 2]}\n    budget: 50\n": "given twice",
		head + "  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n    seeds: {count: 2, count: 7}\n":   "given twice",
		"name: s\nname: t\n" + "scenarios:\n  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n":        "given twice",
		// A seed range past the largest index.
		head + "  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n    seeds: {from: 18446744073709551615, count: 2}\n": "passes the largest index",
		// Landmarks drawn as digits in a map.
		head + "  - name: x\n    map: |\n      @..\n      .1.\n      ...\n    goal: {reach: [2, 2]}\n    budget: 50\n": "landmarks go in its landmarks",
	}
	for yaml, want := range bad {
		_, err := Parse("s.yaml", []byte(yaml))
		require.Error(t, err, yaml)
		assert.Contains(t, err.Error(), want, yaml)
	}

	// Defaults written out are the defaults left out: one id.
	plain, err := Parse("a.yaml", []byte(head+"  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n"))
	require.NoError(t, err)
	spelled, err := Parse("b.yaml", []byte(head+"  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n    actions: primitive\n    abundance: 100\n    reward: {stage: 0.5, goal: 1.0}\n"))
	require.NoError(t, err)
	assert.Equal(t, plain.Expand()[0].ID(), spelled.Expand()[0].ID())

	// An override's label records the value as read.
	set, err := ParseSet("grid=0x8")
	require.NoError(t, err)
	s, err := LoadWith("multigoal-grid", []Set{set})
	require.NoError(t, err)
	assert.Equal(t, "grid grid=8", s.Scenarios[0].Scenario.Label())

	// A stage that holds at the start is a free win, refused at once on
	// a fixed map.
	free, err := Parse("f.yaml", []byte(head+"  - name: x\n    grid: 6\n    goal: {waypoints: [[0, 0], [5, 5]]}\n    budget: 50\n"))
	require.NoError(t, err)
	_, err = task.Generate(free.Expand()[0], nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already holds at step 0")
}

// TestScenarioMilestonesFollowTheKit: a scenario's milestones are the
// steps its starting kit still needs, amounts counted: compass-8's kit
// (an iron pickaxe, a torch, three ingots) leaves the anvil, the crystal
// and the compass; compass-64's (a wooden pickaxe) the whole chain, under
// the rule variants its seed draws (a tool variant may spare the iron
// pickaxe, so the count is not fixed).
func TestScenarioMilestonesFollowTheKit(t *testing.T) {
	s, err := Load("explorer-chain")
	require.NoError(t, err)
	specs := s.Expand()
	kit, err := task.Rebuild(specs[0], 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"place_anvil", "collect_crystal", "make_compass"}, kit.Milestones)
	bare, err := task.Rebuild(specs[20], 1)
	require.NoError(t, err)
	for _, m := range []string{"collect_wood", "place_table", "collect_stone", "make_stone_pickaxe", "place_furnace", "collect_iron", "make_iron_ingot", "place_anvil", "collect_crystal", "make_compass"} {
		assert.Contains(t, bare.Milestones, m)
	}
	assert.NotContains(t, bare.Milestones, "make_wood_pickaxe", "held at the start")
	assert.Contains(t, bare.Milestones, "make_iron_ingot")
}
