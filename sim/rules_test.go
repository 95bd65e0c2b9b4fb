package sim

// Data-driven rule tests, in the style of etcd raft's datadriven tests.
//
// Every file testdata/rules/*.txt holds one or more cases. A case builds a
// small world from an ASCII map, applies setup lines, runs a list of
// actions and checks the outcome, the inventory and the map afterwards.
//
// File format
//
//	# comment (outside map blocks, a line starting with '#' is ignored;
//	# inside a map block '#' is stone)
//	=== case name            starts a case; a file without any "===" line
//	                         is a single case named after the file; only
//	                         '#' comments may stand outside the blocks
//	-- map --                the world: the ASCII format of ascii.go, any
//	.....                    size from 3×3 up; a blank line ends a map
//	.@T..
//	.....
//	-- setup --              optional, applied in order after the map loads
//	rules extended           the ruleset (classic by default), applied first
//	facing right             SetFacing (left, right, up, down)
//	inventory wood=2 food=3  SetInventory for each item, by its rules name
//	sleeping true            SetSleeping
//	step 9999                SetStepCount
//	rng 10                   the RNG state (decimal or 0x hex): pins chance draws
//	grown 2 1 300            the growth counter of the plant at (x, y)
//	-- actions --            one action a line, by its rules name; "noop*25"
//	do                       repeats an action 25 times
//	-- want --               checks, each optionally prefixed "step N:" to
//	                         apply after the N-th action (1-based, counting
//	                         repeats); unprefixed checks apply after the last
//	outcome kind=collected reason= item=wood material=tree
//	reward 1
//	inventory wood=1         exact: unlisted items hold their initial value
//	achievements collect_wood  exact set unlocked in the episode ("achievements" alone: none)
//	done false
//	dead false
//	sleeping false
//	facing right
//	-- want map --           the map after the last action, as World.ASCII
//	.....
//	.@...
//	.....
//
// Outcome keys (only the listed keys are compared; an empty value means
// none/zero for reason and the list keys):
//
//	kind     OutcomeKind.String()      reason   Reason.String()
//	item     item name                 material material name ("none" off the map)
//	object   ObjectKind.String()       count, damage, health_delta  integers
//	defeated true when the hit took the creature's last health
//	missing  item names, comma-separated      nearby    material names
//	unlocked achievement names                events    woke, woke_hurt, hurt, died, time_up
//	done     true or false
//
// Worlds are built with chunk balancing disabled, so no creature spawns or
// despawns; cows still wander at random, so cases wall them in with stone.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleLine is one line of a case block with its position for messages.
type ruleLine struct {
	pos  string // file:line
	text string
}

// ruleCheck is one want line; step 0 means after the last action.
type ruleCheck struct {
	ruleLine
	step int
}

// ruleAction is one action of the actions block.
type ruleAction struct {
	ruleLine
	action Action
}

// ruleCase is one parsed case.
type ruleCase struct {
	name    string
	pos     string
	mapRows []string
	setup   []ruleLine
	actions []ruleLine
	want    []ruleLine
	wantMap []string
	hasMap  bool
}

func TestRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "rules", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no rule case files in testdata/rules")
	total := 0
	for _, file := range files {
		cases := parseRuleFile(t, file)
		total += len(cases)
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { runRuleCase(t, c) })
			}
		})
	}
	t.Logf("%d rule cases in %d files", total, len(files))
}

