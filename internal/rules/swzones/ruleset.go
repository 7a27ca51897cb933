// Package swzones is the "sw-zones" ruleset: Savage Worlds combat on a graph
// of zones, after the house rules of seed 000. Files follow the seed: trait
// rolls in trait.go, the sheet in stats.go, the battlefield in zones.go,
// Movement in movement.go, Running and prone in running.go, range conversion
// in ranges.go, attacks in attack.go, templates and area effects in area.go,
// powers in power.go, push, grapple and garrotte in grapple.go, harm in
// damage.go, Bennies and Soak in bennies.go, Shaken in shaken.go, action
// cards in initiative.go, Hold and interrupts in hold.go, the turn cycle in
// turn.go, GM rulings in gm.go, pending decisions in flow.go and the
// switches in options.go.
package swzones

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// ID is the ruleset's registry id.
const ID = "sw-zones"

// Ruleset is the sw-zones engine.Ruleset.
type Ruleset struct{}

// New returns the sw-zones ruleset.
func New() engine.Ruleset { return Ruleset{} }

// ID implements engine.Ruleset.
func (Ruleset) ID() string { return ID }

// Title implements engine.Ruleset.
func (Ruleset) Title() string { return "Savage Worlds — zones" }

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "Savage Worlds on a map of zones: action cards, trait rolls with a Wild Die, raises, Shaken and wounds, melees inside a zone."
}

// Options implements engine.Ruleset.
func (Ruleset) Options() []engine.OptionSpec {
	out := make([]engine.OptionSpec, len(optionSpecs))
	copy(out, optionSpecs)
	return out
}

// State is an sw-zones encounter.
type State struct {
	engine.Base
	Zones    []Zone              `json:"zones"`
	Melees   []Melee             `json:"melees"`
	Fighters map[string]*Fighter `json:"fighters"`
	Deck     Deck                `json:"deck"`
	// GMBennies is the GM's pool, spent for NPCs (bennies.go).
	GMBennies int `json:"gmBennies"`
	// Area is the area attack last resolved: who it caught, who escaped.
	Area *AreaState `json:"area,omitempty"`
}

func state(tx *engine.Tx) *State { return tx.State().(*State) }

// Event kinds of this ruleset (besides the engine's core kinds).
const (
	KindDeckShuffled   = "deck-shuffled"
	KindCardsDealt     = "cards-dealt"
	KindShakenRecovery = "shaken-recovery"
	KindUnshaken       = "benny-unshaken"
	KindMoved          = "moved"
	KindEngaged        = "engaged"
	KindDisengaged     = "disengaged"
	KindAttack         = "attack"
	KindIncapacitation = "incapacitation-roll"
	KindDefended       = "defended"
	KindTurnEnded      = "turn-ended"
	KindBleeding       = "bleeding-out"
	KindBlocked        = "blocked"
	KindRun            = "run"
	KindRefund         = "run-refund"
	KindProne          = "prone"
	KindBennySpent     = "benny-spent"
	KindSoak           = "soak"
	KindHarm           = "harm"
	KindAreaAttack     = "area-attack"
	KindAreaScatter    = "area-scatter"
	KindAreaLanded     = "area-landed"
	KindDive           = "dive"
	KindAreaDamage     = "area-damage"
	KindRelief         = "relief"
	KindPush           = "push"
	KindPushed         = "pushed"
	KindGrapple        = "grapple"
	KindEscape         = "escape"
	KindSpeak          = "speak"
	KindReleased       = "released"
	KindHeld           = "held"
	KindHoldLost       = "hold-lost"
	KindContest        = "interrupt-contest"
	KindDrop           = "the-drop"
	KindZoneCover      = "zone-cover"
)

// Command kinds of this ruleset.
const (
	CmdMove      = "move"
	CmdEngage    = "engage"
	CmdDisengage = "disengage"
	CmdFight     = "fight"
	CmdShoot     = "shoot"
	CmdDefend    = "defend"
	CmdUnshake   = "unshake"
	CmdEndTurn   = "end-turn"
	CmdRun       = "run"
	CmdProne     = "prone"
	CmdRise      = "rise"
	CmdArea      = "area"
	CmdCast      = "cast"
	CmdPush      = "push"
	CmdGrapple   = "grapple"
	CmdEscape    = "escape"
	CmdSpeak     = "speak"
	CmdRelease   = "release"
	CmdHold      = "hold"
	CmdInterrupt = "interrupt"
	CmdDrop      = "drop"
	CmdSetCover  = "set-cover"
)

