// Package kitskirmish is the "kit-skirmish" ruleset, the smallest whole
// one the kit makes: fighters in one field take turns striking once at an
// opponent with a d6 — 4 or more hits — and the one struck may try to
// parry (5 or more, paid for with its next strike) before it loses a hit
// point; at 0 it is out, and the fight ends when one side is left. It is
// built with package kit and the core's types alone and
// registered with one line in rules.Registry, the proof that a new ruleset
// is one package and one registration line (docs/architecture.md, "Adding
// a ruleset"); its guide is docs/rules/kit-skirmish.md.
package kitskirmish

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// ID is the ruleset's registry id.
const ID = "kit-skirmish"

// Kinds of commands, events and decisions.
const (
	CmdStrike  = "strike"
	CmdEndTurn = "end-turn"
	CmdHeal    = "heal"

	KindHit       = "hit"
	KindMissed    = "missed"
	KindStruck    = "struck"
	KindParried   = "parried"
	KindGuarded   = "guarded"
	KindHealed    = "healed"
	KindTurnEnded = "turn-ended"

	DecParry = "parry"

	// OptHP is how many hit points a fighter starts with.
	OptHP = "hp"
)

// Example is the smallest encounter of the ruleset, which the engine's and
// the server's tests play for its fixed ids: two heroes against two
// goblins, one of them hidden. The shipped examples are under
// examples/encounters.
var Example = []byte(`{"name":"A skirmish in the field","ruleset":"kit-skirmish",
 "sides":[{"id":"heroes","name":"Heroes"},{"id":"goblins","name":"Goblins"}],
 "combatants":[
  {"id":"ana","name":"Ana","side":"heroes","pc":true},
  {"id":"bo","name":"Bo","side":"heroes","pc":true},
  {"id":"gob","name":"Gob","side":"goblins"},
  {"id":"sneak","name":"Sneak","side":"goblins","hidden":true}]}`)

// State is an encounter: who stands in the field, with how many hit
// points.
type State struct {
	engine.Base
	Fighters map[string]*Fighter `json:"fighters"`
}

// Fighter is one combatant. Struck is whether it has struck this turn:
// a fighter strikes once a turn, and its next turn clears it. A parry is
// paid for with the next strike: Guarded is whether the fighter tried one
// since its turn began, Winded whether this turn's strike went on one.
type Fighter struct {
	ID      string `json:"id"`
	HP      int    `json:"hp"`
	Struck  bool   `json:"struck,omitempty"`
	Guarded bool   `json:"guarded,omitempty"`
	Winded  bool   `json:"winded,omitempty"`
	// Most is the hit points its stats gave it; none: the encounter's.
	Most int `json:"most,omitempty"`
}

// most is the hit points f started with, which a heal never passes.
func (f *Fighter) most(b *engine.Base) int {
	if f.Most > 0 {
		return f.Most
	}
	return kit.OptInt(b, OptHP)
}

// Fighter implements kit.State.
func (s *State) Fighter(id string) *Fighter { return s.Fighters[id] }

// Tx is a command being decided under kit-skirmish.
type Tx = kit.Tx[*State, *Fighter]

// Swing is the data of a hit or missed event: who struck (at whom is in
// the event's text and the parry that follows).
type Swing struct {
	Attacker string `json:"attacker"`
}

// Struck is the data of a struck event: Target lost a hit point to
// Attacker (HP is what it has left).
type Struck struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
	HP       int    `json:"hp"`
}

// Guarded is the data of a guarded event: Fighter tries a parry and gives
// up its next strike for it.
type Guarded struct {
	Fighter string `json:"fighter"`
}

// Healed is the data of a healed event.
type Healed struct {
	Fighter string `json:"fighter"`
	HP      int    `json:"hp"`
}

// parry is a parry question's data: who struck whom.
type parry struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
}

// Ruleset is the kit-skirmish ruleset: the kit's, with a description for
// the GM choosing an encounter.
type Ruleset struct {
	*kit.Ruleset[*State, *Fighter]
}

