package player

// claims tallies one probe's claims (beliefs or predictions) field by
// field, with two baselines judged on the very same claims, so that a
// claim anyone could make without knowing anything scores no skill
// (episode.ProbeSkill):
//
//   - persistence, "nothing changes": the field's value is what it was
//     (a belief: the truth at the previous decision; a prediction: no
//     inventory change, and the previous step's outcome kind again);
//   - base rate: the field's most frequent true value over the claimed
//     steps of the episode. It is taken in hindsight over those steps, so
//     no constant claim can beat it: it is the best constant there is.
//
// Each claimed field of a reply is one claim; a prediction's fields are
// keyed by the action played too ("outcome|move_left",
// "inventory.wood|do"), so that the base rate is the action's and a
// claim constant given the action ("a move moves") beats it no more than
// a constant does. The stronger baseline is chosen key by key.
//
// A field whose claims the player picks itself (a remembered thing: which
// tile to claim is the player's choice) has its baselines judged on each
// claim's own step instead (judge): a hindsight mode over the claimed
// tiles would learn from the player's choice of tiles.
type claims map[string]*claimField

type claimField struct {
	n, right, persisted int
	truths              map[int64]int // how often each true value came, on the claimed steps
	based               int           // judged fields: the claims the base rate got right
}

// add records one claim of field: what was claimed, what was true, and
// what persistence said.
func (c claims) add(field string, claimed, truth, persisted int64) {
	f := c[field]
	if f == nil {
		f = &claimField{truths: map[int64]int{}}
		c[field] = f
	}
	f.n++
	if claimed == truth {
		f.right++
	}
	if persisted == truth {
		f.persisted++
	}
	f.truths[truth]++
}

// judge records one claim of field whose baselines were judged on the
// claim's step: whether the claim, persistence and the base rate held.
func (c claims) judge(field string, right, persisted, based bool) {
	f := c[field]
	if f == nil {
		f = &claimField{}
		c[field] = f
	}
	f.n++
	f.right += b2i(right)
	f.persisted += b2i(persisted)
	f.based += b2i(based)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ClaimScore is a probe's tally over an episode.
type ClaimScore struct {
	Claims      int // fields claimed, over the replies scored
	Right       int // … that held
	Persistence int // … that "nothing changes" got right
	BaseRate    int // … that the field's most frequent true value got right
	Baseline    int // … that the stronger of the two got right, field by field
}

// score totals the tally.
func (c claims) score() ClaimScore {
	var s ClaimScore
	for _, f := range c {
		mode := f.based // a judged field's; else the hindsight mode
		for _, k := range f.truths {
			mode = max(mode, k)
		}
		s.Claims += f.n
		s.Right += f.right
		s.Persistence += f.persisted
		s.BaseRate += mode
		s.Baseline += max(mode, f.persisted)
	}
	return s
}

// plus adds two tallies (of disjoint fields).
func (s ClaimScore) plus(o ClaimScore) ClaimScore {
	return ClaimScore{Claims: s.Claims + o.Claims, Right: s.Right + o.Right, Persistence: s.Persistence + o.Persistence,
		BaseRate: s.BaseRate + o.BaseRate, Baseline: s.Baseline + o.Baseline}
}