// Commands implements engine.Ruleset: every command is a fighter's, but
// the GM's rulings (The Drop, a zone's cover), which name no actor.
func (Ruleset) Commands() []engine.CommandSpec {
	out := []engine.CommandSpec{{Kind: CmdDrop, GM: true}, {Kind: CmdSetCover, GM: true}}
	for _, k := range []string{CmdMove, CmdEngage, CmdDisengage, CmdFight, CmdShoot, CmdDefend, CmdUnshake, CmdEndTurn,
		CmdRun, CmdProne, CmdRise, CmdArea, CmdCast, CmdPush, CmdGrapple, CmdEscape, CmdSpeak, CmdRelease, CmdHold, CmdInterrupt} {
		out = append(out, engine.CommandSpec{Kind: k})
	}
	return out
}

// New implements engine.Ruleset: it reads the battlefield, each combatant's
// stats and starting zone, and the starting melees.
func (Ruleset) New(setup engine.Setup, base engine.Base) (engine.State, error) {
	if len(setup.Combatants) > DeckSize {
		return nil, fray.Errorf(fray.EINVALID, "at most %d combatants (one action card each)", DeckSize)
	}
	zones, melees, err := parseBattlefield(setup.Battlefield)
	if err != nil {
		return nil, err
	}
	st := &State{Base: base, Zones: zones, Fighters: map[string]*Fighter{}, Deck: Deck{Remaining: fullDeck()}}
	rounding := base.Option(OptRangeRounding, RoundNearest)
	gaps := opt(&base, OptPowerRangeGaps)
	for _, c := range setup.Combatants {
		f, err := parseFighter(c.ID, c.PC, c.Stats, rounding, gaps)
		if err != nil {
			return nil, err
		}
		if err := fitToFight(c, f); err != nil {
			return nil, err
		}
		if len(c.Start) == 0 {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q needs a start: {\"zone\":\"…\"}", c.ID)
		}
		start, err := board.ReadStart(c.Start)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %v", c.ID, err)
		}
		if start.X != nil || start.Y != nil || start.Group != "" || len(start.Props) > 0 {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: a start in sw-zones names a zone only", c.ID)
		}
		if st.zone(start.Zone) == nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q starts in unknown zone %q", c.ID, start.Zone)
		}
		f.Zone = start.Zone
		st.Fighters[c.ID] = f
	}
	if err := st.placeMelees(melees); err != nil {
		return nil, err
	}
	switch v := opt(&base, OptGMBennies); v {
	case GMBenniesPerPC:
		for _, c := range setup.Combatants {
			if c.PC {
				st.GMBennies++
			}
		}
	default:
		st.GMBennies, _ = strconv.Atoi(v)
	}
	if len(st.Fighting()) < 2 {
		return nil, fray.Errorf(fray.EINVALID, "combatants must be on at least two sides")
	}
	return st, nil
}

// Decode implements engine.Ruleset.
func (Ruleset) Decode(snapshot []byte) (engine.State, error) {
	var st State
	if err := json.Unmarshal(snapshot, &st); err != nil {
		return nil, fmt.Errorf("decode sw-zones state: %w", err)
	}
	if st.Fighters == nil {
		st.Fighters = map[string]*Fighter{}
	}
	return &st, nil
}

// Start implements engine.Ruleset: deal the first round and start its first
// turn.
func (Ruleset) Start(tx *engine.Tx) error { return newRound(tx) }

