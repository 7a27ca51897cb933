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
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// ID is the ruleset's registry id.
const ID = "d20-tactical"

// Ruleset is the d20-tactical engine.Ruleset.
type Ruleset struct{}

// New returns the ruleset.
func New() engine.Ruleset { return Ruleset{} }

// ID implements engine.Ruleset.
func (Ruleset) ID() string { return ID }

// Title implements engine.Ruleset.
func (Ruleset) Title() string { return "d20 Modern — tactical grid" }

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "d20 Modern on 5-ft squares: initiative, move and attack, posture and cover, hit points and dying, attacks of opportunity."
}

// Options implements engine.Ruleset.
func (Ruleset) Options() []engine.OptionSpec {
	out := make([]engine.OptionSpec, len(optionSpecs))
	copy(out, optionSpecs)
	return out
}

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
}

func state(tx *engine.Tx) *State { return tx.State().(*State) }

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

// Commands implements engine.Ruleset.
func (Ruleset) Commands() []engine.CommandSpec {
	var out []engine.CommandSpec
	for _, k := range []string{CmdMove, CmdStep, CmdRun, CmdPosture, CmdJump, CmdCharge, CmdAttack, CmdFullAttack, CmdObject,
		CmdReload, CmdClearJam, CmdPickUp, CmdTreat, CmdDelay, CmdReady, CmdInterrupt, CmdEndTurn} {
		out = append(out, engine.CommandSpec{Kind: k})
	}
	for _, k := range []string{CmdSetCover, CmdDamage, CmdHeal, CmdArmour, CmdLifePoints, CmdClearEffects} {
		out = append(out, engine.CommandSpec{Kind: k, GM: true})
	}
	return out
}

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

// New implements engine.Ruleset: it reads the grid, each combatant's stats
// and starting square and posture.
func (Ruleset) New(setup engine.Setup, base engine.Base) (engine.State, error) {
	g, err := parseGrid(setup.Battlefield)
	if err != nil {
		return nil, err
	}
	st := &State{Base: base, Grid: g, Fighters: map[string]*Fighter{}}
	lp := optInt(&base, OptLifePoints)
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
		if !g.inside(f.X, f.Y) {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q starts off the grid (%d,%d)", c.ID, f.X, f.Y)
		}
		if t := g.at(f.X, f.Y); !t.walkable() {
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

// Decode implements engine.Ruleset.
func (Ruleset) Decode(snapshot []byte) (engine.State, error) {
	var st State
	if err := json.Unmarshal(snapshot, &st); err != nil {
		return nil, fmt.Errorf("decode d20-tactical state: %w", err)
	}
	if st.Fighters == nil {
		st.Fighters = map[string]*Fighter{}
	}
	return &st, nil
}

// Decide implements engine.Ruleset.
func (Ruleset) Decide(tx *engine.Tx, cmd engine.Command) error {
	switch cmd.Kind {
	case CmdMove:
		return decideMove(tx, cmd)
	case CmdStep:
		return decideStep(tx, cmd)
	case CmdRun:
		return decideRun(tx, cmd)
	case CmdPosture:
		return decidePosture(tx, cmd)
	case CmdJump:
		return decideJump(tx, cmd)
	case CmdCharge:
		return decideCharge(tx, cmd)
	case CmdAttack:
		return decideAttack(tx, cmd, false)
	case CmdFullAttack:
		return decideAttack(tx, cmd, true)
	case CmdObject:
		return decideObject(tx, cmd)
	case CmdReload, CmdClearJam, CmdPickUp:
		return decideHandle(tx, cmd)
	case CmdTreat:
		return decideTreat(tx, cmd)
	case CmdDelay:
		return decideDelay(tx, cmd)
	case CmdReady:
		return decideReady(tx, cmd)
	case CmdInterrupt:
		return decideInterrupt(tx, cmd)
	case CmdEndTurn:
		return decideEndTurn(tx, cmd)
	case CmdSetCover:
		return decideSetCover(tx, cmd)
	case CmdDamage:
		return decideGMDamage(tx, cmd)
	case CmdHeal:
		return decideHeal(tx, cmd)
	case CmdArmour:
		return decideArmour(tx, cmd)
	case CmdLifePoints:
		return decideLifePoints(tx, cmd)
	case CmdClearEffects:
		return decideClearEffects(tx, cmd)
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

// fighter returns the fighter with id or an error for the applier.
func (s *State) fighter(id string) (*Fighter, error) {
	if f := s.Fighters[id]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("d20-tactical: no fighter %q", id)
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

// actor decodes cmd's arguments into args (nil: none) and returns the
// fighter acting, who must have the floor.
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
	if f.Down() {
		return nil, fray.Errorf(fray.EILLEGAL, "%s is down and cannot act", st.NameOf(f.ID))
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
		return nil, fray.Errorf(fray.EILLEGAL, "%s is out of the fight", st.NameOf(id))
	}
	return f, nil
}

func cell(f *Fighter) Cell { return Cell{f.X, f.Y} }

// decodeApply decodes an event's data into a T and applies it with fn.
func decodeApply[T any](ev engine.Event, fn func(T) error) error {
	var d T
	if err := ev.Decode(&d); err != nil {
		return err
	}
	return fn(d)
}

// The engine's optional interfaces this ruleset implements.
var (
	_ engine.Stepper = Ruleset{}
	_ engine.Settler = Ruleset{}
	_ engine.Boarder = Ruleset{}
	_ sheet.Schemaer = Ruleset{}
	_ sheet.Deriver  = Ruleset{}
	_ sheet.Carrier  = Ruleset{}
)
