package protocol

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// offsetPart is one axis of a "You see" line's offset ("2 north").
var offsetPart = regexp.MustCompile(`(\d+) (north|south|east|west)`)

// TestCrafterProtocolsSeeCraftersView plays the explorer through the first
// episode of each suite and checks every observation an external player
// gets: in the crafter and balrog-crafter suites the symbolic view is
// Crafter's 9×7 local view (7 rows of 9, the player at row 3, column 4, as
// crafter/env.py's LocalView grid [9, 9 - 2] with offset grid // 2 places
// it, and BALROG's describe_env slices it), the text names nothing beyond
// 3 tiles north or south, and neither the text nor last_outcome ever says
// an achievement was unlocked; the default suite keeps Longcraft's 9×9 and
// its achievement notices.
func TestCrafterProtocolsSeeCraftersView(t *testing.T) {
	for _, c := range []struct {
		suite         string
		crafter       bool
		width, height int
	}{
		{suite: "crafter", crafter: true, width: 9, height: 7},
		{suite: "balrog-crafter", crafter: true, width: 9, height: 7},
		{suite: "default", width: 9, height: 9},
	} {
		t.Run(c.suite, func(t *testing.T) {
			s, err := suite.Load(c.suite)
			require.NoError(t, err)
			sp := s.Expand()[0]
			tk, err := task.Rebuild(sp, task.SeedFor(sp.Split, sp.Family, sp.Tier, sp.Index))
			require.NoError(t, err)
			w, err := tk.NewWorld()
			require.NoError(t, err)
			b, err := NewBuilder(tk, Options{Symbolic: true}, nil)
			require.NoError(t, err)
			p, err := policy.New("explorer")
			require.NoError(t, err)
			p.Reset(tk.Seed)
			player := int(w.Rules().SemanticID(sim.ObjPlayer))
			unlocks, notices := 0, 0
			var last *sim.Outcome
			for step := 0; step < 1500 && !w.Dead(); step++ {
				obs := b.Observe(w, last)
				if c.crafter {
					assert.Equal(t, "crafter", obs.View)
				} else {
					assert.Empty(t, obs.View)
				}
				require.Len(t, obs.Symbolic, c.height, "step %d", step)
				px, py := w.Player()
				for y, row := range obs.Symbolic {
					require.Len(t, row, c.width)
					for x, id := range row {
						assert.Equal(t, int(w.SemanticAt(px-c.width/2+x, py-c.height/2+y)), id, "step %d tile (%d, %d)", step, x, y)
					}
				}
				assert.Equal(t, player, obs.Symbolic[c.height/2][c.width/2], "the player's tile")
				if c.crafter {
					assert.Equal(t, player, obs.Symbolic[3][4], "Crafter's player position: row 3, column 4")
				}
				_, seen, _ := strings.Cut(obs.Text, "You see")
				for _, line := range strings.Split(seen, "\n")[1:] {
					for _, m := range offsetPart.FindAllStringSubmatch(line, -1) {
						n, _ := strconv.Atoi(m[1])
						half := c.width / 2
						if m[2] == "north" || m[2] == "south" {
							half = c.height / 2
						}
						assert.LessOrEqual(t, n, half, "step %d: %q lies outside the view", step, line)
					}
				}
				told := strings.Contains(obs.Text, "achievement unlocked") || strings.Contains(obs.LastOutcome, "achievement unlocked")
				if last != nil && last.Unlocked != 0 {
					unlocks++
					if told {
						notices++
					}
				} else {
					assert.False(t, told, "step %d: a notice without an unlock", step)
				}
				out := w.Step(p.Act(w, last))
				last = &out
			}
			t.Logf("%d steps, %d steps unlocked achievements, %d told so", w.StepCount(), unlocks, notices)
			require.Positive(t, unlocks, "the explorer unlocked nothing: the test checked no notice")
			if c.crafter {
				assert.Zero(t, notices, "Crafter's observation never says an achievement was unlocked")
			} else {
				assert.Equal(t, unlocks, notices)
			}
		})
	}
}
