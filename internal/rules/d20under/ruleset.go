// Package d20under is the "d20-under" ruleset: Symbaroum combat with the
// house rules of seed 002 — player-facing d20 roll-under tests with
// second chances, Toughness against rolled armour, Pain Threshold and
// Critical Damage, death tests, a fixed initiative order with Delay, Take
// the Initiative and Quick Strike, free attacks, feats paid in Experience
// or Corruption, manoeuvres, traps, alchemical weapons, hit locations and
// armour segments, on a 2 m grid or on distance categories.
//
// Files follow the seed: the sheet in stats.go and fighter.go, success
// tests in successtest.go, who rolls in opposed.go, initiative and the
// turn cycle in initiative.go and turn.go, positions in grid.go and
// ladder.go, movement actions in movement.go, attacks in attack.go,
// damage, pain and dying in damage.go, free attacks in freeattack.go,
// ammunition in ammo.go, feats in feats.go, manoeuvres in manoeuvres.go,
// traps in traps.go, alchemical weapons in alchemy.go, hit locations in
// locations.go, the clarifications in clarifications.go, surprise in
// surprise.go, GM commands in gm.go, decisions and steps in flow.go, the
// switches in options.go.
package d20under

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// ID is the ruleset's registry id.
const ID = "d20-under"

// Ruleset is the d20-under engine.Ruleset.
type Ruleset struct{}

// New returns the d20-under ruleset.
func New() engine.Ruleset { return Ruleset{} }

// ID implements engine.Ruleset.
func (Ruleset) ID() string { return ID }

// Title implements engine.Ruleset.
func (Ruleset) Title() string { return "Symbaroum — d20 under (grid or distance categories)" }

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "Symbaroum: players roll a d20 under an attribute, with second chances, Toughness against armour, pain and death tests — on a 2 m grid or distance categories."
}

// Options implements engine.Ruleset.
func (Ruleset) Options() []engine.OptionSpec { return slices.Clone(optionSpecs) }

// State is a d20-under encounter.
type State struct {
	engine.Base
	// Model is the position model: board.Grid or board.Ladder.
	Model    string              `json:"model"`
	Grid     *Grid               `json:"grid,omitempty"`
	Ladder   *Ladder             `json:"ladder,omitempty"`
	Fighters map[string]*Fighter `json:"fighters"`
	// Melee lists who is engaged with whom on the ladder (on the grid,
	// standing next to each other is being engaged).
	Melee []Pair `json:"melee,omitempty"`
	// Initiative is the encounter's fixed order (Quick, Vigilant, a d20),
	// with the later slots chosen in the first round; Tiebreak the d20s.
	Initiative []string       `json:"initiative"`
	Tiebreak   map[string]int `json:"tiebreak,omitempty"`
	Traps      []Trap         `json:"traps,omitempty"`
	TrapCount  int            `json:"trapCount,omitempty"`
	// Phase is "declare" before the first round, "surprise" during the
	// ambushers' free attacks, "" otherwise.
	Phase string `json:"phase,omitempty"`
	// Ambush is the side that surprised the others; Surprised who it
	// surprised.
	Ambush        string   `json:"ambush,omitempty"`
	Surprised     []string `json:"surprised,omitempty"`
	SurpriseTried bool     `json:"surpriseTried,omitempty"`
	// ReclaimAsked is set once the GM was asked about searching for
	// arrows at the end of the fight.
	ReclaimAsked bool `json:"reclaimAsked,omitempty"`
}

// Pair is two combatants engaged in melee (ladder model).
type Pair struct {
	A string `json:"a"`
	B string `json:"b"`
}

func (p Pair) has(id string) bool { return p.A == id || p.B == id }

func state(tx *engine.Tx) *State { return tx.State().(*State) }

