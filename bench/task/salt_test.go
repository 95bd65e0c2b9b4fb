package task

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// TestSaltDerivationVectors pins the three hashes of held-out seeds to
// values computed outside Go (Python's hashlib and hmac), so that anyone
// checking a revealed salt in another language gets the same seeds and
// ids as docs/tasks.md states them.
func TestSaltDerivationVectors(t *testing.T) {
	const commit = "1e70425b19955f6b94fa7a33943ac4e9b4c77c61e2c8b1023efe9c6d0b8cf140"
	assert.Equal(t, commit, SaltCommitment([]byte("x")))
	assert.Equal(t, "", SaltCommitment(nil), "no salt: public seeds")
	assert.Equal(t, uint64(12560303237466096486), SaltedSeed([]byte("x"), 0x8000000000000001, "ep-0123456789abcdef"))
	assert.Equal(t, "ep-4c13e77a5fe81938", SaltedID("ep-0123456789abcdef", commit))
}

func TestSaltedSeeds(t *testing.T) {
	specs := []Spec{
		{Family: FamilyObtain, Tier: "easy", Split: Eval, Index: 0},
		{Family: FamilyObtain, Tier: "easy", Split: Eval, Index: 1},
		{Family: FamilyWaypoints, Tier: "hard", Split: Train, Index: 7},
	}
	seen := map[uint64]bool{}
	for _, sp := range specs {
		base := SeedFor(sp.Split, sp.Family, sp.Tier, sp.Index)
		for _, salt := range []string{"a", "b", "a much longer salt of many bytes"} {
			s := SaltedSeed([]byte(salt), base, sp.ID())
			assert.Equal(t, sp.Split, SplitOf(s), "the split bit is kept")
			assert.Equal(t, s, SaltedSeed([]byte(salt), base, sp.ID()), "deterministic")
			assert.NotEqual(t, base, s)
			assert.False(t, seen[s], "a seed for each spec and salt")
			seen[s] = true
		}
	}
	// The same public seed under two spec ids (a suite may repeat a seed
	// under other conditions) gives two worlds.
	assert.NotEqual(t, SaltedSeed([]byte("a"), 42, "ep-1"), SaltedSeed([]byte("a"), 42, "ep-2"))
}

func TestSaltedIDs(t *testing.T) {
	sp := Spec{Family: FamilyCollect, Tier: "medium", Split: Eval, Index: 3}
	pub := sp.ID()
	assert.Equal(t, pub, SaltedID(pub, ""), "public ids do not move")
	a, b := SaltedID(pub, SaltCommitment([]byte("a"))), SaltedID(pub, SaltCommitment([]byte("b")))
	assert.NotEqual(t, pub, a)
	assert.NotEqual(t, a, b)
	assert.Regexp(t, regexp.MustCompile(`^ep-[0-9a-f]{16}$`), a)
}

func TestValidCommitment(t *testing.T) {
	for c, ok := range map[string]bool{
		"":                          true,
		SaltCommitment([]byte("s")): true,
		"1E70425B19955F6B94FA7A33943AC4E9B4C77C61E2C8B1023EFE9C6D0B8CF140": false, // upper case
		"1e70425b":                        false,
		SaltCommitment([]byte("s")) + "0": false,
		"zz70425b19955f6b94fa7a33943ac4e9b4c77c61e2c8b1023efe9c6d0b8cf140": false,
	} {
		assert.Equal(t, ok, ValidCommitment(c), c)
	}
}

func TestSeedAfter(t *testing.T) {
	s := uint64(0x8000_0000_dead_beef)
	assert.Equal(t, s, SeedAfter(s, 1))
	assert.Equal(t, regenerated(regenerated(s)), SeedAfter(s, 3))
}

// TestGenerateSalted checks that a salted task is the generator's from the
// salted seed: its seed is the derivation after its attempts, its id the
// salted id, its certificate its own, and it differs from the public task.
func TestGenerateSalted(t *testing.T) {
	solve := func(w *sim.World, g Goal, budget int) (bool, int) { return true, 1 } // every world certifies
	for _, sp := range []Spec{
		{Family: FamilyObtain, Tier: "easy", Split: Eval, Index: 0},
		{Family: FamilyWaypoints, Tier: "medium", Split: Eval, Index: 2},
		{Family: FamilyCollect, Tier: "easy", Split: Train, Index: 5},
	} {
		pub, err := GenerateWith(sp, Certifiers{Primitive: solve})
		require.NoError(t, err)
		salt := []byte("held out")
		got, err := GenerateSalted(sp, pub.Seed, salt, Certifiers{Primitive: solve})
		require.NoError(t, err)
		c := SaltCommitment(salt)
		assert.Equal(t, SaltedID(sp.ID(), c), got.ID)
		assert.Equal(t, c, got.SaltCommitment)
		assert.Equal(t, SeedAfter(SaltedSeed(salt, pub.Seed, sp.ID()), got.Attempts), got.Seed)
		assert.NotEqual(t, pub.Seed, got.Seed)
		assert.True(t, got.Certified)
		// Rebuilt from the recorded seed, it is the same task.
		re, err := RebuildSalted(sp, got.Seed, c)
		require.NoError(t, err)
		assert.Equal(t, got.Goal.String(), re.Goal.String())
		assert.Equal(t, got.ID, re.ID)
		assert.Equal(t, pub.ID, sp.ID(), "the public task keeps its id")
	}
	_, err := GenerateSalted(Spec{Family: FamilyObtain, Tier: "easy", Split: Eval}, 1, nil, Certifiers{})
	assert.ErrorContains(t, err, "empty salt")
}

func TestSeedsLabel(t *testing.T) {
	assert.Equal(t, "public seeds (memorisable)", SeedsLabel(""))
	assert.Equal(t, "held-out seeds (salt commitment 1e70425b…)", SeedsLabel(SaltCommitment([]byte("x"))))
	assert.Contains(t, SeedsLabel("mixed"), "mixed")
}
