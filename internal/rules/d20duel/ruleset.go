// Package d20duel is the "d20-duel" ruleset: advanced melee for a game
// that rolls a black and a white d20 together (seed 003), on pairwise
// engagements. Its heart is the exchange: every pair of engaged fighters
// chooses a stance — Default, Reckless or Defensive — secretly and at the
// same time, both are revealed, and the blows resolve together.
//
// Files follow the seed and the spec's reconstruction of the lost basic
// rules: the sheet in stats.go, tests and the automatic results of the
// black die in test.go, attacks (Strike and Guard, Grapple and Defense,
// Find Weakness, armour) in attack.go, wounds, Disarm and Immobilize in
// wounds.go and blows.go, stances and the exchange in exchange.go, the two
// distances and maneuvering in distances.go and maneuver.go, what fighters
// who are not engaged do in approach.go, the cinematic option in
// cinematic.go, GM commands in gm.go, pending work in flow.go and the
// switches in options.go.
package d20duel

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// ID is the ruleset's registry id.
const ID = "d20-duel"

// Ruleset is the d20-duel ruleset: the kit's, with the stat schema and
// carry-over.
type Ruleset struct {
	*kit.Ruleset[*State, *Fighter]
}

// Tx is a command being decided under d20-duel.
type Tx = kit.Tx[*State, *Fighter]

// New returns the d20-duel ruleset.
func New() engine.Ruleset { return ruleset }

var ruleset = Ruleset{kit.New(kit.Rules[*State, *Fighter]{
	ID: ID, Title: "Two-d20 duels", Options: optionSpecs,
	New: newEncounter, Start: newRound, Settle: settle, CanAct: inApproach,
	Board: project, Editor: editor, Actions: actions, Pass: kit.PassWith[*State, *Fighter](CmdWait),
	// The GM's commands name no actor and may be issued while decisions
	// wait: a duel is a chain of decisions, and these leave them alone
	// (the steps that resume re-check what they change).
	Commands: []kit.Command[*State, *Fighter]{
		{Kind: CmdEngage, Decide: decideEngage},
		{Kind: CmdShoot, Decide: decideShoot},
		{Kind: CmdTest, Decide: decideTest},
		{Kind: CmdRecover, Decide: decideRecover},
		{Kind: CmdWait, Decide: decideWait},
		{Kind: CmdSetDistance, GM: true, WhileWaiting: true, Decide: decideSetDistance},
		{Kind: CmdDriveBack, GM: true, WhileWaiting: true, Decide: decideDriveBack},
		{Kind: CmdRollTest, GM: true, WhileWaiting: true, Decide: decideRollTest},
	},
	Steps: []kit.StepSpec[*State, *Fighter]{
		kit.OnStep(stepExchange, func(tx *Tx, _ kit.None) error { return startExchange(tx) }),
		kit.OnStep(stepRoundEnd, func(tx *Tx, _ kit.None) error { return newRound(tx) }),
		kit.OnStep(stepAttack, runAttack),
		kit.OnStep(stepCounter, runCounter),
		kit.OnStep(stepFallout, func(tx *Tx, f falloutStep) error { return fallout(tx, f.Fighters) }),
		kit.OnStep(stepManeuver, runManeuver),
		kit.OnStep(stepOffer, offerManeuver),
		kit.OnStep(stepTest, rollAttempt),
		kit.OnStep(stepVeto, askVeto),
		kit.OnStep(stepActed, runActed),
	},
	// A sealed set of stances or a pair's maneuvers come together; every
	// other decision alone.
	Prompts: prompts,
	Decisions: []kit.DecisionSpec[*State, *Fighter]{
		kit.OnAnswers(DecStance, answerStances),
		kit.OnAnswers(DecManeuver, answerManeuver),
		kit.OnAnswer(DecDrop, answerDrop),
		kit.OnAnswer(DecRetreat, answerRetreat),
		kit.OnAnswer(DecHurt, answerHurt),
		kit.OnAnswer(DecVeto, answerVeto),
	},
	// Applying rolls nothing: everything it needs is in the event.
	Events: []kit.EventSpec[*State]{
		kit.OnEvent(engine.KindRoundStarted, func(st *State, _ kit.None) error { st.Exchange = nil; return nil }),
		kit.OnEvent(engine.KindCombatantOut, (*State).applyOut),
		kit.OnEvent(KindEngaged, (*State).applyEngaged),
		kit.OnEvent(KindDistance, (*State).applyDistance),
		kit.OnEvent(KindExchange, (*State).applyExchangeStarted),
		kit.OnEvent(KindStances, (*State).applyStances),
		kit.OnEvent(KindAttack, (*State).applyAttack),
		kit.OnEvent(KindDisarmed, (*State).applyDisarmed),
		kit.OnEvent(KindDriveBack, (*State).applyDriveBack),
		kit.OnEvent(KindRecovered, (*State).applyRecovered),
	},
})}