// Command kinds.
const (
	CmdMove         = "move"
	CmdEngage       = "engage"
	CmdFlank        = "flank"
	CmdAdvance      = "advance"
	CmdRetreat      = "retreat"
	CmdWithdraw     = "withdraw"
	CmdCharge       = "charge"
	CmdAttack       = "attack"
	CmdShoot        = "shoot"
	CmdWhirlwind    = "whirlwind"
	CmdDisarm       = "disarm"
	CmdTackle       = "tackle"
	CmdHold         = "hold"
	CmdRelease      = "release"
	CmdKnockOut     = "knock-out"
	CmdPushBack     = "push-back"
	CmdFullDefence  = "full-defence"
	CmdFullOffense  = "full-offense"
	CmdFirstAid     = "first-aid"
	CmdUseItem      = "use-item"
	CmdPoison       = "poison"
	CmdSetTrap      = "set-trap"
	CmdDisarmTrap   = "disarm-trap"
	CmdBreakFree    = "break-free"
	CmdCurse        = "curse"
	CmdEndCurse     = "end-curse"
	CmdQuake        = "quake"
	CmdTerrify      = "terrify"
	CmdStand        = "stand"
	CmdSwitch       = "switch-weapon"
	CmdEndTurn      = "end-turn"
	CmdDelay        = "delay"
	CmdWait         = "wait"
	CmdFeat         = "feat"
	CmdSteelyGaze   = "steely-gaze"
	CmdDeathTest    = "death-test"
	CmdTakeInit     = "take-initiative"
	CmdQuickStrike  = "quick-strike"
	CmdDeclared     = "declare-done"
	CmdSurpriseHit  = "surprise-attack"
	CmdSurprisePass = "surprise-pass"

	GMBegin      = "begin"
	GMSurprise   = "surprise"
	GMDistance   = "set-distance"
	GMCondition  = "set-condition"
	GMAdjust     = "adjust"
	GMAdvantage  = "grant-advantage"
	GMPlaceTrap  = "place-trap"
	GMEndSurpise = "end-surprise"
)

var fighterCommands = []string{CmdMove, CmdEngage, CmdFlank, CmdAdvance, CmdRetreat, CmdWithdraw, CmdCharge, CmdAttack,
	CmdShoot, CmdWhirlwind, CmdDisarm, CmdTackle, CmdHold, CmdRelease, CmdKnockOut, CmdPushBack, CmdFullDefence,
	CmdFullOffense, CmdFirstAid, CmdUseItem, CmdPoison, CmdSetTrap, CmdDisarmTrap, CmdBreakFree, CmdCurse, CmdEndCurse,
	CmdQuake, CmdTerrify, CmdStand, CmdSwitch, CmdEndTurn, CmdDelay, CmdWait, CmdFeat, CmdSteelyGaze, CmdDeathTest,
	CmdTakeInit, CmdQuickStrike, CmdDeclared, CmdSurpriseHit, CmdSurprisePass}

var gmCommands = []string{GMBegin, GMSurprise, GMDistance, GMCondition, GMAdjust, GMAdvantage, GMPlaceTrap, GMEndSurpise}

// Commands implements engine.Ruleset.
func (Ruleset) Commands() []engine.CommandSpec {
	var out []engine.CommandSpec
	for _, k := range fighterCommands {
		out = append(out, engine.CommandSpec{Kind: k})
	}
	for _, k := range gmCommands {
		out = append(out, engine.CommandSpec{Kind: k, GM: true})
	}
	return out
}

