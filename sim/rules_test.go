package sim

// Data-driven rule tests, in the style of etcd raft's datadriven tests.
//
// Every file testdata/rules/*.txt holds one or more cases. A case builds a
// small world from an ASCII map, applies setup lines, runs a list of
// actions, and compares the whole printed state afterwards (the step's
// outcome and reward, the inventory, the achievements, the player's
// status and the map) with the expected blocks. A new case needs only its
// inputs: write the map, setup and actions, then
//
//	go test ./sim -run TestRules -rewrite
//
// fills in (or refreshes) every expected block; review the diff. Comments
// in an expected block stay with the line they precede.
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
//	-- want after 3 --       optional, any number: the state after the 3rd
//	outcome kind=collected …   action (1-based, counting repeats)
//	-- want --               the state after the last action (generated)
//	outcome kind=collected item=wood material=tree count=1 unlocked=collect_wood
//	reward 1
//	inventory wood=1         the items not at their initial value
//	achievements collect_wood  unlocked in the episode, sorted
//	player facing=right sleeping=false dead=false done=false
//	-- want map --           the map after the last action, as World.ASCII
//	.....                    (generated)
//	.@...
//	.....
//
// The outcome line lists the fields that are not zero, in a fixed order:
//
//	kind     OutcomeKind.String()      reason   Reason.String()
//	item     item name                 material material name
//	object   object kind name          count, damage, health_delta  integers
//	defeated the hit took the creature's last health
//	missing  item names, comma-separated      nearby    material names
//	unlocked achievement names                events    woke, woke_hurt, hurt, died, time_up
//	done     the episode ended
//
// Worlds are built with chunk balancing disabled, so no creature spawns or
// despawns; cows still wander at random, so cases wall them in with stone.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/golden"
)

// ruleLine is one line of a case block with its position for messages.
type ruleLine struct {
	pos  string // file:line
	text string
}

// ruleAction is one action of the actions block.
type ruleAction struct {
	ruleLine
	action Action
}

// wantBlock is an expected block: the state after action step (0: after
// the last), or the map. first and end delimit its lines in the file,
// [first, end), so that -rewrite can replace them.
type wantBlock struct {
	step        int
	isMap       bool
	first, end  int
	lines       []string // the expected lines, comments left out
	comments    map[string][]string
	endComments []string
}

// ruleCase is one parsed case.
type ruleCase struct {
	name     string
	pos      string
	mapRows  []string
	setup    []ruleLine
	actions  []ruleLine
	wants    []*wantBlock // in file order
	headerAt int          // the file line after which a missing want block goes
}

func TestRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "rules", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no rule case files in testdata/rules")
	total := 0
	for _, file := range files {
		lines, cases := parseRuleFile(t, file)
		total += len(cases)
		printed := map[*ruleCase]*rulePrint{}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					p := runRuleCase(t, c)
					printed[c] = p
					if golden.Rewrite() {
						return
					}
					if len(c.wants) == 0 {
						t.Errorf("%s: case %q checks nothing: go test ./sim -run TestRules -rewrite writes what it does", c.pos, c.name)
					}
					for _, b := range c.wants {
						assert.Equal(t, strings.Join(b.lines, "\n"), strings.Join(p.of(b), "\n"),
							"%s:%d: case %q: %s (go test ./sim -run TestRules -rewrite regenerates it)", filepath.Base(file), b.first, c.name, b.title())
					}
				})
			}
		})
		if golden.Rewrite() && !t.Failed() {
			require.NoError(t, os.WriteFile(file, []byte(rewriteRuleFile(lines, cases, printed)), 0o644))
		}
	}
	t.Logf("%d rule cases in %d files", total, len(files))
}

func (b *wantBlock) title() string {
	switch {
	case b.isMap:
		return "the map after the last action"
	case b.step > 0:
		return fmt.Sprintf("the state after action %d", b.step)
	}
	return "the state after the last action"
}

// header is the block's first line in a case file.
func (b *wantBlock) header() string {
	switch {
	case b.isMap:
		return "-- want map --"
	case b.step > 0:
		return fmt.Sprintf("-- want after %d --", b.step)
	}
	return "-- want --"
}

