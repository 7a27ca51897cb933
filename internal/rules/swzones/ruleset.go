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
	"strconv"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// ID is the ruleset's registry id.
const ID = "sw-zones"

// Ruleset is the sw-zones ruleset: the kit's, with the stat schema and
// carry-over.
type Ruleset struct {
	*kit.Ruleset[*State, *Fighter]
}

// Tx is a command being decided under sw-zones.
type Tx = kit.Tx[*State, *Fighter]

// New returns the sw-zones ruleset.
func New() engine.Ruleset { return ruleset }

var ruleset = Ruleset{kit.New(kit.Rules[*State, *Fighter]{
	ID: ID, Title: "Savage Worlds — zones", Options: optionSpecs,
	New: newEncounter, Start: newRound, Settle: settle,
	Board: project, Editor: editor, Actions: actions, Pass: kit.PassWith[*State, *Fighter](CmdEndTurn),
	// Every command is a fighter's, but the GM's rulings (The Drop, a
	// zone's cover), which name no actor.
	Commands: []kit.Command[*State, *Fighter]{
		{Kind: CmdMove, Decide: decideMove},
		{Kind: CmdEngage, Decide: decideEngage},
		{Kind: CmdDisengage, Decide: decideDisengage},
		{Kind: CmdFight, Decide: decideFight},
		{Kind: CmdShoot, Decide: decideShoot},
		{Kind: CmdDefend, Decide: decideDefend},
		{Kind: CmdUnshake, Decide: decideUnshake},
		{Kind: CmdEndTurn, Decide: kit.EndTurn(KindTurnEnded, advance)},
		{Kind: CmdRun, Decide: decideRun},
		{Kind: CmdProne, Decide: func(tx *Tx, cmd engine.Command) error { return decideProne(tx, cmd, true) }},
		{Kind: CmdRise, Decide: func(tx *Tx, cmd engine.Command) error { return decideProne(tx, cmd, false) }},
		{Kind: CmdArea, Decide: func(tx *Tx, cmd engine.Command) error { return decideArea(tx, cmd, false) }},
		{Kind: CmdCast, Decide: func(tx *Tx, cmd engine.Command) error { return decideArea(tx, cmd, true) }},
		{Kind: CmdPush, Decide: decidePush},
		{Kind: CmdGrapple, Decide: decideGrapple},
		{Kind: CmdEscape, Decide: decideEscape},
		{Kind: CmdSpeak, Decide: decideSpeak},
		{Kind: CmdRelease, Decide: decideRelease},
		{Kind: CmdHold, Decide: decideHold},
		{Kind: CmdInterrupt, Decide: decideInterrupt},
		{Kind: CmdDrop, GM: true, Decide: decideDrop},
		{Kind: CmdSetCover, GM: true, Decide: decideSetCover},
	},
	Steps: []kit.StepSpec[*State, *Fighter]{
		kit.OnStep(stepMP, runMPStep),
		kit.OnStep(stepFreeAttack, runFreeAttack),
		kit.OnStep(stepDisengage, runDisengage),
		kit.OnStep(stepRun, runRoll),
		kit.OnStep(stepDives, runDives),
		kit.OnStep(stepAreaDamage, runAreaDamage),
		kit.OnStep(stepPushZone, askPushZone),
		kit.OnStep(stepInterrupt, runInterruptStep),
	},
	// Each decision's data is a Cont, its own context.
	Prompts: prompts,
	Decisions: []kit.DecisionSpec[*State, *Fighter]{
		kit.OnAnswer(DecSoak, answerSoak),
		kit.OnAnswer(DecReroll, answerReroll),
		kit.OnAnswer(DecDive, answerDive),
		kit.OnAnswer(DecAim, answerAim),
		kit.OnAnswer(DecScatter, answerScatter),
		kit.OnAnswer(DecPushZone, answerPushZone),
		kit.OnAnswer(DecInterrupt, answerWindow),
	},
	// Applying is deterministic and rolls nothing: everything it needs is
	// in the event.
	Events: []kit.EventSpec[*State]{
		kit.OnEvent(engine.KindRoundStarted, func(st *State, _ kit.None) error {
			for _, f := range st.Fighters {
				f.Card = ""
			}
			return nil
		}),
		kit.OnEvent(engine.KindTurnStarted, applyTurnStarted),
		kit.OnEvent(engine.KindInterruptStarted, func(st *State, d engine.InterruptStarted) error { return applyInterruptStarted(st, d.Combatant) }),
		kit.OnEvent(engine.KindInterruptEnded, func(st *State, d engine.InterruptEnded) error { return applyInterruptEnded(st, d.Combatant) }),
		kit.OnEvent(engine.KindCombatantOut, applyOut),
		kit.OnEvent(KindDeckShuffled, applyDeckShuffled),
		kit.OnEvent(KindCardsDealt, applyCardsDealt),
		kit.OnEvent(KindShakenRecovery, applyShakenRecovery),
		kit.OnEvent(KindUnshaken, applyUnshaken),
		kit.OnEvent(KindMoved, applyMoved),
		kit.OnEvent(KindEngaged, applyEngaged),
		kit.OnEvent(KindDisengaged, applyDisengaged),
		kit.OnEvent(KindAttack, applyAttack),
		kit.OnEvent(KindIncapacitation, applyIncapacitation),
		kit.OnEvent(KindDefended, applyDefended),
		kit.OnEvent(KindTurnEnded, applyTurnEnded),
		kit.OnEvent(KindBleeding, func(st *State, d Bleeding) error {
			return applyIncapacitation(st, Incapacitation{Fighter: d.Fighter, Status: d.Status})
		}),
		kit.OnEvent(KindRun, applyRun),
		kit.OnEvent(KindRefund, applyRefund),
		kit.OnEvent(KindProne, applyProne),
		kit.OnEvent(KindBennySpent, func(st *State, d BennySpent) error { return spend(st, d.Fighter, d.Pool) }),
		kit.OnEvent(KindSoak, func(st *State, d Soak) error { return spend(st, d.Fighter, d.Pool) }),
		kit.OnEvent(KindHarm, func(st *State, d HarmDone) error {
			t, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
			if err == nil {
				applyHarm(t, d.Harm)
			}
			return err
		}),
		kit.OnEvent(KindAreaAttack, applyAreaAttack),
		kit.OnEvent(KindAreaLanded, applyAreaLanded),
		kit.OnEvent(KindDive, applyDive),
		kit.OnEvent(KindAreaDamage, applyAreaDamage),
		kit.OnEvent(KindRelief, applyRelief),
		kit.OnEvent(KindPush, applyPush),
		kit.OnEvent(KindPushed, applyPushed),
		kit.OnEvent(KindGrapple, applyGrapple),
		kit.OnEvent(KindEscape, applyEscape),
		kit.OnEvent(KindSpeak, applySpeak),
		kit.OnEvent(KindReleased, applyReleased),
		kit.OnEvent(KindHeld, applyHeld),
		kit.OnEvent(KindHoldLost, applyHoldLost),
		kit.OnEvent(KindDrop, applyDrop),
		kit.OnEvent(KindZoneCover, applyZoneCover),
	},
})}

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