// New returns the ruleset.
func New() engine.Ruleset { return ruleset }

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "The smallest fight: one field, a d6 to strike (4 or more), a d6 to parry (5 or more), a few hit points each."
}

var ruleset = Ruleset{kit.New(kit.Rules[*State, *Fighter]{
	ID: ID, Title: "Kit skirmish",
	Options: []engine.OptionSpec{kit.IntOption(OptHP, "Hit points", "Hit points every fighter starts with.", 2, 1, 10)},
	New:     newEncounter, Start: newRound,
	// No Editor: one field, nothing to draw in a draft.
	Board: project, Actions: actions, Pass: kit.PassWith[*State, *Fighter](CmdEndTurn),
	Commands: []kit.Command[*State, *Fighter]{
		{Kind: CmdStrike, Decide: decideStrike},
		{Kind: CmdEndTurn, Decide: kit.EndTurn(KindTurnEnded, advance)},
		{Kind: CmdHeal, GM: true, Decide: decideHeal},
	},
	Decisions: []kit.DecisionSpec[*State, *Fighter]{kit.OnAnswer(DecParry, answerParry)},
	Prompts: []kit.Prompt[*State, *Fighter]{{Kind: DecParry, Label: "Parry a blow",
		Answers: kit.Choices("parry", "Parry", "take", "Take the blow"),
		Conditions: []kit.Condition[*State, *Fighter]{kit.When[*State, *Fighter]("last", "the blow would take me out", func(st *State, p parry, _ engine.Decision) bool {
			f := st.Fighter(p.Target)
			return f != nil && f.HP <= 1
		})}}},
	Events: []kit.EventSpec[*State]{
		kit.OnEvent(KindHit, (*State).swung),
		kit.OnEvent(KindMissed, (*State).swung),
		kit.OnEvent(engine.KindTurnStarted, func(st *State, d engine.TurnStarted) error {
			if f := st.Fighter(d.Combatant); f != nil {
				f.Struck, f.Winded, f.Guarded = false, f.Guarded, false
			}
			return nil
		}),
		kit.OnEvent(KindGuarded, func(st *State, d Guarded) error {
			f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
			if err == nil {
				f.Guarded = true
			}
			return err
		}),
		kit.OnEvent(KindStruck, func(st *State, d Struck) error { return st.setHP(d.Target, d.HP) }),
		kit.OnEvent(KindHealed, func(st *State, d Healed) error { return st.setHP(d.Fighter, d.HP) }),
	},
})}

// swung marks the attacker as having struck this turn.
func (s *State) swung(d Swing) error {
	f, err := kit.Found(s.Fighter(d.Attacker), d.Attacker)
	if err == nil {
		f.Struck = true
	}
	return err
}

func (s *State) setHP(id string, hp int) error {
	f, err := kit.Found(s.Fighter(id), id)
	if err == nil {
		f.HP = hp
	}
	return err
}

// newEncounter puts everyone in the field with its own hit points or the
// option's. The field is the whole battlefield: zones, squares or starts
// drawn in a setup would be ignored, so they are refused.
func newEncounter(setup engine.Setup, base engine.Base) (*State, error) {
	st := &State{Base: base, Fighters: map[string]*Fighter{}}
	if len(setup.Battlefield) > 0 {
		var bf board.Battlefield
		if err := json.Unmarshal(setup.Battlefield, &bf); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "battlefield: %v", err)
		}
		if len(bf.Zones)+len(bf.Melees)+len(bf.Cells)+len(bf.Pairs)+len(bf.Distances)+bf.Width+bf.Height > 0 {
			return nil, fray.Errorf(fray.EINVALID, "%s is fought in one field: it takes no zones, squares or distances", ID)
		}
	}
	for _, c := range setup.Combatants {
		stats, err := readStats(c.Stats)
		if err != nil {
			return nil, fray.Errorf(fray.ErrorCode(err), "combatant %q: %s", c.ID, fray.ErrorMessage(err))
		}
		if start, err := board.ReadStart(c.Start); err != nil || start.Zone != "" || start.X != nil || start.Y != nil || start.Group != "" || len(start.Props) > 0 {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %s is fought in one field: it takes no start", c.ID, ID)
		}
		f := &Fighter{ID: c.ID, Most: stats.HP}
		f.HP = f.most(&base)
		st.Fighters[c.ID] = f
	}
	return st, nil
}