// parseRuleFile splits a case file into its lines and its cases.
func parseRuleFile(t *testing.T, file string) ([]string, []*ruleCase) {
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
	var want *wantBlock  // the expected block being read
	var pending []string // comments in want, waiting for the line they precede
	block := ""
	lastLine := 0 // the line after the last non-blank one read
	endWant := func(at int) {
		if want != nil {
			// Blank lines after the block stay where they are.
			want.end = max(want.first, min(at, lastLine))
			cur.headerAt = want.end
			want.endComments = pending
			pending, want = nil, nil
		}
	}
	if single {
		cur = &ruleCase{name: strings.TrimSuffix(base, ".txt"), pos: base + ":1"}
		cases = append(cases, cur)
	}
	for i, raw := range lines {
		pos := fmt.Sprintf("%s:%d", base, i+1)
		line := strings.TrimRight(raw, " \t")
		switch {
		case strings.HasPrefix(line, "==="):
			endWant(i)
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
			endWant(i)
			require.NotNil(t, cur, "%s: block before the first case", pos)
			block = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "-- "), " --"))
			switch {
			case block == "map":
				require.Nil(t, cur.mapRows, "%s: second map block", pos)
			case block == "want" || block == "want map" || strings.HasPrefix(block, "want after "):
				want = &wantBlock{first: i + 1, isMap: block == "want map", comments: map[string][]string{}}
				if n, ok := strings.CutPrefix(block, "want after "); ok {
					want.step, err = strconv.Atoi(n)
					require.NoError(t, err, "%s: want \"-- want after N --\"", pos)
					require.Positive(t, want.step, "%s: steps count from 1", pos)
				}
				for _, b := range cur.wants {
					require.NotEqual(t, b.header(), want.header(), "%s: second %s block", pos, want.header())
				}
				cur.wants = append(cur.wants, want)
			case block == "setup" || block == "actions":
			default:
				require.Failf(t, "bad case file", "%s: unknown block %q", pos, block)
			}
			continue
		}
		isMap := block == "map" || block == "want map"
		if line != "" {
			lastLine = i + 1
		}
		if line == "" {
			if isMap && (block == "map" && len(cur.mapRows) > 0 || want != nil && len(want.lines) > 0) {
				endWant(i)
				block = "" // a map ends at its first blank line
			}
			continue
		}
		if !isMap && strings.HasPrefix(strings.TrimSpace(line), "#") {
			if want != nil {
				pending = append(pending, line)
			}
			continue
		}
		if cur == nil || block == "" {
			// File comment before the first case, or a case comment.
			require.True(t, strings.HasPrefix(line, "#"), "%s: text outside any block: %q", pos, line)
			continue
		}
		rl := ruleLine{pos: pos, text: strings.TrimSpace(line)}
		switch {
		case block == "map":
			cur.mapRows = append(cur.mapRows, line)
			cur.headerAt = i + 1
		case want != nil:
			text := rl.text
			if want.isMap {
				text = line
			} else if len(pending) > 0 {
				want.comments[wantKey(text)] = pending
				pending = nil
			}
			want.lines = append(want.lines, text)
		case block == "setup":
			cur.setup = append(cur.setup, rl)
		case block == "actions":
			cur.actions = append(cur.actions, rl)
		}
		if block == "setup" || block == "actions" {
			cur.headerAt = i + 1
		}
	}
	endWant(len(lines))
	for _, c := range cases {
		require.NotEmpty(t, c.mapRows, "%s: case %q has no map", c.pos, c.name)
		require.NotEmpty(t, c.actions, "%s: case %q has no actions", c.pos, c.name)
	}
	return lines, cases
}

// wantKey is what a comment in an expected block attaches to: the line's
// first word (outcome, reward, inventory, achievements, player).
func wantKey(line string) string {
	k, _, _ := strings.Cut(line, " ")
	return k
}

// rulePrint is what a case's run printed: the state after each step a
// "want after" block names, after the last action, and the final map.
type rulePrint struct {
	after map[int][]string
	last  []string
	grid  []string
}

// of returns the printed lines an expected block is compared with.
func (p *rulePrint) of(b *wantBlock) []string {
	switch {
	case b.isMap:
		return p.grid
	case b.step > 0:
		return p.after[b.step]
	}
	return p.last
}