// parseRuleFile splits a case file into cases and their blocks.
func parseRuleFile(t *testing.T, file string) []*ruleCase {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	base := filepath.Base(file)
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	single := true
	for _, l := range lines {
		if strings.HasPrefix(l, "===") {
			single = false
		}
	}
	var cases []*ruleCase
	var cur *ruleCase
	block := ""
	if single {
		cur = &ruleCase{name: strings.TrimSuffix(base, ".txt"), pos: base + ":1"}
		cases = append(cases, cur)
	}
	for i, raw := range lines {
		pos := fmt.Sprintf("%s:%d", base, i+1)
		line := strings.TrimRight(raw, " \t")
		switch {
		case strings.HasPrefix(line, "==="):
			name := strings.TrimSpace(strings.TrimPrefix(line, "==="))
			require.NotEmpty(t, name, "%s: case without a name", pos)
			for _, c := range cases {
				require.NotEqual(t, c.name, name, "%s: case name repeated (first at %s)", pos, c.pos)
			}
			cur = &ruleCase{name: name, pos: pos}
			cases = append(cases, cur)
			block = ""
			continue
		case strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --"):
			require.NotNil(t, cur, "%s: block before the first case", pos)
			block = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "-- "), " --"))
			switch block {
			case "map":
				require.Nil(t, cur.mapRows, "%s: second map block", pos)
			case "want map":
				require.False(t, cur.hasMap, "%s: second want map block", pos)
				cur.hasMap = true
			case "setup", "actions", "want":
			default:
				require.Failf(t, "bad case file", "%s: unknown block %q", pos, block)
			}
			continue
		}
		isMap := block == "map" || block == "want map"
		if line == "" {
			if isMap && (len(cur.mapRows) > 0 && block == "map" || len(cur.wantMap) > 0 && block == "want map") {
				block = "" // a map ends at its first blank line
			}
			continue
		}
		if !isMap && strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if cur == nil || block == "" {
			// File comment before the first case, or a case comment.
			require.True(t, strings.HasPrefix(line, "#"), "%s: text outside any block: %q", pos, line)
			continue
		}
		rl := ruleLine{pos: pos, text: strings.TrimSpace(line)}
		switch block {
		case "map":
			cur.mapRows = append(cur.mapRows, line)
		case "want map":
			cur.wantMap = append(cur.wantMap, line)
		case "setup":
			cur.setup = append(cur.setup, rl)
		case "actions":
			cur.actions = append(cur.actions, rl)
		case "want":
			cur.want = append(cur.want, rl)
		}
	}
	for _, c := range cases {
		require.NotEmpty(t, c.mapRows, "%s: case %q has no map", c.pos, c.name)
		require.NotEmpty(t, c.actions, "%s: case %q has no actions", c.pos, c.name)
		require.True(t, len(c.want) > 0 || c.hasMap, "%s: case %q checks nothing", c.pos, c.name)
	}
	return cases
}

// newRuleWorld builds the world of a case: classic rules without chunk
// balancing, the map loaded over a reset world (see sceneWorld).
func newRuleWorld(t *testing.T, c *ruleCase) *World {
	t.Helper()
	t.Logf("%s: case %q", c.pos, c.name)
	rules := Classic()
	for _, l := range c.setup {
		if name, ok := strings.CutPrefix(l.text, "rules "); ok {
			switch strings.TrimSpace(name) {
			case ClassicName:
			case ExtendedName:
				rules = Extended()
			default:
				require.Fail(t, "unknown ruleset", "%s: %q", l.pos, name)
			}
		}
	}
	return sceneWorldWith(t, strings.Join(c.mapRows, "\n"), rules)
}

func runRuleCase(t *testing.T, c *ruleCase) {
	w := newRuleWorld(t, c)
	r := w.Rules()
	for _, l := range c.setup {
		applyRuleSetup(t, w, l)
	}

	var actions []ruleAction
	for _, l := range c.actions {
		name, n := l.text, 1
		if a, b, ok := strings.Cut(l.text, "*"); ok {
			var err error
			name = strings.TrimSpace(a)
			n, err = strconv.Atoi(strings.TrimSpace(b))
			require.NoError(t, err, "%s: bad repeat count", l.pos)
			require.Positive(t, n, "%s: bad repeat count", l.pos)
		}
		a, ok := r.ActionByName(name)
		require.True(t, ok, "%s: unknown action %q", l.pos, name)
		for range n {
			actions = append(actions, ruleAction{l, a})
		}
	}

	checks := map[int][]ruleCheck{}
	for _, l := range c.want {
		ck := ruleCheck{ruleLine: l, step: len(actions)}
		if rest, ok := strings.CutPrefix(l.text, "step "); ok {
			num, body, found := strings.Cut(rest, ":")
			require.True(t, found, "%s: want \"step N: check\"", l.pos)
			n, err := strconv.Atoi(strings.TrimSpace(num))
			require.NoError(t, err, "%s: bad step number", l.pos)
			require.True(t, n >= 1 && n <= len(actions), "%s: step %d outside 1 to %d", l.pos, n, len(actions))
			ck.step, ck.text = n, strings.TrimSpace(body)
		}
		checks[ck.step] = append(checks[ck.step], ck)
	}

	for i, a := range actions {
		out := w.Step(a.action)
		step := i + 1
		for _, ck := range checks[step] {
			applyRuleCheck(t, w, &out, step, ck)
		}
	}

	if c.hasMap {
		got := strings.TrimRight(w.ASCII(), "\n")
		want := strings.Join(c.wantMap, "\n")
		assert.Equal(t, want, got, "%s: case %q: map after %d actions", c.pos, c.name, len(actions))
	}
}