// New implements engine.Ruleset: it reads the battlefield (a grid of 2 m
// squares or distance categories), each combatant's stats and start.
func (Ruleset) New(setup engine.Setup, base engine.Base) (engine.State, error) {
	bf, err := board.Read(setup.Battlefield)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%v", err)
	}
	st := &State{Base: base, Fighters: map[string]*Fighter{}}
	switch bf.Model {
	case "", board.Grid:
		st.Model = board.Grid
		if st.Grid, err = readGrid(bf); err != nil {
			return nil, err
		}
	case board.Ladder:
		st.Model = board.Ladder
		if st.Ladder, err = readLadder(bf, base.Sides); err != nil {
			return nil, err
		}
	default:
		return nil, fray.Errorf(fray.EINVALID, "battlefield model %q must be %q (2 m squares) or %q (distance categories)", bf.Model, board.Grid, board.Ladder)
	}
	groups := map[string][]string{}
	for _, c := range setup.Combatants {
		p, err := parseStats(c.ID, c.Stats)
		if err != nil {
			return nil, err
		}
		if err := fitToFight(c.ID, p); err != nil {
			return nil, err
		}
		f := newFighter(c.ID, p)
		start, err := board.ReadStart(c.Start)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %v", c.ID, err)
		}
		if err := st.place(f, c.Combatant, start); err != nil {
			return nil, err
		}
		if start.Group != "" {
			groups[start.Group] = append(groups[start.Group], c.ID)
		}
		st.Fighters[c.ID] = f
	}
	for _, c := range setup.Combatants {
		f := st.Fighters[c.ID]
		if f.Familiar != "" {
			fam := st.Combatant(f.Familiar)
			if fam == nil || fam.Side != c.Side {
				return nil, fray.Errorf(fray.EINVALID, "combatant %q: familiar %q must be a combatant on the same side", c.ID, f.Familiar)
			}
		}
	}
	if err := st.startMelees(groups); err != nil {
		return nil, err
	}
	if len(st.Fighting()) < 2 {
		return nil, fray.Errorf(fray.EINVALID, "combatants must be on at least two sides")
	}
	return st, nil
}

// newFighter builds a fighter from its parsed stats: Toughness after the
// damage it carries, its weapon in hand drawn.
func newFighter(id string, p *parsed) *Fighter {
	f := &Fighter{ID: id, Sheet: p.Sheet, Toughness: p.Sheet.MaxToughness - p.Damage, XP: p.XP, Permanent: p.Permanent,
		Temporary: p.Temporary, Drawn: true, ShieldUp: p.Sheet.Shield != "", Wielded: unarmedWeapon.ID}
	f.Items, f.Ammo, f.Special, f.Units = nonEmpty(p.Items), nonEmpty(p.Ammo), nonEmpty(p.Special), nonEmpty(p.Units)
	f.Critical = p.Critical && f.PainThreshold > 0
	for _, w := range f.Weapons {
		if !w.kind().Natural {
			f.Wielded = w.ID
			break
		}
	}
	if f.Wielded == unarmedWeapon.ID {
		if nat, ok := f.natural(); ok {
			f.Wielded = nat.ID
		}
	}
	if w, _ := f.Sheet.Weapon(f.Wielded); f.ShieldUp && f.Shield == "shield" && (w.kind().Ranged || w.kind().Heavy) {
		f.ShieldUp = false // a two-handed weapon in hand: the shield is slung
	}
	return f
}

func nonEmpty(m map[string]int) map[string]int {
	if len(m) == 0 {
		return nil
	}
	return m
}