// rewriteRuleFile returns the file with every expected block replaced by
// what the rules printed, comments kept before their lines, and a want and
// a want map block added to a case that lacks them.
func rewriteRuleFile(lines []string, cases []*ruleCase, printed map[*ruleCase]*rulePrint) string {
	type replacement struct {
		b *wantBlock
		p *rulePrint
	}
	replace := map[int]replacement{} // first line → block
	insert := map[int][]string{}     // before this line → new blocks
	for _, c := range cases {
		p := printed[c]
		has := map[string]bool{}
		for _, b := range c.wants {
			replace[b.first] = replacement{b, p}
			has[b.header()] = true
		}
		var add []string
		if !has["-- want --"] {
			add = append(append(add, "-- want --"), p.last...)
		}
		if !has["-- want map --"] {
			add = append(append(add, "-- want map --"), p.grid...)
		}
		if len(add) > 0 {
			insert[c.headerAt] = add
		}
	}
	var out []string
	for i := 0; i <= len(lines); {
		if add, ok := insert[i]; ok {
			out = append(out, add...)
			delete(insert, i)
		}
		if i == len(lines) {
			break
		}
		if r, ok := replace[i]; ok {
			b := r.b
			for _, l := range r.p.of(b) {
				out = append(out, b.comments[wantKey(l)]...)
				out = append(out, l)
			}
			out = append(out, b.endComments...)
			if b.end > i { // else the block was empty: lines[i] is the next header
				i = b.end
				continue
			}
		}
		out = append(out, lines[i])
		i++
	}
	return strings.Join(out, "\n")
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

// runRuleCase plays a case and prints the states its blocks expect.
func runRuleCase(t *testing.T, c *ruleCase) *rulePrint {
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
	p := &rulePrint{after: map[int][]string{}}
	for _, b := range c.wants {
		require.LessOrEqual(t, b.step, len(actions), "%s:%d: %s, but the case has %d actions", c.pos, b.first, b.header(), len(actions))
	}
	for i, a := range actions {
		out := w.Step(a.action)
		p.after[i+1] = printState(w, &out)
		p.last = p.after[i+1]
	}
	p.grid = strings.Split(strings.TrimRight(w.ASCII(), "\n"), "\n")
	return p
}

// printState prints the world after a step and the step's outcome: every
// line of a "want" block.
func printState(w *World, out *Outcome) []string {
	r := w.Rules()
	var inv []string
	for i := range r.Items {
		if n := w.Inventory(Item(i)); n != int(r.Items[i].Initial) {
			inv = append(inv, fmt.Sprintf("%s=%d", r.Items[i].Name, n))
		}
	}
	return []string{
		strings.TrimSpace("outcome " + formatOutcome(r, out)),
		"reward " + strconv.FormatFloat(out.Reward(), 'g', -1, 64),
		strings.TrimSpace("inventory " + strings.Join(inv, " ")),
		strings.TrimSpace("achievements " + strings.ReplaceAll(achievementList(r, w.Achievements()), ",", " ")),
		fmt.Sprintf("player facing=%s sleeping=%t dead=%t done=%t", w.Facing(), w.Sleeping(), w.Dead(), w.Done()),
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

// formatOutcome prints an outcome's fields that are not zero, in a fixed
// order; sets are sorted and comma-separated.
func formatOutcome(r *Rules, o *Outcome) string {
	var missing, nearby, events []string
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
	for i, n := range []string{"woke", "woke_hurt", "hurt", "died", "time_up"} {
		if o.Events&(1<<i) != 0 {
			events = append(events, n)
		}
	}
	name := func(i int, n int, names func(int) string) string {
		if i < n {
			return names(i)
		}
		return fmt.Sprintf("#%d", i)
	}
	var b strings.Builder
	field := func(key, value string, zero bool) {
		if !zero {
			fmt.Fprintf(&b, "%s=%s ", key, value)
		}
	}
	field("kind", o.Kind.String(), false)
	field("reason", o.Reason.String(), o.Reason == ReasonNone)
	field("item", name(int(o.Item), len(r.Items), func(i int) string { return r.Items[i].Name }), o.Item == 0)
	field("material", name(int(o.Material), len(r.Materials), func(i int) string { return r.Materials[i].Name }), o.Material == MatNone)
	field("object", r.KindName(o.Object), o.Object == ObjNone)
	field("count", strconv.Itoa(int(o.Count)), o.Count == 0)
	field("damage", strconv.Itoa(int(o.Damage)), o.Damage == 0)
	field("defeated", "true", !o.Defeated)
	field("health_delta", strconv.Itoa(int(o.HealthDelta)), o.HealthDelta == 0)
	field("missing", sortedList(strings.Join(missing, ",")), len(missing) == 0)
	field("nearby", sortedList(strings.Join(nearby, ",")), len(nearby) == 0)
	field("unlocked", achievementList(r, o.Unlocked), o.Unlocked == 0)
	field("events", sortedList(strings.Join(events, ",")), len(events) == 0)
	field("done", "true", !o.Done)
	return strings.TrimSpace(b.String())
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
