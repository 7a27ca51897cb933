// Package d20under is the "d20-under" ruleset: Symbaroum combat with the
// house rules of seed 002 — player-facing d20 roll-under tests with
// second chances, Toughness against rolled armour, Pain Threshold and
// Critical Damage, death tests, a fixed initiative order with Delay, Take
// the Initiative and Quick Strike, free attacks, feats paid in Experience
// or Corruption, manoeuvres, traps, alchemical weapons, hit locations and
// armour segments, on a 2 m grid or on distance categories.
//
// Files follow the seed: the sheet in stats.go and fighter.go, success
// tests and who rolls an opposed one in successtest.go, initiative and the
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
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// ID is the ruleset's registry id.
const ID = "d20-under"

// Ruleset is the d20-under ruleset: the kit's, with the stat schema and
// carry-over.
type Ruleset struct {
	*kit.Ruleset[*State, *Fighter]
}

// Tx is a command being decided under d20-under.
type Tx = kit.Tx[*State, *Fighter]

// New returns the d20-under ruleset.
func New() engine.Ruleset { return ruleset }

var ruleset = Ruleset{kit.New(kit.Rules[*State, *Fighter]{
	ID: ID, Title: "Symbaroum — d20 under (grid or distance categories)", Options: optionSpecs,
	New: newEncounter, Start: startFight, Settle: settle, CanAct: canAct,
	Board: project, Editor: editor, Actions: actions, Pass: pass,
	Commands: []kit.Command[*State, *Fighter]{
		{Kind: CmdMove, Decide: decideMove}, {Kind: CmdEngage, Decide: decideEngage}, {Kind: CmdFlank, Decide: decideFlank},
		{Kind: CmdAdvance, Decide: decideAdvance}, {Kind: CmdRetreat, Decide: decideRetreat}, {Kind: CmdWithdraw, Decide: decideWithdraw},
		{Kind: CmdCharge, Decide: decideCharge}, {Kind: CmdAttack, Decide: decideAttack}, {Kind: CmdShoot, Decide: decideShoot},
		{Kind: CmdWhirlwind, Decide: decideWhirlwind}, {Kind: CmdDisarm, Decide: decideDisarm}, {Kind: CmdTackle, Decide: decideTackle},
		{Kind: CmdHold, Decide: decideHold}, {Kind: CmdRelease, Decide: decideRelease}, {Kind: CmdKnockOut, Decide: decideKnockOut},
		{Kind: CmdPushBack, Decide: decidePushBack}, {Kind: CmdFullDefence, Decide: decideFullDefence},
		{Kind: CmdFullOffense, Decide: decideFullOffense}, {Kind: CmdFirstAid, Decide: decideFirstAid},
		{Kind: CmdUseItem, Decide: decideUseItem}, {Kind: CmdPoison, Decide: decidePoison}, {Kind: CmdSetTrap, Decide: decideSetTrap},
		{Kind: CmdDisarmTrap, Decide: decideDisarmTrap}, {Kind: CmdBreakFree, Decide: decideBreakFree}, {Kind: CmdCurse, Decide: decideCurse},
		{Kind: CmdEndCurse, Decide: decideEndCurse}, {Kind: CmdQuake, Decide: decideQuake}, {Kind: CmdTerrify, Decide: decideTerrify},
		{Kind: CmdStand, Decide: decideStand}, {Kind: CmdSwitch, Decide: decideSwitch}, {Kind: CmdEndTurn, Decide: decideEndTurn},
		{Kind: CmdDelay, Decide: decideDelay}, {Kind: CmdWait, Decide: decideWait}, {Kind: CmdFeat, Decide: decideFeat},
		{Kind: CmdSteelyGaze, Decide: decideSteelyGaze}, {Kind: CmdDeathTest, Decide: decideDeathTest},
		{Kind: CmdTakeInit, Decide: decideTakeInit}, {Kind: CmdQuickStrike, Decide: decideQuickStrike},
		{Kind: CmdDeclared, Decide: decideDeclared}, {Kind: CmdSurpriseHit, Decide: decideSurpriseAttack},
		{Kind: CmdSurprisePass, Decide: decideSurprisePass},
		{Kind: GMBegin, GM: true, Decide: decideBegin}, {Kind: GMSurprise, GM: true, Decide: decideSurprise},
		{Kind: GMDistance, GM: true, Decide: decideSetDistance}, {Kind: GMCondition, GM: true, Decide: decideSetCondition},
		{Kind: GMAdjust, GM: true, Decide: decideAdjust}, {Kind: GMAmmo, GM: true, Decide: decideSetAmmo},
		{Kind: GMAdvantage, GM: true, Decide: decideGrantAdvantage},
		{Kind: GMPlaceTrap, GM: true, Decide: decidePlaceTrap}, {Kind: GMEndSurpise, GM: true, Decide: decideEndSurprise},
	},
	Steps: []kit.StepSpec[*State, *Fighter]{
		kit.OnStep(stepStrike, runStrike),
		kit.OnStep(stepDamage, runDamage),
		kit.OnStep(stepFree, runFreeAttack),
		kit.OnStep(stepMoveTo, runMoveTo),
		kit.OnStep(stepTrap, runTrap),
		kit.OnStep(stepAfter, runAfterMove),
		kit.OnStep(stepLadder, runLadderMove),
		kit.OnStep(stepSurpriseDone, func(tx *Tx, _ kit.None) error { return surpriseDone(tx) }),
	},
	Prompts:   prompts,
	Decisions: decisions,
	Events:    events,
})}

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

// Fighter implements kit.State.
func (s *State) Fighter(id string) *Fighter { return s.Fighters[id] }

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
	GMAmmo       = "set-ammunition"
	GMAdvantage  = "grant-advantage"
	GMPlaceTrap  = "place-trap"
	GMEndSurpise = "end-surprise"
)

// newEncounter reads the battlefield (a grid of 2 m squares or distance
// categories), each combatant's stats and start.
func newEncounter(setup engine.Setup, base engine.Base) (*State, error) {
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

// applyOut clears what an out combatant held: melees, holds, curses.
func applyOut(st *State, d engine.CombatantOut) error {
	id := d.Combatant
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
	return nil
}

// canAct is the check of every command a fighter gives on its turn: the
// first round has begun, and it is not down.
func canAct(st *State, f *Fighter) error {
	if st.Phase != "" {
		return fray.Errorf(fray.EILLEGAL, "the first round has not begun: %s", st.phaseWords())
	}
	if st.Combatant(f.ID).Down {
		return fray.Errorf(fray.EILLEGAL, "%s is down: only a death test is possible", st.NameOf(f.ID))
	}
	return nil
}

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "Symbaroum: players roll a d20 under an attribute, with second chances, Toughness against armour, pain and death tests — on a 2 m grid or distance categories."
}

// pass is how a fighter's turn passes when its player's time runs out: a
// death test for one dying (the only thing it may do), else the end of
// the turn.
func pass(st *State, f *Fighter) string {
	if st.Combatant(f.ID).Down {
		if f.Dying {
			return CmdDeathTest
		}
		return ""
	}
	return CmdEndTurn
}