// Fighter implements kit.State.
func (s *State) Fighter(id string) *Fighter { return s.Fighters[id] }

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

// newEncounter reads the battlefield, each combatant's stats and starting
// zone, and the starting melees.
func newEncounter(setup engine.Setup, base engine.Base) (*State, error) {
	if len(setup.Combatants) > DeckSize {
		return nil, fray.Errorf(fray.EINVALID, "at most %d combatants (one action card each)", DeckSize)
	}
	zones, melees, err := parseBattlefield(setup.Battlefield)
	if err != nil {
		return nil, err
	}
	st := &State{Base: base, Zones: zones, Fighters: map[string]*Fighter{}, Deck: Deck{Remaining: fullDeck()}}
	rounding := kit.Opt(&base, OptRangeRounding)
	gaps := kit.Opt(&base, OptPowerRangeGaps)
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
	switch v := kit.Opt(&base, OptGMBennies); v {
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

// applyOut takes a fighter out of the fight out of its melee, its Hold,
// its grips and its Drop.
func applyOut(st *State, d engine.CombatantOut) error {
	st.leaveMelee(d.Combatant)
	if f := st.Fighters[d.Combatant]; f != nil {
		f.Hold, f.Grip, f.Drop = false, nil, ""
		for _, g := range st.Fighters {
			if g.Grip != nil && g.Grip.By == f.ID {
				g.Grip = nil
			}
		}
	}
	return nil
}

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "Savage Worlds on a map of zones: action cards, trait rolls with a Wild Die, raises, Shaken and wounds, melees inside a zone."
}