// applyRuleSetup applies one setup line.
func applyRuleSetup(t *testing.T, w *World, l ruleLine) {
	t.Helper()
	r := w.Rules()
	cmd, args := splitRuleLine(l.text)
	switch cmd {
	case "rules": // applied when the world is built
	case "facing":
		require.Len(t, args, 1, "%s: facing DIR", l.pos)
		require.NoError(t, w.SetFacing(parseRuleDir(t, l.pos, args[0])), l.pos)
	case "inventory":
		for _, kv := range args {
			name, n := parseRuleCount(t, l.pos, kv)
			it, ok := r.ItemByName(name)
			require.True(t, ok, "%s: unknown item %q", l.pos, name)
			require.NoError(t, w.SetInventory(it, n), l.pos)
		}
	case "sleeping":
		require.Len(t, args, 1, "%s: sleeping BOOL", l.pos)
		w.SetSleeping(parseRuleBool(t, l.pos, args[0]))
	case "step":
		require.Len(t, args, 1, "%s: step N", l.pos)
		n, err := strconv.Atoi(args[0])
		require.NoError(t, err, l.pos)
		require.NoError(t, w.SetStepCount(n), l.pos)
	case "rng":
		require.Len(t, args, 1, "%s: rng STATE", l.pos)
		v, err := strconv.ParseUint(args[0], 0, 64)
		require.NoError(t, err, l.pos)
		w.s.RNG = RNG{State: v}
	case "grown":
		require.Len(t, args, 3, "%s: grown X Y N", l.pos)
		var v [3]int
		for i, a := range args {
			n, err := strconv.Atoi(a)
			require.NoError(t, err, l.pos)
			v[i] = n
		}
		j := w.objectIndex(v[0], v[1])
		require.True(t, j >= 0 && w.objects[j].Kind == ObjPlant, "%s: no plant at (%d, %d)", l.pos, v[0], v[1])
		w.objects[j].Grown = int16(v[2])
	default:
		require.Failf(t, "bad setup line", "%s: unknown setup %q", l.pos, cmd)
	}
}

// applyRuleCheck compares the world and the outcome of the step with one
// want line.
func applyRuleCheck(t *testing.T, w *World, out *Outcome, step int, ck ruleCheck) {
	t.Helper()
	r := w.Rules()
	at := fmt.Sprintf("%s (after action %d)", ck.pos, step)
	cmd, args := splitRuleLine(ck.text)
	switch cmd {
	case "outcome":
		got := outcomeFields(r, out)
		for _, kv := range args {
			key, want, ok := strings.Cut(kv, "=")
			require.True(t, ok, "%s: want key=value, got %q", ck.pos, kv)
			g, known := got[key]
			require.True(t, known, "%s: unknown outcome key %q", ck.pos, key)
			if listKeys[key] {
				want = sortedList(want)
			}
			assert.Equal(t, want, g, "%s: outcome %s (outcome %s)", at, key, formatOutcome(got))
		}
	case "reward":
		require.Len(t, args, 1, "%s: reward X", ck.pos)
		want, err := strconv.ParseFloat(args[0], 64)
		require.NoError(t, err, ck.pos)
		assert.InDelta(t, want, out.Reward(), 1e-9, "%s: reward (outcome %s)", at, formatOutcome(outcomeFields(r, out)))
		assert.Equal(t, int64(math.Round(want*10)), out.RewardTenths(), "%s: reward in tenths", at)
	case "inventory":
		want := map[string]int{}
		for i := range r.Items {
			want[r.Items[i].Name] = int(r.Items[i].Initial)
		}
		for _, kv := range args {
			name, n := parseRuleCount(t, ck.pos, kv)
			_, ok := r.ItemByName(name)
			require.True(t, ok, "%s: unknown item %q", ck.pos, name)
			want[name] = n
		}
		assert.Equal(t, formatInventory(r, func(it Item) int { return want[r.Items[it].Name] }),
			formatInventory(r, w.Inventory), "%s: inventory (items not listed hold their initial value)", at)
	case "achievements":
		for _, a := range args {
			_, ok := r.Achievement(a)
			require.True(t, ok, "%s: unknown achievement %q", ck.pos, a)
		}
		assert.Equal(t, sortedList(strings.Join(args, ",")), achievementList(r, w.Achievements()), "%s: achievements", at)
	case "done", "dead", "sleeping":
		require.Len(t, args, 1, "%s: %s BOOL", ck.pos, cmd)
		want := parseRuleBool(t, ck.pos, args[0])
		got := map[string]bool{"done": w.Done(), "dead": w.Dead(), "sleeping": w.Sleeping()}[cmd]
		assert.Equal(t, want, got, "%s: %s", at, cmd)
	case "facing":
		require.Len(t, args, 1, "%s: facing DIR", ck.pos)
		assert.Equal(t, parseRuleDir(t, ck.pos, args[0]).String(), w.Facing().String(), "%s: facing", at)
	default:
		require.Failf(t, "bad want line", "%s: unknown check %q", ck.pos, cmd)
	}
}

