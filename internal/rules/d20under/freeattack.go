package d20under

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Free attacks (seed: Free Attack; spec c3). A combatant gets one free
// attack per triggering factor and turn — two enemies withdrawing give
// one, a withdrawal and a move past give two — recorded in the engine's
// reaction ledger (option free-attack-limit: Symbaroum's "turn" is Fray's
// round). Free attacks use the weapon in hand (passive abilities only) and
// need the target within reach of a melee weapon. Players are asked
// whether to make theirs (option free-attack-offers).

// Triggers.
const (
	TrigWithdraw       = "withdraw"
	TrigPast           = "move-past"
	TrigLong           = "long-weapon"
	TrigFumble         = "fumble"
	TrigPerfectDefence = "perfect-defence"
	TrigMiss           = "failed-manoeuvre"
	TrigPain           = "pain"
	TrigHold           = "hold-broken"
)

var triggerWords = map[string]string{
	TrigWithdraw:       "withdrawing",
	TrigPast:           "moving past",
	TrigLong:           "coming within reach of a long weapon",
	TrigFumble:         "fumbling",
	TrigPerfectDefence: "after a perfect defence",
	TrigMiss:           "after a failed manoeuvre",
	TrigPain:           "in pain",
	TrigHold:           "breaking the hold",
}

// trigger is a reaction in the engine's ledger.
func (s *State) trigger(reactor, kind string) engine.Trigger {
	per := engine.PerRound
	if kit.Opt(&s.Base, OptFreeAttackLimit) == LimitTurn {
		per = engine.PerTurn
	}
	return engine.Trigger{Reactor: reactor, Kind: kind, Per: per}
}

// freeCtx is a free attack to offer or make.
type freeCtx struct {
	Reactor string `json:"reactor"`
	Target  string `json:"target"`
	Trigger string `json:"trigger"`
}

func freeAttackStep(reactor, target, trigger string) engine.Step {
	return engine.NewStep(stepFree, freeCtx{Reactor: reactor, Target: target, Trigger: trigger})
}

// mayFreeAttack reports whether the reactor can make the free attack now.
func (s *State) mayFreeAttack(c freeCtx) bool {
	r, t := s.Fighters[c.Reactor], s.Fighters[c.Target]
	if r == nil || t == nil || !s.fighting(c.Target) || !s.CanReact(s.trigger(c.Reactor, c.Trigger)) {
		return false
	}
	if r.FullDefence || r.cowedBy(c.Target) || r.Holding != "" || r.HeldBy != "" {
		return false
	}
	if c.Trigger == TrigPast && s.Model == board.Ladder {
		return s.moves(c.Reactor, c.Target) == 0 // standing Close, in the way
	}
	return s.inMelee(c.Reactor, c.Target)
}

// runFreeAttack offers the free attack to its reactor, or makes it.
func runFreeAttack(tx *Tx, c freeCtx) error {
	st := tx.State
	if !st.mayFreeAttack(c) {
		return nil
	}
	t := st.Fighters[c.Target]
	if (c.Trigger == TrigWithdraw || c.Trigger == TrigPast) && t.Level(AbAcrobatics) > 0 {
		o := rollTest(tx, st.plainTest(c.Target, Quick, "Acrobatics", testOther))
		text := fmt.Sprintf("%s tumbles clear of %s's free attack.", st.PublicNameOf(c.Target), st.PublicNameOf(c.Reactor))
		if !o.Pass {
			text = fmt.Sprintf("%s fails to tumble clear of %s.", st.PublicNameOf(c.Target), st.PublicNameOf(c.Reactor))
		}
		if err := note(tx, KindAction, c.Target, text, Note{Fighter: c.Target, Target: c.Reactor, What: "acrobatics", Value: boolInt(o.Pass)}, o.Roll); err != nil {
			return err
		}
		if o.Pass {
			return nil
		}
	}
	if st.askFreeAttack(c.Reactor) {
		d := engine.Decision{For: c.Reactor, Kind: DecFreeAttack,
			Prompt:  fmt.Sprintf("%s: a free attack on %s (%s)?", st.PublicNameOf(c.Reactor), st.PublicNameOf(c.Target), triggerWords[c.Trigger]),
			Options: []engine.Choice{{Value: "attack", Label: "Attack"}, {Value: "no", Label: "Let it go"}}, Default: "attack"}
		raw := Cont{Free: &c}
		return tx.AskWith(d, raw)
	}
	return tx.Run(strikeStep(st.freeStrike(c)))
}

// askFreeAttack says whether the reactor's controller is asked first.
func (s *State) askFreeAttack(reactor string) bool {
	switch kit.Opt(&s.Base, OptFreeAttackOffers) {
	case OffersAuto:
		return false
	case OffersAll:
		return true
	}
	c := s.Combatant(reactor)
	return c.PC && !c.Hidden
}

// freeStrike is the attack a free attack makes: the melee weapon in hand.
func (s *State) freeStrike(c freeCtx) strikeCtx {
	w := s.Fighters[c.Reactor].meleeWeapons()[0]
	return strikeCtx{By: c.Reactor, At: c.Target, Weapon: w.ID, Mode: ModeFree, Trigger: c.Trigger}
}

func answerFreeAttack(tx *Tx, c freeCtx, ans engine.Answered) error {
	st := tx.State
	if ans.Choice != "attack" {
		return note(tx, KindAction, c.Reactor, st.PublicNameOf(c.Reactor)+" lets the free attack go.", Note{Fighter: c.Reactor, Target: c.Target, What: "declined"})
	}
	if !st.mayFreeAttack(c) {
		return nil
	}
	return tx.Run(strikeStep(st.freeStrike(c)))
}