// newRound starts a round in setup order, with its first turn.
func newRound(tx *Tx) error {
	var order []string
	for _, c := range tx.Base().Combatants {
		if !c.Out {
			order = append(order, c.ID)
		}
	}
	if err := tx.StartRound(tx.Base().Round+1, order, ""); err != nil {
		return err
	}
	return advance(tx)
}

// advance starts the next turn, or the next round after the last.
func advance(tx *Tx) error {
	i := engine.NextTurn(tx.Base(), nil)
	if i < 0 {
		return newRound(tx)
	}
	return tx.StartTurn(i, tx.Base().NameOf(tx.Base().Order[i])+"'s turn.")
}

// decideStrike rolls a d6 at an opponent, once a turn: 4 or more hits,
// and the one hit is asked whether to parry.
func decideStrike(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	b := tx.Base()
	if f.Struck {
		return fray.Errorf(fray.EILLEGAL, "%s has struck this turn: end the turn", b.NameOf(f.ID))
	}
	if f.Winded {
		return fray.Errorf(fray.EILLEGAL, "%s parried since the last turn and has no strike this turn: end the turn", b.NameOf(f.ID))
	}
	r := d6(tx, "Strike", f.ID, 4, "hit", "miss")
	if r.Outcome == dice.Bad {
		return tx.Emits(KindMissed, f.ID, fmt.Sprintf("%s strikes at %s and misses.", b.NameOf(f.ID), b.PublicNameOf(t.ID)), Swing{f.ID}, r)
	}
	if err := tx.Emits(KindHit, f.ID, fmt.Sprintf("%s strikes %s.", b.NameOf(f.ID), b.PublicNameOf(t.ID)), Swing{f.ID}, r); err != nil {
		return err
	}
	return tx.AskWith(engine.Decision{For: t.ID, Kind: DecParry, Prompt: b.PublicNameOf(t.ID) + " is struck: parry?", Default: "take",
		Options: kit.Choices("parry", "Try to parry (5 or more; costs the next strike)", "take", "Take the blow")}, parry{Attacker: f.ID, Target: t.ID})
}

// d6 rolls a d6 for who against target or more.
func d6(tx *Tx, label, who string, target int, pass, fail string) dice.Roll {
	d := tx.Dice.Die(6)
	r := dice.Roll{Label: label, Who: who, Dice: []dice.Die{d}, Total: d.Faces[0], Target: target, Compare: dice.AtLeast,
		Result: fail, Outcome: dice.OutcomeOf(d.Faces[0] >= target)}
	if r.Outcome == dice.Good {
		r.Result = pass
	}
	return r
}

// answerParry rolls the parry, if tried — which costs the one parrying
// its next strike — and takes the hit point.
func answerParry(tx *Tx, p parry, a engine.Answered) error {
	b := tx.Base()
	if a.Choice == "parry" {
		if err := tx.Emits(KindGuarded, p.Target, b.PublicNameOf(p.Target)+" gives up the next strike to parry.", Guarded{p.Target}); err != nil {
			return err
		}
		r := d6(tx, "Parry", p.Target, 5, "parried", "failed")
		if r.Outcome == dice.Good {
			return tx.Emits(KindParried, p.Target, b.PublicNameOf(p.Target)+" parries.", nil, r)
		}
		if err := tx.Emits("parry-failed", p.Target, b.PublicNameOf(p.Target)+" fails to parry.", nil, r); err != nil {
			return err
		}
	}
	t := tx.State.Fighter(p.Target)
	ev := engine.NewEvent(KindStruck, p.Attacker, fmt.Sprintf("%s loses a hit point (%d left).", b.PublicNameOf(p.Target), t.HP-1),
		Struck{Attacker: p.Attacker, Target: p.Target, HP: t.HP - 1})
	if err := tx.Emit(ev.With(p.Target)); err != nil {
		return err
	}
	if t.HP <= 0 {
		return tx.TakeOut(t.ID, "down", b.PublicNameOf(t.ID)+" is out of the fight.")
	}
	return nil
}