// Decide implements engine.Ruleset.
func (Ruleset) Decide(tx *engine.Tx, cmd engine.Command) error {
	var err error
	switch cmd.Kind {
	case CmdMove:
		err = decideMove(tx, cmd)
	case CmdEngage:
		err = decideEngage(tx, cmd)
	case CmdDisengage:
		err = decideDisengage(tx, cmd)
	case CmdFight:
		err = decideFight(tx, cmd)
	case CmdShoot:
		err = decideShoot(tx, cmd)
	case CmdDefend:
		err = decideDefend(tx, cmd)
	case CmdUnshake:
		err = decideUnshake(tx, cmd)
	case CmdEndTurn:
		err = decideEndTurn(tx, cmd)
	case CmdRun:
		err = decideRun(tx, cmd)
	case CmdProne:
		err = decideProne(tx, cmd, true)
	case CmdRise:
		err = decideProne(tx, cmd, false)
	case CmdArea:
		err = decideArea(tx, cmd, false)
	case CmdCast:
		err = decideArea(tx, cmd, true)
	case CmdPush:
		err = decidePush(tx, cmd)
	case CmdGrapple:
		err = decideGrapple(tx, cmd)
	case CmdEscape:
		err = decideEscape(tx, cmd)
	case CmdSpeak:
		err = decideSpeak(tx, cmd)
	case CmdRelease:
		err = decideRelease(tx, cmd)
	case CmdHold:
		err = decideHold(tx, cmd)
	case CmdInterrupt:
		err = decideInterrupt(tx, cmd)
	case CmdDrop:
		err = decideDrop(tx, cmd)
	case CmdSetCover:
		err = decideSetCover(tx, cmd)
	default:
		return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
	}
	return err
}

// Apply implements engine.Ruleset. It is deterministic and rolls nothing:
// everything it needs is in the event.
func (Ruleset) Apply(s engine.State, ev engine.Event) error {
	st, ok := s.(*State)
	if !ok {
		return fmt.Errorf("sw-zones: state is %T", s)
	}
	switch ev.Kind {
	case engine.KindRoundStarted:
		for _, f := range st.Fighters {
			f.Card = ""
		}
	case engine.KindTurnStarted:
		var d engine.TurnStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		applyTurnStarted(st, d.Combatant)
	case engine.KindInterruptStarted:
		return decodeApply(ev, func(d engine.InterruptStarted) error { return applyInterruptStarted(st, d.Combatant) })
	case engine.KindInterruptEnded:
		return decodeApply(ev, func(d engine.InterruptEnded) error { return applyInterruptEnded(st, d.Combatant) })
	case engine.KindCombatantOut:
		var d engine.CombatantOut
		if err := ev.Decode(&d); err != nil {
			return err
		}
		st.leaveMelee(d.Combatant)
		if f := st.Fighters[d.Combatant]; f != nil {
			f.Hold, f.Grip, f.Drop = false, nil, ""
			for _, g := range st.Fighters {
				if g.Grip != nil && g.Grip.By == f.ID {
					g.Grip = nil
				}
			}
		}
	case KindDeckShuffled:
		applyDeckShuffled(st)
	case KindCardsDealt:
		var d CardsDealt
		if err := ev.Decode(&d); err != nil {
			return err
		}
		applyCardsDealt(st, d)
	case KindShakenRecovery:
		var d ShakenRecovery
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyShakenRecovery(st, d)
	case KindUnshaken:
		var d Unshaken
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyUnshaken(st, d)
	case KindMoved:
		var d Moved
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyMoved(st, d)
	case KindEngaged:
		var d Engaged
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyEngaged(st, d)
	case KindDisengaged:
		var d Disengaged
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyDisengaged(st, d)
	case KindAttack:
		var d Attack
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyAttack(st, d)
	case KindIncapacitation:
		var d Incapacitation
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyIncapacitation(st, d)
	case KindDefended:
		var d Defended
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return applyDefended(st, d)
	}
	return applyMore(st, ev)
}

// decodeApply decodes an event's data into a T and applies it with fn.
func decodeApply[T any](ev engine.Event, fn func(T) error) error {
	var d T
	if err := ev.Decode(&d); err != nil {
		return err
	}
	return fn(d)
}

