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
// wounds.go and disarm.go, stances and the exchange in exchange.go, the two
// distances and maneuvering in distances.go and maneuver.go, what fighters
// who are not engaged do in approach.go, the cinematic option in
// cinematic.go, GM commands in gm.go, pending work in flow.go and the
// switches in options.go.
package d20duel

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// ID is the ruleset's registry id.
const ID = "d20-duel"

// Ruleset is the d20-duel engine.Ruleset.
type Ruleset struct{}

// New returns the d20-duel ruleset.
func New() engine.Ruleset { return Ruleset{} }

// ID implements engine.Ruleset.
func (Ruleset) ID() string { return ID }

// Title implements engine.Ruleset.
func (Ruleset) Title() string { return "Two-d20 duels" }

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "Duels with a black and a white d20: stances chosen in secret, Find Weakness, Disarm and Immobilize, striking and grappling distances."
}

// Options implements engine.Ruleset.
func (Ruleset) Options() []engine.OptionSpec { return slices.Clone(optionSpecs) }

// State is a d20-duel encounter.
type State struct {
	engine.Base
	Fighters map[string]*Fighter `json:"fighters"`
	// Engagements are the engaged pairs, each at a distance.
	Engagements []Engagement `json:"engagements"`
	// Exchange is this round's exchange of blows, once it started.
	Exchange *Exchange `json:"exchange,omitempty"`
}

func state(tx *engine.Tx) *State { return tx.State().(*State) }

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

// Commands implements engine.Ruleset. The GM's commands name no actor and
// may be issued while decisions wait: a duel is a chain of decisions, and
// these leave them alone (the steps that resume re-check what they change).
func (Ruleset) Commands() []engine.CommandSpec {
	out := []engine.CommandSpec{
		{Kind: CmdSetDistance, GM: true, WhileWaiting: true},
		{Kind: CmdDriveBack, GM: true, WhileWaiting: true},
		{Kind: CmdRollTest, GM: true, WhileWaiting: true},
	}
	for _, k := range []string{CmdEngage, CmdShoot, CmdTest, CmdRecover, CmdWait} {
		out = append(out, engine.CommandSpec{Kind: k})
	}
	return out
}

