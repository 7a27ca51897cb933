// Package d20tactical is the "d20-tactical" ruleset: seed 004, a d20
// System (d20 Modern) variant fought on a grid of 5-ft squares with
// posture. Files follow the seed: the stat block in stats.go, the grid in
// grid.go, initiative, surprise, Delay and Ready in turn.go, the seed's
// Movement table in movement.go, Melee and Ranged (with Distance, Burst /
// Automatic Fire and Aimed Shots) in attack.go and aimed.go, Cover and
// Object Attack in cover.go, Dodge, Fumbles and Critical Hits in their own
// files, hit points, Life Points and Armour Points in damage.go, attacks
// of opportunity in aoo.go, the GM's rulings in gm.go, decisions and steps
// in flow.go, and every interpretation as an option in options.go.
package d20tactical

import (
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// ID is the ruleset's registry id.
const ID = "d20-tactical"

// Ruleset is the d20-tactical ruleset: the kit's, with the stat schema
// and carry-over.
type Ruleset struct {
	*kit.Ruleset[*State, *Fighter]
}

// Tx is a command being decided under d20-tactical.
type Tx = kit.Tx[*State, *Fighter]

// New returns the ruleset.
func New() engine.Ruleset { return ruleset }

var ruleset = Ruleset{kit.New(kit.Rules[*State, *Fighter]{
	ID: ID, Title: "d20 Modern — tactical grid", Options: optionSpecs,
	New: newEncounter, Start: rollInitiative, Settle: settle, CanAct: canAct,
	Board: project, Editor: editor, Actions: actions, Pass: kit.PassWith[*State, *Fighter](CmdEndTurn),
	Commands: []kit.Command[*State, *Fighter]{
		{Kind: CmdMove, Decide: decideMove},
		{Kind: CmdStep, Decide: decideStep},
		{Kind: CmdRun, Decide: decideRun},
		{Kind: CmdPosture, Decide: decidePosture},
		{Kind: CmdJump, Decide: decideJump},
		{Kind: CmdCharge, Decide: decideCharge},
		{Kind: CmdAttack, Decide: func(tx *Tx, cmd engine.Command) error { return decideAttack(tx, cmd, false) }},
		{Kind: CmdFullAttack, Decide: func(tx *Tx, cmd engine.Command) error { return decideAttack(tx, cmd, true) }},
		{Kind: CmdObject, Decide: decideObject},
		{Kind: CmdReload, Decide: decideHandle},
		{Kind: CmdClearJam, Decide: decideHandle},
		{Kind: CmdPickUp, Decide: decideHandle},
		{Kind: CmdTreat, Decide: decideTreat},
		{Kind: CmdDelay, Decide: decideDelay},
		{Kind: CmdReady, Decide: decideReady},
		{Kind: CmdInterrupt, Decide: decideInterrupt},
		{Kind: CmdEndTurn, Decide: decideEndTurn},
		{Kind: CmdSetCover, GM: true, Decide: decideSetCover},
		{Kind: CmdDamage, GM: true, Decide: decideGMDamage},
		{Kind: CmdHeal, GM: true, Decide: decideHeal},
		{Kind: CmdArmour, GM: true, Decide: decideArmour},
		{Kind: CmdLifePoints, GM: true, Decide: decideLifePoints},
		{Kind: CmdClearEffects, GM: true, Decide: decideClearEffects},
	},
	Steps: []kit.StepSpec[*State, *Fighter]{
		kit.OnStep(stepAsk, func(tx *Tx, a askStep) error { return tx.AskWith(a.Decision, a.Cont) }),
		kit.OnStep(stepReadyCheck, runReadyCheck),
		kit.OnStep(stepAfter, runAfterAction),
		kit.OnStep(stepMoveLeg, runMoveLeg),
		kit.OnStep(stepPosture, runPosture),
		kit.OnStep(stepJump, runJump),
		kit.OnStep(stepRun, runRun),
		kit.OnStep(stepReact, runReact),
		kit.OnStep(stepAttack, runAttack),
		kit.OnStep(stepHit, runHit),
		kit.OnStep(stepDamage, runDamage),
		kit.OnStep(stepHarm, runHarm),
		kit.OnStep(stepEffect, runEffect),
		kit.OnStep(stepHandle, runHandle),
		kit.OnStep(stepObject, askObject),
	},
	// Each decision's data is a Cont, its own context.
	Prompts: prompts,
	Decisions: []kit.DecisionSpec[*State, *Fighter]{
		kit.OnAnswer(DecReaction, answerReaction),
		kit.OnAnswer(DecReady, answerReady),
		kit.OnAnswer(DecCritical, answerCritical),
		kit.OnAnswer(DecMassive, answerMassive),
		kit.OnAnswer(DecBackfire, answerBackfire),
		kit.OnAnswer(DecCover, answerCover),
		kit.OnAnswer(DecObject, answerObject),
		kit.OnAnswer(DecEndurance, answerEnduranceRuling),
		kit.OnAnswer(DecDuration, answerDuration),
	},
	Events: events,
})}

// State is a d20-tactical encounter.
type State struct {
	engine.Base
	Grid     Grid                `json:"grid"`
	Fighters map[string]*Fighter `json:"fighters"`
	// Initiative is the order rounds are played in: rolled once, changed
	// for good by Delay and Ready.
	Initiative []string `json:"initiative"`
	// Surprise is how many surprise rounds are left before the first full
	// round.
	Surprise int `json:"surprise,omitempty"`

	cells engine.Memo[[]board.Cell] // the grid's squares as the board shows them, once shown (see project)
}

// Fighter implements kit.State.
func (s *State) Fighter(id string) *Fighter { return s.Fighters[id] }

// Command kinds.
const (
	CmdMove       = "move"
	CmdStep       = "step"
	CmdRun        = "run"
	CmdPosture    = "posture"
	CmdJump       = "jump"
	CmdCharge     = "charge"
	CmdAttack     = "attack"
	CmdFullAttack = "full-attack"
	CmdObject     = "attack-object"
	CmdReload     = "reload"
	CmdClearJam   = "clear-jam"
	CmdPickUp     = "pick-up"
	CmdTreat      = "treat"
	CmdDelay      = "delay"
	CmdReady      = "ready"
	CmdInterrupt  = "interrupt"
	CmdEndTurn    = "end-turn"

	// GM commands (no actor).
	CmdSetCover     = "set-cover"
	CmdDamage       = "damage"
	CmdHeal         = "heal"
	CmdArmour       = "armour-points"
	CmdLifePoints   = "life-points"
	CmdClearEffects = "clear-effects"
)

// Event kinds of this ruleset.
const (
	KindInitiative     = "initiative"
	KindSurprise       = "surprise"
	KindAction         = "action"
	KindMoved          = "moved"
	KindPosture        = "posture"
	KindEndurance      = "endurance"
	KindJump           = "jump"
	KindAttack         = "attack"
	KindAttackLost     = "attack-lost"
	KindNegated        = "armour-negate"
	KindDodge          = "dodge"
	KindDamage         = "damage"
	KindHarm           = "harm"
	KindArmourPoints   = "armour-points"
	KindLifePoints     = "life-points"
	KindSave           = "save"
	KindStatus         = "status"
	KindEffect         = "effect"
	KindEffectsCleared = "effects-cleared"
	KindFumble         = "fumble"
	KindStray          = "stray-shot"
	KindWeapon         = "weapon"
	KindPickedUp       = "picked-up"
	KindStabilize      = "stabilize"
	KindTreat          = "treat"
	KindReady          = "ready"
	KindDelay          = "delay"
	KindTurnEnded      = "turn-ended"
	KindCover          = "cover"
	KindHeal           = "heal"
)

// newEncounter reads the grid, each combatant's stats and starting square
// and posture.
func newEncounter(setup engine.Setup, base engine.Base) (*State, error) {
	st := &State{Base: base, Fighters: map[string]*Fighter{}}
	if err := parseGrid(setup.Battlefield, &st.Grid); err != nil {
		return nil, err
	}
	lp := kit.OptInt(&base, OptLifePoints)
	for _, c := range setup.Combatants {
		sheet, err := parseSheet(c.Stats)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %s", c.ID, fray.ErrorMessage(err))
		}
		if sheet.Dead {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q (%s) is dead: leave them out, or clear Dead on their sheet", c.ID, c.Name)
		}
		f := newFighter(c.ID, sheet, lp)
		start, err := board.ReadStart(c.Start)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %v", c.ID, err)
		}
		if start.X == nil || start.Y == nil || start.Zone != "" || start.Group != "" {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q needs a start square: {\"x\":…,\"y\":…}", c.ID)
		}
		if err := checkProps(startProps, start.Props, "combatant "+c.ID+"'s start"); err != nil {
			return nil, err
		}
		f.X, f.Y = *start.X, *start.Y
		if !st.Grid.inside(f.X, f.Y) {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q starts off the grid (%d,%d)", c.ID, f.X, f.Y)
		}
		if t := st.Grid.at(f.X, f.Y); !t.walkable() {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q starts in a wall, a pit or an obstacle (%d,%d)", c.ID, f.X, f.Y)
		}
		if o := st.occupant(Cell{f.X, f.Y}, ""); o != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatants %q and %q start in the same square", o.ID, c.ID)
		}
		if p := start.Props.String("posture"); p != "" {
			f.Posture = p
		}
		if f.HP < 0 {
			f.Posture = Prone // unconscious from the last fight
		}
		f.Surprised = start.Props.Bool("surprised")
		f.FlatFooted = true // until its first turn (d20)
		st.Fighters[c.ID] = f
	}
	if len(st.Fighting()) < 2 {
		return nil, fray.Errorf(fray.EINVALID, "combatants must be on at least two sides")
	}
	return st, nil
}

