package d6bands

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Rounds and turns (spec b, reconstructed). A round is about ten seconds.
// At its start every wound bleeds, every Defense Pool refills, and each
// combatant still standing rolls initiative — 1d6 plus its Initiative
// (initiative: every round, or once) — and acts in that order, highest
// first (ties: the higher Initiative, then the order of the setup). On its
// turn a combatant has actions-per-round actions (3) to spend on moves,
// shots, strikes, reloading and the rest, less any a Terror check took.
// The turn ends with end-turn, or by itself once no action is left. A
// combatant who is down (unconscious) takes no turns; when one side alone
// is left standing, the encounter ends.

// Event kinds of the turn cycle.
const (
	KindInitiative = "initiative"
	KindTurnEnded  = "turn-ended"
)

// Initiative is the data of an initiative event: each combatant's total.
type Initiative struct {
	Totals map[string]int `json:"totals"`
}

// TurnEnded is the data of a turn-ended event.
type TurnEnded = kit.TurnEnded

// newRound bleeds the wounded, rolls initiative and starts the round's
// first turn.
func newRound(tx *Tx) error {
	st := tx.State
	if st.Round > 0 {
		if err := bleedAll(tx); err != nil {
			return err
		}
		if ended, err := tx.LastStanding(); ended || err != nil {
			return err
		}
	}
	var ids []string
	for _, c := range st.Combatants {
		if c.Fighting() {
			ids = append(ids, c.ID)
		}
	}
	if st.Round == 0 || kit.Opt(&st.Base, OptInitiative) == InitEachRound {
		if err := rollInitiative(tx, ids); err != nil {
			return err
		}
	}
	order := slices.Clone(ids)
	index := func(id string) int {
		return slices.IndexFunc(st.Combatants, func(c engine.Combatant) bool { return c.ID == id })
	}
	slices.SortStableFunc(order, func(a, b string) int {
		fa, fb := st.Fighters[a], st.Fighters[b]
		return cmp.Or(cmp.Compare(fb.Init, fa.Init), cmp.Compare(fb.Initiative, fa.Initiative), cmp.Compare(index(a), index(b)))
	})
	if err := tx.StartRound(st.Round+1, order, ""); err != nil {
		return err
	}
	return advance(tx)
}

// rollInitiative rolls 1d6 + Initiative for each of ids. A combatant the
// GM keeps hidden rolls in an event of its own, which players never see.
func rollInitiative(tx *Tx, ids []string) error {
	st := tx.State
	public := Initiative{Totals: map[string]int{}}
	var rolls []dice.Roll
	type secret struct {
		id   string
		roll dice.Roll
	}
	var secrets []secret
	for _, id := range ids {
		f := st.Fighters[id]
		d := tx.Dice.Die(6)
		total := d.Faces[0] + f.Initiative
		r := dice.Roll{Label: "Initiative", Who: id, Dice: []dice.Die{d}, Mod: f.Initiative,
			Mods: []dice.Mod{{Label: "Initiative", Value: f.Initiative}}, Total: total}
		if st.hidden(id) {
			secrets = append(secrets, secret{id, r})
			continue
		}
		public.Totals[id] = total
		rolls = append(rolls, r)
	}
	if len(rolls) > 0 {
		if err := tx.Emits(KindInitiative, "", "Initiative is rolled.", public, rolls...); err != nil {
			return err
		}
	}
	for _, s := range secrets {
		text := fmt.Sprintf("%s rolls initiative: %d.", st.NameOf(s.id), s.roll.Total)
		if err := tx.Emits(KindInitiative, s.id, text, Initiative{Totals: map[string]int{s.id: s.roll.Total}}, s.roll); err != nil {
			return err
		}
	}
	return nil
}

// down reports whether id is down: the down take no turns.
func (s *State) down(id string) bool { return !s.standing(id) }

// advance starts the next turn, skipping anyone left with no actions
// (a panic from Terror), or a new round after the last.
func advance(tx *Tx) error {
	st := tx.State
	for range 64 {
		if st.Status != engine.StatusRunning {
			return nil
		}
		i := engine.NextTurn(&st.Base, st.down)
		if i < 0 {
			return newRound(tx)
		}
		id := st.Order[i]
		f := st.Fighters[id]
		actions := max(0, kit.OptInt(&st.Base, OptActions)-f.LostActions)
		text := fmt.Sprintf("%s's turn: %s.", st.NameOf(id), actionCount(actions))
		if err := tx.StartTurn(i, text); err != nil {
			return err
		}
		if f.Actions > 0 {
			return nil
		}
		if err := tx.Emits(KindTurnEnded, id, st.NameOf(id)+" is too shaken to act this turn.", TurnEnded{Fighter: id}); err != nil {
			return err
		}
	}
	return fmt.Errorf("d6-bands: no one can act")
}

// settle runs after every command and answer (engine.Settler): the
// encounter ends when one side alone is standing; unless a decision
// waits, a turn whose combatant fell, or has no action left, passes on.
func settle(tx *Tx) error {
	if ended, err := tx.LastStanding(); ended || err != nil {
		return err
	}
	st := tx.State
	if st.Waiting() {
		return nil
	}
	cur := st.Current()
	if cur == "" {
		return nil
	}
	if !st.standing(cur) {
		return advance(tx)
	}
	if st.Fighters[cur].Actions <= 0 {
		if err := tx.Emits(KindTurnEnded, cur, st.NameOf(cur)+" has no actions left.", TurnEnded{Fighter: cur}); err != nil {
			return err
		}
		return advance(tx)
	}
	return nil
}

func applyRoundStarted(st *State, _ kit.None) error {
	for _, f := range st.Fighters {
		f.Pool = f.Defense
		f.Actions = 0
		if kit.Opt(&st.Base, OptDashDefense) == DashThisRound {
			f.Dashed = false
		}
	}
	return nil
}

func applyTurnStarted(st *State, d engine.TurnStarted) error {
	f := st.Fighters[d.Combatant]
	if f == nil {
		return nil
	}
	f.Actions = max(0, kit.OptInt(&st.Base, OptActions)-f.LostActions)
	f.LostActions, f.Moves, f.Stealthed = 0, 0, false
	if kit.Opt(&st.Base, OptDashDefense) != DashThisRound {
		f.Dashed = false
	}
	if f.Aim != nil && f.Aim.Round < st.Round-1 {
		f.Aim = nil // no aim action last round: the aim is lost
	}
	return nil
}

func applyInitiative(st *State, d Initiative) error {
	for id, n := range d.Totals {
		if f := st.Fighters[id]; f != nil {
			f.Init = n
		}
	}
	return nil
}
