package sim

// Step against the balance and compaction it had before the fast paths
// (docs/step-speed.md), on the cases the fast paths' own tests cannot
// tell apart. Written by an independent review, which found each of these
// mutations passed every other test: the comments name them.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// balancePlain is balance before its masks and kept bits (bf6d064), verbatim: the reference.
func (w *World) balancePlain() {
	light := int64(w.Daylight())
	rules := w.rules.balance
	for r := range rules {
		br := &rules[r]
		lo := int((int64(br.MinBase) + int64(br.MinLight)*light>>16) / one)
		hi := int((int64(br.MaxBase) + int64(br.MaxLight)*light>>16) / one)
		for c := range w.chunks {
			counts := &w.chunks[c]
			if !counts.held {
				continue
			}
			space, pop := int(counts.space[r]), int(counts.pop[r])
			switch {
			case pop < lo && space >= br.MinSpace && space > 0:
				w.spawn(c, br, space)
			case pop > hi:
				w.despawn(c, br, pop)
			}
		}
	}
}

// compactPlain is compact from index 0, as before (bf6d064).
func (w *World) compactPlain() {
	if w.s.firstTombstone == 0 {
		return
	}
	w.compactFrom(0)
}

// stepRef is Step with the plain balance and compaction.
func (w *World) stepRef(a Action) Outcome {
	out := Outcome{Action: a}
	if !w.beginStep(&out) {
		return out
	}
	w.updatePlayer(a, &out)
	w.updateCreatures()
	if w.s.Step%w.rules.Creature.BalanceEvery == 0 {
		w.balancePlain()
	}
	w.compactPlain()
	w.endStep(&out)
	return out
}

// BenchmarkStepReference is BenchmarkStep with the plain balance and
// compaction: what balance's masks, kept bits and compaction from the
// first tombstone must beat.
func BenchmarkStepReference(b *testing.B) { benchSteps(b, (*World).stepRef) }

func reviewRules(base func() *Rules, edit func(*Rules)) *Rules {
	r := base().Clone()
	harmless(r)
	r.Vitals.HungerLimit, r.Vitals.ThirstLimit, r.Vitals.FatigueLimit = 1<<14, 1<<14, 1<<14
	edit(r)
	if err := r.Compile(); err != nil {
		panic(err)
	}
	return r
}

// TestBalanceAgainstPlainLoop plays Step against bf6d064's balance loop
// on the case TestBalanceOnePassSameWorlds cannot see, since there both
// sides are new code: worlds of 65-81 chunks. Catches: `<= 64` -> `<= 81`.
func TestBalanceAgainstPlainLoop(t *testing.T) {
	cases := []struct {
		name string
		r    *Rules
		w, h int
	}{
		{"distinct 64", reviewRules(Classic, func(r *Rules) {}), 64, 64},
		{"81 chunks", reviewRules(Classic, func(r *Rules) {}), 100, 100},
		{"66 chunks", reviewRules(Extended, func(r *Rules) {}), 64, 130},
	}
	for _, c := range cases {
		a, err := New(Config{Width: c.w, Height: c.h, Rules: c.r})
		require.NoError(t, err)
		b := a.Clone()
		for seed := uint64(0); seed < 2; seed++ {
			a.Reset(seed)
			b.Reset(seed)
			for i, act := range randomActions(2*DayLength, seed+3) {
				a.Step(act)
				b.stepRef(act)
				require.Equal(t, b.Hash(), a.Hash(), "%s, seed %d, step %d", c.name, seed, i+1)
			}
		}
	}
}

// checkDue is TestDueChunksKept's check.
func checkDue(t *testing.T, w *World, where string) {
	t.Helper()
	for c := range w.chunks {
		if len(w.chunks) > 64 || w.dueFresh&(1<<c) == 0 {
			continue
		}
		ch := &w.chunks[c]
		for r := range w.rules.balance {
			l := w.dueLimits[r]
			want := dueBit(int(ch.space[r]), int(ch.pop[r]), l[0], l[1], l[2]) & b2u(ch.held)
			require.Equal(t, want, w.due[r]>>c&1, "%s: chunk %d, rule %d", where, c, r)
		}
	}
}

// TestDueBitsAfterSetMaterial: scene edits between balances.
// Catches: dropping chunkChanged from setMaterial (every sim test and
// go test -short ./... pass without it).
func TestDueBitsAfterSetMaterial(t *testing.T) {
	w, err := New(Config{Rules: reviewRules(Classic, func(r *Rules) {})})
	require.NoError(t, err)
	w.Reset(1)
	for range 10 {
		w.Step(ActNoop) // a balance: every chunk fresh
	}
	for y := range w.height {
		for x := range w.width {
			if w.Material(x, y) == MatGrass {
				_ = w.SetMaterial(x, y, MatSand) // refused under plants
			}
		}
	}
	checkDue(t, w, "after SetMaterial")
}

// TestDueBitsAfterReload: the same scene loaded again after the
// player walked through a chunk. Catches: dropping `w.dueFresh = 0` from
// LoadASCII (the chunk walked through stays fresh with held set).
func TestDueBitsAfterReload(t *testing.T) {
	r := reviewRules(Classic, func(r *Rules) { r.Creatures[ObjCow].Balance.SpawnP = 0 })
	row := strings.Repeat(".", 36)
	rows := []string{}
	for y := range 12 {
		if y == 6 {
			rows = append(rows, "......@"+row[7:])
		} else {
			rows = append(rows, row)
		}
	}
	scene := strings.Join(rows, "\n")
	w, err := New(Config{Width: 36, Height: 12, Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(scene))
	right, _ := r.ActionByName("move_right")
	for range 24 { // through chunk 1 into chunk 2, balancing on the way
		w.Step(right)
	}
	checkDue(t, w, "walked")
	ref := w.Clone()
	require.NoError(t, w.LoadASCII(scene))
	require.NoError(t, ref.LoadASCII(scene))
	checkDue(t, w, "reloaded")
	for i := range 20 {
		w.Step(ActNoop)
		ref.stepRef(ActNoop)
		require.Equal(t, ref.Hash(), w.Hash(), fmt.Sprintf("step %d after reload", i+1))
	}
}

// harmless makes r's creatures deal no damage, so that long test
// episodes do not end in death.
func harmless(r *Rules) {
	for i := range r.Creatures {
		r.Creatures[i].Damage, r.Creatures[i].SleepDamage = 0, 0
	}
}