// opponents reports whether a and b are on different sides.
func (s *State) opponents(a, b string) bool {
	ca, cb := s.Combatant(a), s.Combatant(b)
	return ca != nil && cb != nil && ca.Side != cb.Side
}

// occupant is whoever stands in c (out combatants stand nowhere), other
// than except.
func (s *State) occupant(c Cell, except string) *Fighter {
	for _, cb := range s.Combatants {
		f := s.Fighters[cb.ID]
		if f == nil || cb.ID == except || cb.Out || f.Dead {
			continue
		}
		if f.X == c.X && f.Y == c.Y {
			return f
		}
	}
	return nil
}

// able reports whether id may still act: in the fight, neither down nor
// out (a disabled combatant at 0 hit points still acts).
func (s *State) able(id string) bool {
	c := s.Combatant(id)
	f := s.Fighters[id]
	return c != nil && f != nil && !c.Out && !f.Down()
}

// canAct is the check of every command a combatant gives on its turn:
// one who is down cannot act.
func canAct(st *State, f *Fighter) error {
	if f.Down() {
		return fray.Errorf(fray.EILLEGAL, "%s is down and cannot act", st.NameOf(f.ID))
	}
	return nil
}

func cell(f *Fighter) Cell { return Cell{f.X, f.Y} }

// The engine's optional interfaces this ruleset implements besides the
// kit's.
var (
	_ sheet.Schemaer = Ruleset{}
	_ sheet.Deriver  = Ruleset{}
	_ sheet.Carrier  = Ruleset{}
)

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "d20 Modern on 5-ft squares: initiative, move and attack, posture and cover, hit points and dying, attacks of opportunity."
}
