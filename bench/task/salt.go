package task

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// Held-out seeds. A public lock's seeds can be learnt (the step-0
// observation identifies almost every episode, and a table of a planner's
// actions then wins it blind); a run with a secret salt plays worlds no
// one has seen: every episode's world seed is a keyed hash of its public
// seed and its spec under the salt, and its id changes with the salt's
// commitment, so that results of one salt never pass for another's. The
// commitment, never the salt, is what a run records; revealing the salt
// after the run lets anyone check the commitment and re-run it. This file
// is the one place the derivation lives (docs/tasks.md states it).

// Domain strings of the three hashes: one salt keys them all, and none of
// them can be mistaken for another.
const (
	saltCommitDomain = "longcraft-salt-v1\x00"
	saltSeedDomain   = "longcraft-salted-seed-v1\x00"
	saltIDDomain     = "longcraft-salted-episode-v1\x00"
)

// SaltCommitment is the salt's public name: the lowercase hex SHA-256 of
// "longcraft-salt-v1\x00" followed by the salt. "" for no salt (a run on
// public seeds).
func SaltCommitment(salt []byte) string {
	if len(salt) == 0 {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(saltCommitDomain))
	h.Write(salt)
	return hex.EncodeToString(h.Sum(nil))
}

// ValidCommitment says whether c is a salt commitment as SaltCommitment
// writes one (or "", no salt): 64 lowercase hex digits.
func ValidCommitment(c string) bool {
	if c == "" {
		return true
	}
	if len(c) != 2*sha256.Size {
		return false
	}
	for _, r := range c {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// SaltedSeed is the world seed an episode starts from under salt: the
// first 8 bytes of HMAC-SHA256 keyed by the salt over the domain, the
// public seed (8 bytes, big-endian) and the episode's public id, with the
// public seed's split bit kept (SplitOf stays true). base is the lock's
// seed for the episode, or SeedFor's when there is no lock. Without the
// salt it cannot be told from a random seed, so no table of public worlds
// helps.
func SaltedSeed(salt []byte, base uint64, specID string) uint64 {
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(saltSeedDomain))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], base)
	m.Write(b[:])
	m.Write([]byte(specID))
	seed := binary.BigEndian.Uint64(m.Sum(nil)[:8])
	return seed&^evalBit | base&evalBit
}

// SaltedID is the id of the episode of public id publicID under the salt
// of commitment c: derived from the commitment (not the salt), so that
// anyone holding a run's results can recompute it, and results of one
// salt are never taken for another's. With no commitment it is publicID:
// public ids, locks and goldens do not move.
func SaltedID(publicID, commitment string) string {
	if commitment == "" {
		return publicID
	}
	h := sha256.New()
	h.Write([]byte(saltIDDomain))
	h.Write([]byte(publicID))
	h.Write([]byte{0})
	h.Write([]byte(commitment))
	return "ep-" + hex.EncodeToString(h.Sum(nil)[:8])
}

// SeedAfter is the world seed tried at attempt n (1: the first) of a
// generation that starts from seed: what a task that settled after n
// attempts was played on. Checking a revealed salt uses it.
func SeedAfter(seed uint64, attempts int) uint64 {
	for range attempts - 1 {
		seed = regenerated(seed)
	}
	return seed
}

// GenerateSalted generates and certifies the task of spec under salt, as
// GenerateWith does from the salted seed of base (SaltedSeed), and names
// it with its salted id. The certificate is its own: a public lock's does
// not apply to another world.
func GenerateSalted(spec Spec, base uint64, salt []byte, certs Certifiers) (*Task, error) {
	if len(salt) == 0 {
		return nil, fmt.Errorf("task %s: an empty salt", spec.ID())
	}
	c := SaltCommitment(salt)
	t, err := generateFrom(spec, SaltedSeed(salt, base, spec.ID()), certs)
	if err != nil {
		return nil, fmt.Errorf("held-out seeds (salt commitment %.8s…): %w", c, err)
	}
	t.ID, t.SaltCommitment = SaltedID(spec.ID(), c), c
	return t, nil
}

// RebuildSalted is Rebuild for an episode played under the salt of
// commitment c on the recorded world seed: the same task, named by its
// salted id.
func RebuildSalted(spec Spec, seed uint64, commitment string) (*Task, error) {
	t, err := Rebuild(spec, seed)
	if err != nil {
		return nil, err
	}
	t.ID, t.SaltCommitment = SaltedID(spec.ID(), commitment), commitment
	return t, nil
}

// SeedsLabel says, for tables and reports, which seeds a run played:
// "public seeds (memorisable)" without a salt, "held-out seeds (salt
// commitment 1a2b3c4d…)" with one, and "mixed seeds" for results of
// several (a Summary's "mixed").
func SeedsLabel(commitment string) string {
	switch commitment {
	case "":
		return "public seeds (memorisable)"
	case "mixed":
		return "mixed seeds (public and held-out, or several salts)"
	}
	return fmt.Sprintf("held-out seeds (salt commitment %.8s…)", commitment)
}