// place reads a combatant's start: a cell on the grid, moves ahead of its
// side on the ladder; props say whether the weapon is drawn, which one is
// in hand and whether it starts prone.
func (s *State) place(f *Fighter, c engine.Combatant, start board.Start) error {
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINVALID, "combatant %q: "+format, append([]any{c.ID}, args...)...)
	}
	for k := range start.Props {
		if !slices.Contains([]string{"drawn", "weapon", "prone", "ahead"}, k) {
			return bad("start has no property %q (drawn, weapon, prone, ahead)", k)
		}
	}
	if _, ok := start.Props["drawn"]; ok {
		f.Drawn = start.Props.Bool("drawn")
	}
	if w := start.Props.String("weapon"); w != "" {
		weapon, ok := f.Sheet.Weapon(w)
		if !ok {
			return bad("starts with unknown weapon %q in hand", w)
		}
		f.Wielded = weapon.ID
		k := weapon.kind()
		f.ShieldUp = f.Shield != "" && !(f.Shield == "shield" && (k.Ranged || k.Heavy))
	}
	f.Prone = start.Props.Bool("prone")
	switch s.Model {
	case board.Grid:
		if start.X == nil || start.Y == nil {
			return bad("needs a start cell {\"x\":…,\"y\":…}")
		}
		x, y := *start.X, *start.Y
		if !s.Grid.inside(x, y) {
			return bad("starts at %d,%d, outside the %d×%d grid", x, y, s.Grid.Width, s.Grid.Height)
		}
		if s.Grid.wall(x, y) {
			return bad("starts inside a wall at %d,%d", x, y)
		}
		for id, g := range s.Fighters {
			if g.X == x && g.Y == y {
				return bad("starts on %s's square %d,%d", id, x, y)
			}
		}
		f.X, f.Y = x, y
	case board.Ladder:
		if start.X != nil || start.Y != nil || start.Zone != "" {
			return bad("the distance categories take no cell or zone, only props.ahead and a melee group")
		}
		if n := start.Props.Int("ahead"); n != 0 {
			if n < 0 || n > 10 {
				return bad("ahead must be 0–10 moves")
			}
			for _, sd := range s.Sides {
				if sd.ID != c.Side {
					f.Ahead = setInt(f.Ahead, sd.ID, n, false)
				}
			}
		}
	}
	return nil
}

// Decode implements engine.Ruleset.
func (Ruleset) Decode(snapshot []byte) (engine.State, error) {
	var st State
	if err := json.Unmarshal(snapshot, &st); err != nil {
		return nil, fmt.Errorf("decode d20-under state: %w", err)
	}
	if st.Fighters == nil {
		st.Fighters = map[string]*Fighter{}
	}
	return &st, nil
}

// Start implements engine.Ruleset: roll the tie-breaks, fix the order and
// open the declarations before the first round.
func (Ruleset) Start(tx *engine.Tx) error { return startFight(tx) }

