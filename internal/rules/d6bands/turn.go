package d6bands

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
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
type TurnEnded struct {
	Fighter string `json:"fighter"`
}

// newRound bleeds the wounded, rolls initiative and starts the round's
// first turn.
func newRound(tx *engine.Tx) error {
	st := state(tx)
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
	if st.Round == 0 || opt(&st.Base, OptInitiative) == InitEachRound {
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
func rollInitiative(tx *engine.Tx, ids []string) error {
	st := state(tx)
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

// nextTurn is the index in the order after the current turn of the next
// combatant standing, -1 at the end of the round.
func nextTurn(st *State) int {
	for i := st.Turn + 1; i < len(st.Order); i++ {
		if st.standing(st.Order[i]) {
			return i
		}
	}
	return -1
}

// advance starts the next turn, skipping anyone left with no actions
// (a panic from Terror), or a new round after the last.
func advance(tx *engine.Tx) error {
	st := state(tx)
	for range 64 {
		if st.Status != engine.StatusRunning {
			return nil
		}
		i := nextTurn(st)
		if i < 0 {
			return newRound(tx)
		}
		id := st.Order[i]
		f := st.Fighters[id]
		actions := max(0, optInt(&st.Base, OptActions)-f.LostActions)
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

func decideEndTurn(tx *engine.Tx, cmd engine.Command) error {
	f, err := actor(tx, cmd, nil)
	if err != nil {
		return err
	}
	if err := tx.Emits(KindTurnEnded, f.ID, state(tx).NameOf(f.ID)+" ends the turn.", TurnEnded{Fighter: f.ID}); err != nil {
		return err
	}
	return advance(tx)
}

// Settle implements engine.Settler. After every command and answer: the
// encounter ends when one side alone is standing; unless a decision
// waits, a turn whose combatant fell, or has no action left, passes on.
func (Ruleset) Settle(tx *engine.Tx) error {
	if ended, err := tx.LastStanding(); ended || err != nil {
		return err
	}
	st := state(tx)
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

func applyRoundStarted(st *State) {
	for _, f := range st.Fighters {
		f.Pool = f.Defense
		f.Actions = 0
		if opt(&st.Base, OptDashDefense) == DashThisRound {
			f.Dashed = false
		}
	}
}

func applyTurnStarted(st *State, id string) {
	f := st.Fighters[id]
	if f == nil {
		return
	}
	f.Actions = max(0, optInt(&st.Base, OptActions)-f.LostActions)
	f.LostActions, f.Moves, f.Stealthed = 0, 0, false
	if opt(&st.Base, OptDashDefense) != DashThisRound {
		f.Dashed = false
	}
	if f.Aim != nil && f.Aim.Round < st.Round-1 {
		f.Aim = nil // no aim action last round: the aim is lost
	}
}

func applyInitiative(st *State, d Initiative) {
	for id, n := range d.Totals {
		if f := st.Fighters[id]; f != nil {
			f.Init = n
		}
	}
}
