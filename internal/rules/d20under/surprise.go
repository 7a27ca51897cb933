package d20under

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Surprise (seed: Surprise; spec c5). Before the first round the GM may
// declare that one side tries to surprise another: [Discreet←Vigilant],
// the attackers' lowest Discreet against the defenders' highest Vigilant
// (rolled by a player character on either side). On a success each
// attacker makes one free attack on a surprised enemy, then the order
// goes as usual; the surprised have not drawn their weapons (Short
// weapons come out for free, others take a movement action; natural
// weapons are always ready).

const stepSurpriseDone = "surprise-done"

func decideSurprise(tx *Tx, cmd engine.Command) error {
	var args struct {
		Side   string `json:"side"`
		Target string `json:"target"`
		// Ambush is "side>target", the page's single choice.
		Ambush string `json:"ambush"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	if args.Ambush != "" {
		var ok bool
		if args.Side, args.Target, ok = strings.Cut(args.Ambush, ">"); !ok {
			return fray.Errorf(fray.EINVALID, "ambush %q must be \"side>target\"", args.Ambush)
		}
	}
	st := tx.State
	if st.Phase != PhaseDeclare {
		return fray.Errorf(fray.EILLEGAL, "surprise is declared before the first round")
	}
	if st.SurpriseTried {
		return fray.Errorf(fray.EILLEGAL, "the surprise has been tried already")
	}
	if st.Side(args.Side) == nil || st.Side(args.Target) == nil || args.Side == args.Target {
		return fray.Errorf(fray.EINVALID, "choose two different sides: the ambushers and their targets")
	}
	attackers := st.ids(func(id string) bool { return st.side(id) == args.Side && st.fighting(id) })
	defenders := st.ids(func(id string) bool { return st.side(id) == args.Target && st.fighting(id) })
	if len(attackers) == 0 || len(defenders) == 0 {
		return fray.Errorf(fray.EILLEGAL, "both sides need someone fighting")
	}
	sneak := slices.MinFunc(attackers, func(a, b string) int {
		return st.Fighters[a].Attributes[Discreet] - st.Fighters[b].Attributes[Discreet]
	})
	watch := slices.MaxFunc(defenders, func(a, b string) int {
		if d := st.Fighters[a].Attributes[Vigilant] - st.Fighters[b].Attributes[Vigilant]; d != 0 {
			return d
		}
		return slices.Index(defenders, b) - slices.Index(defenders, a) // the first of equals
	})
	tt, aRolls := st.opposedTest("Surprise", sneak, Discreet, testOther, nil, nil, watch, Vigilant, testOther, nil)
	o := rollTest(tx, tt)
	set := []Change{change.SurpriseTried.To(true)}
	if o.Pass != aRolls {
		text := fmt.Sprintf("%s spot %s coming: no surprise.", st.sideName(args.Target), st.sideName(args.Side))
		return emit(tx, KindSurprise, "", text, Note{What: "spotted", Set: set}, []string{sneak, watch}, o.Roll)
	}
	set = append(set, change.Ambush.To(args.Side), change.Surprised.To(defenders))
	for _, id := range defenders {
		f := st.Fighters[id]
		if w := f.weapon(); f.Drawn && !w.kind().Short && !w.kind().Natural {
			set = append(set, change.Drawn.To(id, false))
		}
	}
	text := fmt.Sprintf("%s surprise %s! Each gets a free attack; the surprised must draw their weapons.", st.sideName(args.Side), st.sideName(args.Target))
	return emit(tx, KindSurprise, "", text, Note{What: "surprise", Set: set}, []string{sneak, watch}, o.Roll)
}

// ambusher checks a command of the surprise phase.
func ambusher(tx *Tx, cmd engine.Command, args any) (*Fighter, error) {
	if err := cmd.Decode(args); err != nil {
		return nil, err
	}
	st := tx.State
	if st.Phase != PhaseSurprise {
		return nil, fray.Errorf(fray.EILLEGAL, "there is no surprise to strike from")
	}
	if !st.IsActing(cmd.Actor) {
		return nil, fray.Errorf(fray.EILLEGAL, "%s has had the surprise attack", st.NameOf(cmd.Actor))
	}
	return st.Fighters[cmd.Actor], nil
}

// decideSurpriseAttack is an ambusher's free attack on a surprised enemy:
// in melee with the weapon in hand, or a shot.
func decideSurpriseAttack(tx *Tx, cmd engine.Command) error {
	var args targetArgs
	f, err := ambusher(tx, cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	if !slices.Contains(st.Surprised, t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s was not surprised", st.NameOf(t.ID))
	}
	k, err := st.surpriseStrike(f, t)
	if err != nil {
		return err
	}
	if err := tx.Acted(f.ID, ""); err != nil {
		return err
	}
	return tx.Run(strikeStep(k), engine.NewStep(stepSurpriseDone, nil))
}

// surpriseStrike is the attack an ambusher can make on t, if any.
func (s *State) surpriseStrike(f, t *Fighter) (strikeCtx, error) {
	w := f.weapon()
	if w.kind().Ranged {
		if err := s.canShoot(f, t, w, false); err != nil {
			return strikeCtx{}, err
		}
		if alchemyGate(&f.Sheet, w.Type) == gateForbidden {
			return strikeCtx{}, fray.Errorf(fray.EILLEGAL, "%s needs %s", w.Name, gateNeeds(w.Type))
		}
	} else if err := s.canMelee(f, t); err != nil {
		return strikeCtx{}, err
	}
	return strikeCtx{By: f.ID, At: t.ID, Weapon: w.ID, Mode: ModeSurprise}, nil
}

// surpriseTargets are the surprised enemies f can strike.
func (s *State) surpriseTargets(f *Fighter, v engine.Viewer) []engine.Choice {
	var out []engine.Choice
	for _, id := range s.Surprised {
		t := s.Fighters[id]
		if s.Combatant(id).Out || !engine.Visible(s, v, id) {
			continue
		}
		if _, err := s.surpriseStrike(f, t); err == nil {
			out = append(out, engine.Choice{Value: id, Label: s.NameOf(id)})
		}
	}
	return out
}

func decideSurprisePass(tx *Tx, cmd engine.Command) error {
	f, err := ambusher(tx, cmd, &struct{}{})
	if err != nil {
		return err
	}
	if err := tx.Acted(f.ID, tx.State.NameOf(f.ID)+" holds back."); err != nil {
		return err
	}
	return surpriseDone(tx)
}

// decideEndSurprise is the GM ending the surprise phase.
func decideEndSurprise(tx *Tx, cmd engine.Command) error {
	if err := cmd.NoArgs(); err != nil {
		return err
	}
	if tx.State.Phase != PhaseSurprise {
		return fray.Errorf(fray.EILLEGAL, "there is no surprise phase to end")
	}
	return endSurprise(tx)
}

// surpriseDone ends the phase once every ambusher struck.
func surpriseDone(tx *Tx) error {
	st := tx.State
	if st.Phase != PhaseSurprise || len(st.Acting) > 0 {
		return nil
	}
	return endSurprise(tx)
}

func endSurprise(tx *Tx) error {
	if err := note(tx, KindSurprise, "", "The surprise is over; the first round goes on in order.", Note{What: "over", Set: []Change{change.Phase.To("")}}); err != nil {
		return err
	}
	return advance(tx)
}