// applyMore folds the events of the rules beyond the core.
func applyMore(st *State, ev engine.Event) error {
	switch ev.Kind {
	case KindTurnEnded:
		return decodeApply(ev, func(d TurnEnded) error { return applyTurnEnded(st, d) })
	case KindBleeding:
		return decodeApply(ev, func(d Bleeding) error {
			return applyIncapacitation(st, Incapacitation{Fighter: d.Fighter, Status: d.Status})
		})
	case KindRun:
		return decodeApply(ev, func(d Run) error { return applyRun(st, d) })
	case KindRefund:
		return decodeApply(ev, func(d Refund) error { return applyRefund(st, d) })
	case KindProne:
		return decodeApply(ev, func(d Prone) error { return applyProne(st, d) })
	case KindBennySpent:
		return decodeApply(ev, func(d BennySpent) error { return spend(st, d.Fighter, d.Pool) })
	case KindSoak:
		return decodeApply(ev, func(d Soak) error { return spend(st, d.Fighter, d.Pool) })
	case KindHarm:
		return decodeApply(ev, func(d HarmDone) error {
			t, err := st.fighter(d.Fighter)
			if err == nil {
				applyHarm(t, d.Harm)
			}
			return err
		})
	case KindAreaAttack:
		return decodeApply(ev, func(d AreaAttack) error { return applyAreaAttack(st, d) })
	case KindAreaLanded:
		return decodeApply(ev, func(d AreaLanded) error { applyAreaLanded(st, d); return nil })
	case KindDive:
		return decodeApply(ev, func(d Dive) error { applyDive(st, d); return nil })
	case KindAreaDamage:
		return decodeApply(ev, func(d AreaDamage) error { return applyAreaDamage(st, d) })
	case KindRelief:
		return decodeApply(ev, func(d Relief) error { applyRelief(st, d); return nil })
	case KindPush:
		return decodeApply(ev, func(d Push) error { return applyPush(st, d) })
	case KindPushed:
		return decodeApply(ev, func(d Pushed) error { return applyPushed(st, d) })
	case KindGrapple:
		return decodeApply(ev, func(d GrappleDone) error { return applyGrapple(st, d) })
	case KindEscape:
		return decodeApply(ev, func(d Escape) error { return applyEscape(st, d) })
	case KindSpeak:
		return decodeApply(ev, func(d Speak) error { return applySpeak(st, d) })
	case KindReleased:
		return decodeApply(ev, func(d Released) error { return applyReleased(st, d) })
	case KindHeld:
		return decodeApply(ev, func(d Held) error { return applyHeld(st, d) })
	case KindHoldLost:
		return decodeApply(ev, func(d HoldLost) error { return applyHoldLost(st, d) })
	case KindDrop:
		return decodeApply(ev, func(d DropGranted) error { return applyDrop(st, d) })
	case KindZoneCover:
		return decodeApply(ev, func(d ZoneCover) error { return applyZoneCover(st, d) })
	}
	return nil
}

// fighter returns the fighter with id or an error for the applier.
func (s *State) fighter(id string) (*Fighter, error) {
	if f := s.Fighters[id]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("sw-zones: no fighter %q", id)
}

// actor decodes cmd's arguments into args (nil: it takes none) and returns
// the acting fighter, whose turn it must be.
func actor(tx *engine.Tx, cmd engine.Command, args any) (*Fighter, error) {
	if args == nil {
		args = &struct{}{}
	}
	if err := cmd.Decode(args); err != nil {
		return nil, err
	}
	if err := engine.RequireTurn(tx.State(), cmd.Actor); err != nil {
		return nil, err
	}
	f := state(tx).Fighters[cmd.Actor]
	if f == nil {
		return nil, fray.Errorf(fray.ENOTFOUND, "no fighter %q", cmd.Actor)
	}
	return f, nil
}

// target finds a combatant the viewer can see; one they cannot see does not
// exist for them.
func target(tx *engine.Tx, id string) (*Fighter, error) {
	if id == "" {
		return nil, fray.Errorf(fray.EINVALID, "choose a target")
	}
	st := state(tx)
	f := st.Fighters[id]
	if f == nil || !engine.Visible(st, tx.Viewer(), id) {
		return nil, fray.Errorf(fray.ENOTFOUND, "no combatant %q", id)
	}
	if st.Combatant(id).Out {
		return nil, fray.Errorf(fray.EILLEGAL, "%s is already out of the fight", st.NameOf(id))
	}
	return f, nil
}