// New implements engine.Ruleset: the sheets, the starting engagements.
func (Ruleset) New(setup engine.Setup, base engine.Base) (engine.State, error) {
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

// Decode implements engine.Ruleset.
func (Ruleset) Decode(snapshot []byte) (engine.State, error) {
	var st State
	if err := json.Unmarshal(snapshot, &st); err != nil {
		return nil, fmt.Errorf("decode d20-duel state: %w", err)
	}
	if st.Fighters == nil {
		st.Fighters = map[string]*Fighter{}
	}
	if st.Engagements == nil {
		st.Engagements = []Engagement{}
	}
	return &st, nil
}

// Start implements engine.Ruleset: the first round.
func (Ruleset) Start(tx *engine.Tx) error { return newRound(tx) }

// Decide implements engine.Ruleset.
func (Ruleset) Decide(tx *engine.Tx, cmd engine.Command) error {
	switch cmd.Kind {
	case CmdEngage:
		return decideEngage(tx, cmd)
	case CmdShoot:
		return decideShoot(tx, cmd)
	case CmdTest:
		return decideTest(tx, cmd)
	case CmdRecover:
		return decideRecover(tx, cmd)
	case CmdWait:
		return decideWait(tx, cmd)
	case CmdSetDistance:
		return decideSetDistance(tx, cmd)
	case CmdDriveBack:
		return decideDriveBack(tx, cmd)
	case CmdRollTest:
		return decideRollTest(tx, cmd)
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

// Settle implements engine.Settler: end the fight when one side is left;
// end the approach once everyone in it has acted, and start the exchange.
func (Ruleset) Settle(tx *engine.Tx) error {
	if ended, err := tx.LastStanding(); ended || err != nil {
		return err
	}
	b := tx.Base()
	if b.Waiting() || b.Label != PhaseApproach {
		return nil
	}
	for _, id := range slices.Clone(b.Acting) {
		if c := b.Combatant(id); c == nil || !c.Fighting() || c.Hidden || state(tx).engaged(id) {
			if err := tx.Acted(id, state(tx).NameOf(id)+" leaves the approach."); err != nil {
				return err
			}
		}
	}
	if len(tx.Base().Acting) > 0 {
		return nil
	}
	return tx.Run(engine.NewStep(stepExchange, nil), engine.NewStep(stepRoundEnd, nil))
}

// Apply implements engine.Ruleset. It rolls nothing: everything it needs
// is in the event.
func (Ruleset) Apply(s engine.State, ev engine.Event) error {
	st, ok := s.(*State)
	if !ok {
		return fmt.Errorf("d20-duel: state is %T", s)
	}
	switch ev.Kind {
	case engine.KindRoundStarted:
		st.Exchange = nil
	case engine.KindCombatantOut:
		return decodeApply(ev, func(d engine.CombatantOut) error {
			st.Engagements = slices.DeleteFunc(st.Engagements, func(e Engagement) bool { return e.has(d.Combatant) })
			return nil
		})
	case KindEngaged:
		return decodeApply(ev, func(d Engaged) error { return st.applyEngaged(d) })
	case KindDistance:
		return decodeApply(ev, func(d DistanceChanged) error { return st.applyDistance(d) })
	case KindExchange:
		return decodeApply(ev, func(d ExchangeStarted) error { st.applyExchangeStarted(d); return nil })
	case KindStances:
		return decodeApply(ev, func(d StancesRevealed) error { return st.applyStances(d) })
	case KindAttack:
		return decodeApply(ev, func(d Attack) error { return st.applyAttack(d) })
	case KindDisarmed:
		return decodeApply(ev, func(d Disarmed) error { return st.applyDisarmed(d) })
	case KindDriveBack:
		return decodeApply(ev, func(d DriveBackSet) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.DriveBack = d.Blows
			}
			return err
		})
	case KindRecovered:
		return decodeApply(ev, func(d Recovered) error {
			f, err := st.fighter(d.Fighter)
			if err == nil {
				f.Dropped = slices.DeleteFunc(f.Dropped, func(id string) bool { return id == d.Weapon })
			}
			return err
		})
	}
	return nil
}

// decodeApply decodes an event's data into a T and applies it with fn.
func decodeApply[T any](ev engine.Event, fn func(T) error) error {
	var d T
	if err := ev.Decode(&d); err != nil {
		return fmt.Errorf("d20-duel: %s: %w", ev.Kind, err)
	}
	return fn(d)
}

// fighter returns the fighter with id, or an error for the applier.
func (s *State) fighter(id string) (*Fighter, error) {
	if f := s.Fighters[id]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("d20-duel: no fighter %q", id)
}

// fighting reports whether id is in the fight and standing.
func (s *State) fighting(id string) bool {
	c := s.Combatant(id)
	return c != nil && c.Fighting()
}

// applyAttack records an attack: the wound, a blow that only drove the
// target back, what the exchange needs to know later.
func (s *State) applyAttack(d Attack) error {
	t, err := s.fighter(d.Target)
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
		x.Attacks = append(x.Attacks, AttackRecord{Attacker: d.Attacker, Target: d.Target, Hit: d.Hit,
			CompleteMiss: d.CompleteMiss, Wounded: d.Wound != nil})
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
	f, err := s.fighter(d.Fighter)
	if err != nil {
		return err
	}
	if f.weapon(d.Weapon) == nil {
		return fmt.Errorf("d20-duel: %s has no weapon %q", d.Fighter, d.Weapon)
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

// The engine interfaces the ruleset implements besides engine.Ruleset.
var (
	_ engine.Stepper = Ruleset{}
	_ engine.Settler = Ruleset{}
	_ engine.Boarder = Ruleset{}
	_ sheet.Schemaer = Ruleset{}
	_ sheet.Deriver  = Ruleset{}
	_ sheet.Carrier  = Ruleset{}
)