// decideHeal is the GM giving a wounded fighter a hit point back, never
// above the hit points it started with.
func decideHeal(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string `json:"combatant"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	b := tx.Base()
	if f.HP >= f.most(b) {
		return fray.Errorf(fray.EILLEGAL, "%s is not wounded", b.PublicNameOf(f.ID))
	}
	ev := engine.NewEvent(KindHealed, "", fmt.Sprintf("The GM heals %s.", b.PublicNameOf(f.ID)), Healed{Fighter: f.ID, HP: f.HP + 1})
	return tx.Emit(ev.With(f.ID))
}

// project is the one projection: everyone v may see in the field, with
// their hit points; a fighter's sheet for the GM and its own player.
func project(st *State, v engine.Viewer) *board.Board {
	zm := &board.ZoneMap{Areas: []board.Area{{ID: "field", Name: "The field"}}, Links: []board.Link{}, Groups: []board.Group{}}
	b := &board.Board{Model: board.Zones, Zones: zm}
	for _, t := range engine.Tokens(st, v) {
		f := st.Fighters[t.ID]
		most := f.most(&st.Base)
		t.Health = &board.Meter{Label: "Hit points", Value: f.HP, Max: most, Low: true, Text: fmt.Sprintf("%d of %d %s", f.HP, most, map[bool]string{true: "hit point", false: "hit points"}[most == 1])}
		if v.CanCommand(t.ID) {
			t.Sheet = []board.Section{{Title: "Fighter", Stats: []board.Stat{{Label: "Strike", Value: "4+ on a d6"}, {Label: "Parry", Value: "5+ on a d6, costs the next strike"}}}}
			if f.Winded {
				t.Sheet[0].Stats[0].Value = "none this turn: parried"
			}
		}
		b.Tokens = append(b.Tokens, t)
		if !t.Out {
			zm.Places = append(zm.Places, board.Placed{Token: t.ID, Area: "field"})
		}
	}
	return b
}

// actions are the fighter's strike (until it struck) and end of turn on
// its turn, and the
// GM's heal of a wounded fighter.
func actions(st *State, v engine.Viewer) []engine.Action {
	var out []engine.Action
	if cur := st.Current(); cur != "" && v.CanCommand(cur) && !st.Waiting() {
		var targets []engine.Choice
		for _, c := range st.Combatants {
			if !c.Out && c.Side != st.Combatant(cur).Side && engine.Visible(st, v, c.ID) {
				targets = append(targets, engine.Choice{Value: c.ID, Label: c.Name})
			}
		}
		if f := st.Fighters[cur]; len(targets) > 0 && !f.Struck && !f.Winded {
			out = append(out, engine.Action{Kind: CmdStrike, Actor: cur, Label: "Strike", Main: true,
				Fields: []engine.Field{{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: targets, Target: true}}})
		}
		out = append(out, engine.Action{Kind: CmdEndTurn, Actor: cur, Label: "End turn", Main: true})
	}
	if v.GM {
		var wounded []engine.Choice
		for _, c := range st.Combatants {
			if f := st.Fighters[c.ID]; !c.Out && f.HP < f.most(&st.Base) {
				wounded = append(wounded, engine.Choice{Value: c.ID, Label: c.Name + " (" + strconv.Itoa(f.HP) + " hp)"})
			}
		}
		if len(wounded) > 0 {
			out = append(out, engine.Action{Kind: CmdHeal, Label: "Heal", Fields: []engine.Field{
				{Name: "combatant", Label: "Combatant", Type: engine.FieldSelect, Options: wounded, Target: true}}})
		}
	}
	return out
}