// State is a d20-duel encounter.
type State struct {
	engine.Base
	Fighters map[string]*Fighter `json:"fighters"`
	// Engagements are the engaged pairs, each at a distance.
	Engagements []Engagement `json:"engagements"`
	// Exchange is this round's exchange of blows, once it started.
	Exchange *Exchange `json:"exchange,omitempty"`
}

// Fighter implements kit.State.
func (s *State) Fighter(id string) *Fighter { return s.Fighters[id] }

// Event kinds of this ruleset (besides the engine's core kinds).
const (
	KindEngaged       = "engaged"
	KindDistance      = "distance-changed"
	KindExchange      = "exchange-started"
	KindStances       = "stances-revealed"
	KindAttack        = "attack"
	KindHeldBack      = "held-back"
	KindDisarmed      = "disarmed"
	KindManeuver      = "maneuver"
	KindTest          = "test"
	KindVetoed        = "vetoed"
	KindDriveBack     = "drive-back-set"
	KindRecovered     = "recovered"
	KindWaited        = "waited"
	KindDistanceStays = "distance-stays"
)

// Command kinds of this ruleset.
const (
	CmdEngage      = "engage"
	CmdShoot       = "shoot"
	CmdTest        = "test"
	CmdRecover     = "recover"
	CmdWait        = "wait"
	CmdSetDistance = "set-distance"
	CmdDriveBack   = "drive-back"
	CmdRollTest    = "roll-test"
)

// newEncounter builds an encounter: the sheets, the starting engagements.
func newEncounter(setup engine.Setup, base engine.Base) (*State, error) {
	if err := checkOptions(&base); err != nil {
		return nil, err
	}
	st := &State{Base: base, Fighters: map[string]*Fighter{}, Engagements: []Engagement{}}
	for _, c := range setup.Combatants {
		f, err := parseFighter(&st.Base, c.ID, c.Stats)
		if err != nil {
			return nil, err
		}
		if err := fitToFight(&st.Base, c, f); err != nil {
			return nil, err
		}
		start, err := board.ReadStart(c.Start)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %v", c.ID, err)
		}
		if start.Zone != "" || start.X != nil || start.Y != nil || start.Group != "" || len(start.Props) > 0 {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: a d20-duel start is empty; engagements are the battlefield's pairs", c.ID)
		}
		st.Fighters[c.ID] = f
	}
	if len(st.Fighting()) < 2 {
		return nil, fray.Errorf(fray.EINVALID, "combatants must be on at least two sides")
	}
	bf, err := board.Read(setup.Battlefield)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%v", err)
	}
	if bf.Model != "" && bf.Model != board.Pairs {
		return nil, fray.Errorf(fray.EINVALID, "battlefield: d20-duel uses the %q model, not %q", board.Pairs, bf.Model)
	}
	if len(bf.Zones) > 0 || len(bf.Melees) > 0 || len(bf.Cells) > 0 || bf.Width > 0 || bf.Height > 0 || len(bf.Distances) > 0 {
		return nil, fray.Errorf(fray.EINVALID, "battlefield: d20-duel has only pairs (no zones, cells or distances between sides)")
	}
	for i, p := range bf.Pairs {
		d, ok := parseDistance(p.Distance)
		if !ok {
			return nil, fray.Errorf(fray.EINVALID, "battlefield: pair %d: distance must be Striking or Grappling, not %q", i+1, p.Distance)
		}
		if err := st.canPair(p.A, p.B); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "battlefield: pair %d: %s", i+1, fray.ErrorMessage(err))
		}
		st.Engagements = append(st.Engagements, Engagement{A: p.A, B: p.B, Distance: d})
	}
	return st, nil
}

