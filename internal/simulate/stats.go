package simulate

import (
	"math"
	"slices"
)

// tally counts fights as they are played.
type tally struct {
	s       *Simulator
	asked   int
	seed    uint64
	stopped string
	fights  []Fight
}

func newTally(s *Simulator, opt Options) *tally {
	return &tally{s: s, asked: opt.Runs, seed: opt.Seed}
}

func (t *tally) add(f Fight) { t.fights = append(t.fights, f) }

// result sums the fights up.
func (t *tally) result() Result {
	b := t.s.initial.Core()
	n := len(t.fights)
	r := Result{Encounter: b.Name, Ruleset: b.Ruleset, Policy: t.s.policy.Name(), Seed: t.seed,
		Runs: n, Asked: t.asked, Stopped: t.stopped, MaxRounds: t.s.maxRounds}
	var all []int
	won := map[string][]int{}
	fell := map[string]int{}
	for _, f := range t.fights {
		all = append(all, f.Rounds)
		if f.Winner == "" {
			r.Undecided++
		} else {
			won[f.Winner] = append(won[f.Winner], f.Rounds)
		}
		for _, id := range f.Fell {
			fell[id]++
		}
	}
	r.Rounds = Median(all)
	for _, side := range b.Sides {
		w := len(won[side.ID])
		low, high := Wilson(w, n)
		r.Sides = append(r.Sides, SideOdds{ID: side.ID, Name: side.Name, Wins: w, Rate: rate(w, n), Low: low, High: high,
			Rounds: Median(won[side.ID])})
	}
	players := 0
	for _, c := range b.Combatants {
		if c.PC {
			players++
		}
		r.Combatants = append(r.Combatants, Casualties{ID: c.ID, Name: c.Name, Side: c.Side, Fell: fell[c.ID], Rate: rate(fell[c.ID], n)})
	}
	r.Length = LengthOf(r.Rounds, players, len(b.Combatants)-players)
	return r
}

func rate(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// z95 is the standard normal quantile of a two-sided 95 % interval.
const z95 = 1.959963984540054

// Wilson is the 95 % Wilson score interval of a proportion: k successes in
// n trials. Unlike the textbook p ± z·√(p(1−p)/n) it stays within [0, 1]
// and is honest at 0 or n successes and for few trials ([0, 1] for none).
func Wilson(k, n int) (low, high float64) {
	if n == 0 {
		return 0, 1
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z95*z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}

// Median is the middle of xs (the mean of the two middle ones for an even
// count), 0 for none.
func Median(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return float64(s[m])
	}
	return float64(s[m-1]+s[m]) / 2
}
