package skill

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/golden"
	"github.com/longcraft/longcraft/sim"
)

// skillCase is one case of testdata/skills.txt.
type skillCase struct {
	name, rules, skill, inventory, drink string
	mapText                              []string
	want                                 []string
}

func parseCases(t *testing.T, text string) (head string, cases []skillCase) {
	parts := strings.Split(text, "\n=== ")
	head = parts[0]
	for _, p := range parts[1:] {
		lines := strings.Split(strings.TrimRight(p, "\n"), "\n")
		c := skillCase{name: lines[0]}
		section := ""
		for _, l := range lines[1:] {
			switch {
			case l == "map:" || l == "want:":
				section = l
			case section == "map:":
				c.mapText = append(c.mapText, l)
			case section == "want:":
				c.want = append(c.want, l)
			default:
				k, v, ok := strings.Cut(l, ": ")
				require.True(t, ok, "case %q: line %q", c.name, l)
				switch k {
				case "rules":
					c.rules = v
				case "skill":
					c.skill = v
				case "inventory":
					c.inventory = v
				case "drink":
					c.drink = v
				default:
					t.Fatalf("case %q: unknown field %q", c.name, k)
				}
			}
		}
		cases = append(cases, c)
	}
	return head, cases
}

// play runs the case's skill to its end on its map and states the result,
// the player's place and what it holds.
func (c *skillCase) play(t *testing.T) []string {
	r, err := sim.RulesByName(c.rules)
	require.NoError(t, err)
	rows := c.mapText
	w, err := sim.New(sim.Config{Width: len(rows[0]), Height: len(rows), Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(strings.Join(rows, "\n")))
	for _, kv := range strings.Fields(c.inventory) {
		k, v, _ := strings.Cut(kv, "=")
		it, ok := r.ItemByName(k)
		require.True(t, ok, k)
		n, _ := strconv.Atoi(v)
		require.NoError(t, w.SetInventory(it, n))
	}
	if c.drink != "" {
		n, _ := strconv.Atoi(c.drink)
		require.NoError(t, w.SetInventory(sim.ItemDrink, n))
	}
	cmd, err := Parse(c.skill, r)
	require.NoError(t, err, c.name)
	var x Executor
	x.Reset(w, false)
	done, res := x.Begin(w, cmd)
	var last *sim.Outcome
	for !done {
		var a sim.Action
		if a, done, res = x.Next(w, last); done {
			break
		}
		out := w.Step(a)
		last = &out
		x.Saw(w)
	}
	px, py := w.Player()
	var held []string
	for i := range r.Items {
		if !r.Items[i].Vital && w.Inventory(sim.Item(i)) > 0 {
			held = append(held, fmt.Sprintf("%s=%d", r.Items[i].Name, w.Inventory(sim.Item(i))))
		}
	}
	holds := "nothing"
	if len(held) > 0 {
		holds = strings.Join(held, " ")
	}
	return []string{res.Text(), fmt.Sprintf("player (%d, %d); holds %s", px, py, holds)}
}

// TestSkills plays every case of testdata/skills.txt: an ASCII map, one
// skill, and the result, steps, place and inventory it must end with.
func TestSkills(t *testing.T) {
	const path = "testdata/skills.txt"
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	head, cases := parseCases(t, string(data))
	var out strings.Builder
	out.WriteString(head)
	for _, c := range cases {
		got := c.play(t)
		if !golden.Rewrite() {
			assert.Equal(t, c.want, got, "case %q", c.name)
		}
		fmt.Fprintf(&out, "\n=== %s\nrules: %s\n", c.name, c.rules)
		if c.inventory != "" {
			fmt.Fprintf(&out, "inventory: %s\n", c.inventory)
		}
		fmt.Fprintf(&out, "skill: %s\n", c.skill)
		if c.drink != "" {
			fmt.Fprintf(&out, "drink: %s\n", c.drink)
		}
		fmt.Fprintf(&out, "map:\n%s\nwant:\n%s\n", strings.Join(c.mapText, "\n"), strings.Join(got, "\n"))
	}
	if golden.Rewrite() {
		require.NoError(t, os.WriteFile(path, []byte(out.String()), 0o644))
	}
}

// TestSkillsAreDeterministic: the same world and command give the same
// steps, so a skill replays from its command.
func TestSkillsAreDeterministic(t *testing.T) {
	r := sim.Classic()
	run := func() []sim.Action {
		w, err := sim.New(sim.Config{Width: 32, Height: 32, Rules: r})
		require.NoError(t, err)
		w.Reset(7)
		var x Executor
		x.Reset(w, false)
		var acts []sim.Action
		for _, c := range []string{"explore east", "collect wood", "explore south", "goto water", "drink"} {
			cmd, err := Parse(c, r)
			require.NoError(t, err)
			done, _ := x.Begin(w, cmd)
			var last *sim.Outcome
			for !done {
				var a sim.Action
				if a, done, _ = x.Next(w, last); done {
					break
				}
				out := w.Step(a)
				last = &out
				x.Saw(w)
				acts = append(acts, a)
			}
		}
		return acts
	}
	a := run()
	require.NotEmpty(t, a)
	assert.Equal(t, a, run())
}

// TestParse covers the command forms and refuses what is not a skill.
func TestParse(t *testing.T) {
	r := sim.Extended()
	for in, want := range map[string]string{
		"collect wood": "collect wood", "mine iron": "collect iron", "Make Compass": "make compass",
		"goto 3, 4": "goto 3, 4", "goto landmark b": "goto landmark B", "explore west": "explore west", "noop": "noop",
	} {
		c, err := Parse(in, r)
		require.NoError(t, err, in)
		assert.Equal(t, want, c.String(), in)
	}
	for _, bad := range []string{"", "fly", "collect", "make table", "place compass", "explore up", "eat cow", "goto landmark Z", "attack tree"} {
		_, err := Parse(bad, r)
		assert.Error(t, err, bad)
	}
}

// TestFilter: full tells what is missing, reason only the code, none
// nothing.
func TestFilter(t *testing.T) {
	res := Result{Skill: "make compass", Reason: ReasonMissing, Missing: []string{"crystal"}}
	assert.Equal(t, []string{"crystal"}, Filter(res, "full").Missing)
	got := Filter(res, "reason")
	assert.Equal(t, ReasonMissing, got.Reason)
	assert.Empty(t, got.Missing)
	assert.Nil(t, Filter(res, "none"))
}