// Decide implements engine.Ruleset.
func (Ruleset) Decide(tx *engine.Tx, cmd engine.Command) error {
	if h, ok := handlers[cmd.Kind]; ok {
		return h(tx, cmd)
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

// handlers maps each command to its decider; filled by init so the
// deciders may refer to the table.
var handlers map[string]func(*engine.Tx, engine.Command) error

func init() {
	handlers = map[string]func(*engine.Tx, engine.Command) error{
		CmdMove: decideMove, CmdEngage: decideEngage, CmdFlank: decideFlank, CmdAdvance: decideAdvance,
		CmdRetreat: decideRetreat, CmdWithdraw: decideWithdraw, CmdCharge: decideCharge, CmdAttack: decideAttack,
		CmdShoot: decideShoot, CmdWhirlwind: decideWhirlwind, CmdDisarm: decideDisarm, CmdTackle: decideTackle,
		CmdHold: decideHold, CmdRelease: decideRelease, CmdKnockOut: decideKnockOut, CmdPushBack: decidePushBack,
		CmdFullDefence: decideFullDefence, CmdFullOffense: decideFullOffense, CmdFirstAid: decideFirstAid,
		CmdUseItem: decideUseItem, CmdPoison: decidePoison, CmdSetTrap: decideSetTrap, CmdDisarmTrap: decideDisarmTrap,
		CmdBreakFree: decideBreakFree, CmdCurse: decideCurse, CmdEndCurse: decideEndCurse, CmdQuake: decideQuake,
		CmdTerrify: decideTerrify, CmdStand: decideStand, CmdSwitch: decideSwitch, CmdEndTurn: decideEndTurn,
		CmdDelay: decideDelay, CmdWait: decideWait, CmdFeat: decideFeat, CmdSteelyGaze: decideSteelyGaze,
		CmdDeathTest: decideDeathTest, CmdTakeInit: decideTakeInit, CmdQuickStrike: decideQuickStrike,
		CmdDeclared: decideDeclared, CmdSurpriseHit: decideSurpriseAttack, CmdSurprisePass: decideSurprisePass,
		GMBegin: decideBegin, GMSurprise: decideSurprise, GMDistance: decideSetDistance, GMCondition: decideSetCondition,
		GMAdjust: decideAdjust, GMAdvantage: decideGrantAdvantage, GMPlaceTrap: decidePlaceTrap, GMEndSurpise: decideEndSurprise,
	}
}

// Apply implements engine.Ruleset. It rolls nothing and decides nothing:
// core turn-order events reset the round's and the turn's ledgers, and the
// ruleset's events set exactly what they carry.
func (Ruleset) Apply(s engine.State, ev engine.Event) error {
	st, ok := s.(*State)
	if !ok {
		return fmt.Errorf("d20-under: state is %T", s)
	}
	switch ev.Kind {
	case engine.KindRoundStarted:
		applyRoundStarted(st)
		return nil
	case engine.KindTurnStarted:
		var d engine.TurnStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		applyTurnStarted(st, d.Combatant)
		return nil
	case engine.KindCombatantOut:
		var d engine.CombatantOut
		if err := ev.Decode(&d); err != nil {
			return err
		}
		applyOut(st, d.Combatant)
		return nil
	}
	if isCoreKind(ev.Kind) {
		return nil
	}
	return applyEvent(st, ev)
}

func isCoreKind(kind string) bool {
	switch kind {
	case engine.KindStarted, engine.KindRoundStarted, engine.KindTurnStarted, engine.KindOrderChanged, engine.KindActed,
		engine.KindInterruptStarted, engine.KindInterruptEnded, engine.KindDecisionOpened, engine.KindDecisionResolved,
		engine.KindDecisionAnswered, engine.KindDecisionSealed, engine.KindDecisionsRevealed, engine.KindCombatantOut,
		engine.KindCombatantBack, engine.KindCombatantDown, engine.KindCombatantUp, engine.KindRevealed,
		engine.KindPaused, engine.KindResumed, engine.KindEnded, engine.KindRewound, engine.KindEventRevealed:
		return true
	}
	return false
}

// applyOut clears what an out combatant held: melees, holds, curses.
func applyOut(st *State, id string) {
	st.Melee = slices.DeleteFunc(st.Melee, func(p Pair) bool { return p.has(id) })
	for _, f := range st.Fighters {
		if f.HeldBy == id {
			f.HeldBy = ""
		}
		if f.Holding == id {
			f.Holding = ""
		}
		if f.CursedBy == id {
			f.CursedBy = ""
		}
		if f.Cursing == id {
			f.Cursing = ""
		}
	}
	if f := st.Fighters[id]; f != nil {
		f.Holding, f.HeldBy, f.Cursing, f.Moving = "", "", "", 0
	}
}

// actor decodes cmd's arguments into args (nil: none) and returns the
// acting fighter, whose turn it must be.
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
	st := state(tx)
	f := st.Fighters[cmd.Actor]
	if f == nil {
		return nil, fray.Errorf(fray.ENOTFOUND, "no combatant %q", cmd.Actor)
	}
	if st.Phase != "" {
		return nil, fray.Errorf(fray.EILLEGAL, "the first round has not begun: %s", st.phaseWords())
	}
	if st.Combatant(f.ID).Down {
		return nil, fray.Errorf(fray.EILLEGAL, "%s is down: only a death test is possible", st.NameOf(f.ID))
	}
	return f, nil
}

// target finds a combatant the viewer can see and who is still in the
// fight; one they cannot see does not exist for them.
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

// enemyTarget is target, an enemy of f.
func enemyTarget(tx *engine.Tx, f *Fighter, id string) (*Fighter, error) {
	t, err := target(tx, id)
	if err != nil {
		return nil, err
	}
	if !state(tx).enemies(f.ID, t.ID) {
		return nil, fray.Errorf(fray.EILLEGAL, "%s is on your side", state(tx).NameOf(t.ID))
	}
	return t, nil
}
