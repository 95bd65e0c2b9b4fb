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
type claims map[string]*claimField

type claimField struct {
	n, right, persisted int
	truths              map[int64]int // how often each true value came, on the claimed steps
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
		mode := 0
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