// listKeys are the outcome keys whose values are comma-separated sets.
var listKeys = map[string]bool{"missing": true, "nearby": true, "unlocked": true, "events": true}

// outcomeFields renders every outcome field as text, keyed as in the case
// files; sets are sorted and comma-separated.
func outcomeFields(r *Rules, o *Outcome) map[string]string {
	name := func(i int, names func(int) string, n int) string {
		if i < n {
			return names(i)
		}
		return fmt.Sprintf("#%d", i)
	}
	itemName := func(i int) string { return r.Items[i].Name }
	matName := func(i int) string { return r.Materials[i].Name }
	var missing, nearby []string
	for i := range r.Items {
		if o.Missing.Has(Item(i)) {
			missing = append(missing, r.Items[i].Name)
		}
	}
	for i := range r.Materials {
		if o.MissingNearby.Has(Material(i)) {
			nearby = append(nearby, r.Materials[i].Name)
		}
	}
	var events []string
	for i, n := range []string{"woke", "woke_hurt", "hurt", "died", "time_up"} {
		if o.Events&(1<<i) != 0 {
			events = append(events, n)
		}
	}
	return map[string]string{
		"kind":         o.Kind.String(),
		"reason":       o.Reason.String(),
		"item":         name(int(o.Item), itemName, len(r.Items)),
		"material":     name(int(o.Material), matName, len(r.Materials)),
		"object":       o.Object.String(),
		"count":        strconv.Itoa(int(o.Count)),
		"damage":       strconv.Itoa(int(o.Damage)),
		"defeated":     strconv.FormatBool(o.Defeated),
		"health_delta": strconv.Itoa(int(o.HealthDelta)),
		"done":         strconv.FormatBool(o.Done),
		"missing":      sortedList(strings.Join(missing, ",")),
		"nearby":       sortedList(strings.Join(nearby, ",")),
		"unlocked":     achievementList(r, o.Unlocked),
		"events":       sortedList(strings.Join(events, ",")),
	}
}

// formatOutcome renders outcome fields in a stable order for messages.
func formatOutcome(f map[string]string) string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s ", k, f[k])
	}
	return strings.TrimSpace(b.String())
}

// formatInventory renders every item count, in item order.
func formatInventory(r *Rules, count func(Item) int) string {
	parts := make([]string, len(r.Items))
	for i := range r.Items {
		parts[i] = fmt.Sprintf("%s=%d", r.Items[i].Name, count(Item(i)))
	}
	return strings.Join(parts, " ")
}

// achievementList returns the names of a set, sorted and comma-separated.
func achievementList(r *Rules, s AchievementSet) string {
	var names []string
	for i, n := range r.Achievements {
		if s.Has(Achievement(i)) {
			names = append(names, n)
		}
	}
	return sortedList(strings.Join(names, ","))
}

// sortedList sorts a comma-separated list.
func sortedList(s string) string {
	if s == "" {
		return ""
	}
	parts := strings.Split(s, ",")
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// splitRuleLine splits a line into its command and arguments.
func splitRuleLine(s string) (string, []string) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return "", nil
	}
	return f[0], f[1:]
}

func parseRuleCount(t *testing.T, pos, kv string) (string, int) {
	t.Helper()
	name, v, ok := strings.Cut(kv, "=")
	require.True(t, ok, "%s: want name=count, got %q", pos, kv)
	n, err := strconv.Atoi(v)
	require.NoError(t, err, "%s: bad count in %q", pos, kv)
	return name, n
}

func parseRuleBool(t *testing.T, pos, s string) bool {
	t.Helper()
	b, err := strconv.ParseBool(s)
	require.NoError(t, err, "%s: want true or false", pos)
	return b
}

func parseRuleDir(t *testing.T, pos, s string) Dir {
	t.Helper()
	for d := DirLeft; d <= DirDown; d++ {
		if d.String() == s {
			return d
		}
	}
	require.Failf(t, "bad direction", "%s: unknown direction %q", pos, s)
	return DirNone
}