// settle ends the fight when one side is left, and the approach once
// everyone in it has acted, and starts the exchange.
func settle(tx *Tx) error {
	if ended, err := tx.LastStanding(); ended || err != nil {
		return err
	}
	b := tx.Base()
	if b.Waiting() || b.Label != PhaseApproach {
		return nil
	}
	for _, id := range slices.Clone(b.Acting) {
		if c := b.Combatant(id); c == nil || !c.Fighting() || c.Hidden || tx.State.engaged(id) {
			if err := tx.Acted(id, tx.State.NameOf(id)+" leaves the approach."); err != nil {
				return err
			}
		}
	}
	if len(tx.Base().Acting) > 0 {
		return nil
	}
	return tx.Run(engine.NewStep(stepExchange, nil), engine.NewStep(stepRoundEnd, nil))
}

// inApproach is the check of every fighter's command: it is for the
// approach.
func inApproach(st *State, _ *Fighter) error {
	if st.Label != PhaseApproach {
		return fray.Errorf(fray.EILLEGAL, "that is for the approach, before the exchange")
	}
	return nil
}

// applyOut ends the engagements of a fighter out of the fight.
func (s *State) applyOut(d engine.CombatantOut) error {
	s.Engagements = slices.DeleteFunc(s.Engagements, func(e Engagement) bool { return e.has(d.Combatant) })
	return nil
}

func (s *State) applyDriveBack(d DriveBackSet) error {
	f, err := kit.Found(s.Fighter(d.Fighter), d.Fighter)
	if err == nil {
		f.DriveBack = d.Blows
	}
	return err
}

func (s *State) applyRecovered(d Recovered) error {
	f, err := kit.Found(s.Fighter(d.Fighter), d.Fighter)
	if err == nil {
		f.Dropped = slices.DeleteFunc(f.Dropped, func(id string) bool { return id == d.Weapon })
	}
	return err
}

// fighting reports whether id is in the fight and standing.
func (s *State) fighting(id string) bool {
	c := s.Combatant(id)
	return c != nil && c.Fighting()
}

// applyAttack records an attack: the wound, a blow that only drove the
// target back, what the exchange needs to know later.
func (s *State) applyAttack(d Attack) error {
	t, err := kit.Found(s.Fighter(d.Target), d.Target)
	if err != nil {
		return err
	}
	if d.DrivenBack {
		t.DriveBack = max(t.DriveBack-1, 0)
	}
	if d.Wound != nil {
		w := *d.Wound
		w.Round, w.InExchange = s.Round, d.Mode != Ranged
		t.Wounds = append(t.Wounds, w)
	}
	if d.Crippled != "" && !slices.Contains(t.Traits, d.Crippled) {
		t.Traits = append(t.Traits, d.Crippled)
	}
	if x := s.Exchange; x != nil && d.Mode != Ranged {
		r := AttackRecord{Attacker: d.Attacker, Target: d.Target, Hit: d.Hit, CompleteMiss: d.CompleteMiss, Wounded: d.Wound != nil}
		if over := !d.Hit && d.Black > d.Strike && d.White > d.Strike; over != d.CompleteMiss {
			r.Overshot = &over
		}
		x.Attacks = append(x.Attacks, r)
	}
	return nil
}

// Disarmed is the data of KindDisarmed: a −3 Disarm knocked Weapon out of
// Fighter's hand.
type Disarmed struct {
	Fighter string `json:"fighter"`
	Weapon  string `json:"weapon"`
	By      string `json:"by"`
}

func (s *State) applyDisarmed(d Disarmed) error {
	f, err := kit.Found(s.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	if f.weapon(d.Weapon) == nil {
		return fmt.Errorf("%s has no weapon %q", d.Fighter, d.Weapon)
	}
	if !slices.Contains(f.Dropped, d.Weapon) {
		f.Dropped = append(f.Dropped, d.Weapon)
	}
	return nil
}

// DriveBackSet is the data of KindDriveBack, a secret event: the GM's
// count of blows that will only drive Fighter back.
type DriveBackSet struct {
	Fighter string `json:"fighter"`
	Blows   int    `json:"blows"`
}

// Recovered is the data of KindRecovered: Fighter picked a dropped weapon
// up again.
type Recovered struct {
	Fighter string `json:"fighter"`
	Weapon  string `json:"weapon"`
}

// The engine interfaces the ruleset implements besides the kit's.
var (
	_ sheet.Schemaer = Ruleset{}
	_ sheet.Deriver  = Ruleset{}
	_ sheet.Carrier  = Ruleset{}
)

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "Duels with a black and a white d20: stances chosen in secret, Find Weakness, Disarm and Immobilize, striking and grappling distances."
}
