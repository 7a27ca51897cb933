// Package enginetest is the test kit of the engine and the rulesets.
//
// Kit drives a ruleset through scenario tests: a command decided with a
// fixed dice script, a refusal expected with its code, every result
// replayed from its events. Bot plays an example encounter to its end the
// way a client that knows no rules would, picking only among the actions
// and decision options the view advertises.
//
// Toy is a small ruleset that exercises every primitive of the engine —
// sealed choices, GM commands without an actor, reordering, interruptions,
// acting sets, reaction chains, combatants down, out and back — for the
// engine's tests and for tests of the layers above it (websockets, the
// API) that must not depend on a real ruleset.
package enginetest

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// ID is Toy's registry id.
const ID = "toy"

// Toy is the test ruleset. Every combatant has hit points (option "hp",
// 1–9, default 2).
//   - hit {target}: a d6, 4+ deals 1. With option "ripostes" on, the target may riposte (a reaction,
//     once per turn per attacker): a d6, 4+ deals 1 back — and the attacker
//     may then counter the riposte the same way: a reaction chain two deep.
//     After the chain, the hit's follow-through step logs "hit done".
//   - duel {target}: both choose bold or careful, sealed; on the reveal,
//     bold against careful deals 1 to the bold one, bold against bold 1 to
//     both, careful against careful nothing.
//   - delay {after}: the actor moves to just after another in the order.
//   - ready: the actor readies and its turn ends; later, between any two
//     commands, interrupt lets it act at once; its end-turn gives the floor
//     back.
//   - end-turn, and for the GM: weather {weather} (no actor), cover (asks
//     the GM for a percentage, 0–100, with a default), revive {combatant}
//     and heal {combatant}, ask (a GM ruling) and cheat (a die not
//     recorded), spoil (an event whose Apply writes Base).
//
// At 0 hit points a combatant is down (still taking turns: it logs "still
// dying"); below 0 it is out. With option "surprise" on, round 1 opens with
// a surprise phase in which side "a" acts together.
type Toy struct{}

// State is Toy's state.
type State struct {
	engine.Base
	HP      map[string]int `json:"hp"`
	Ready   []string       `json:"ready,omitempty"`
	Weather string         `json:"weather,omitempty"`
	Cover   int            `json:"cover,omitempty"`
}

func (Toy) ID() string    { return ID }
func (Toy) Title() string { return "Toy" }

func (Toy) Options() []engine.OptionSpec {
	return []engine.OptionSpec{
		{Name: "hp", Label: "Hit points", Type: engine.OptionInt, Default: "2", Min: 1, Max: 9},
		{Name: "surprise", Label: "Surprise round", Default: "off", Choices: []engine.Choice{{Value: "off"}, {Value: "on"}}},
		{Name: "ripostes", Label: "Ripostes", Default: "off", Choices: []engine.Choice{{Value: "off"}, {Value: "on"}}},
	}
}

func (Toy) Commands() []engine.CommandSpec {
	return []engine.CommandSpec{
		{Kind: "hit"}, {Kind: "duel"}, {Kind: "delay"}, {Kind: "ready"}, {Kind: "interrupt"}, {Kind: "end-turn"},
		{Kind: "cheat"}, {Kind: "ask-spy"},
		{Kind: "weather", GM: true}, {Kind: "cover", GM: true}, {Kind: "revive", GM: true}, {Kind: "heal", GM: true},
		{Kind: "ask", GM: true}, {Kind: "spoil", GM: true},
	}
}

func (Toy) New(setup engine.Setup, base engine.Base) (engine.State, error) {
	st := &State{Base: base, HP: map[string]int{}}
	for _, c := range base.Combatants {
		st.HP[c.ID] = base.OptionInt("hp", 2)
	}
	return st, nil
}

func (Toy) Decode(raw []byte) (engine.State, error) {
	st := &State{}
	return st, json.Unmarshal(raw, st)
}

func (Toy) Start(tx *engine.Tx) error { return newRound(tx) }

func newRound(tx *engine.Tx) error {
	b := tx.Base()
	var order []string
	for _, c := range b.Combatants {
		if !c.Out {
			order = append(order, c.ID)
		}
	}
	if err := tx.StartRound(b.Round+1, order, ""); err != nil {
		return err
	}
	if b.Round == 1 && b.Option("surprise", "off") == "on" {
		var side []string
		for _, c := range b.Combatants {
			if c.Side == "a" && c.Fighting() {
				side = append(side, c.ID)
			}
		}
		return tx.StartPhase(-1, side, "Surprise round", "Surprise! Side a acts first.")
	}
	return nextTurn(tx)
}

func nextTurn(tx *engine.Tx) error {
	i := engine.NextTurn(tx.Base(), nil)
	if i < 0 {
		return newRound(tx)
	}
	if err := tx.StartTurn(i, ""); err != nil {
		return err
	}
	if id := tx.Base().Order[i]; tx.Base().Combatant(id).Down {
		return tx.Emits("dying", id, tx.Base().Combatant(id).Name+" is still dying.", nil)
	}
	return nil
}

type targetArgs struct {
	Target string `json:"target"`
}

func (t Toy) Decide(tx *engine.Tx, cmd engine.Command) error {
	st := tx.State().(*State)
	switch cmd.Kind {
	case "weather":
		var args struct {
			Weather string `json:"weather"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		return tx.Emits("weather", "", "The weather turns "+args.Weather+".", map[string]string{"weather": args.Weather})
	case "cover":
		if err := cmd.NoArgs(); err != nil {
			return err
		}
		return tx.Ask(engine.Decision{For: engine.GM, Kind: "cover", Prompt: "How much cover?", Default: "set",
			Options: []engine.Choice{{Value: "set", Label: "Set"}},
			Fields:  []engine.Field{{Name: "percent", Label: "Cover %", Type: engine.FieldNumber, Min: 0, Max: 100, Default: "25"}}})
	case "revive", "heal":
		var args struct {
			Combatant string `json:"combatant"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		c := st.Combatant(args.Combatant)
		if c == nil {
			return fray.Errorf(fray.ENOTFOUND, "no combatant %q", args.Combatant)
		}
		if err := tx.Emits("healed", "", c.Name+" is healed.", map[string]string{"combatant": c.ID}); err != nil {
			return err
		}
		if cmd.Kind == "revive" {
			return tx.BringBack(c.ID, "revived", c.Name+" is back in the fight.")
		}
		if !c.Down {
			return fray.Errorf(fray.EILLEGAL, "%s is not down", c.Name)
		}
		return tx.GetUp(c.ID, "healed", c.Name+" gets up.")
	case "ask":
		return tx.AskWith(engine.Decision{For: engine.GM, Kind: "ruling", Prompt: "Allow it?",
			Options: []engine.Choice{{Value: "yes", Label: "Yes"}, {Value: "no", Label: "No"}}}, map[string]string{"secret": "note"})
	case "spoil":
		return tx.Emits("spoil", "", "spoil", nil)
	case "interrupt":
		if err := cmd.NoArgs(); err != nil {
			return err
		}
		if !slices.Contains(st.Ready, cmd.Actor) {
			return fray.Errorf(fray.EILLEGAL, "%s is not ready", cmd.Actor)
		}
		return tx.Interrupt(cmd.Actor, cmd.Actor+" interrupts.", engine.NewStep("note", "after the interruption"))
	case "ask-spy":
		return tx.Ask(engine.Decision{For: "spy", Kind: "ruling", Prompt: "Strike now?", Options: []engine.Choice{{Value: "yes", Label: "Yes"}}})
	}
	if err := engine.RequireTurn(tx.State(), cmd.Actor); err != nil {
		return err
	}
	switch cmd.Kind {
	case "hit":
		var args targetArgs
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		if err := t.target(tx, args.Target); err != nil {
			return err
		}
		steps := []engine.Step{engine.NewStep("strike", strike{By: cmd.Actor, At: args.Target})}
		if tx.Base().Option("ripostes", "off") == "on" {
			steps = append(steps, engine.NewStep("note", "hit done"))
		}
		return tx.Run(steps...)
	case "duel":
		var args targetArgs
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		if err := t.target(tx, args.Target); err != nil {
			return err
		}
		stance := func(who string) engine.Decision {
			return engine.Decision{For: who, Kind: "stance", Prompt: "Choose your stance", Sealed: true, Default: "careful",
				Options: []engine.Choice{{Value: "bold", Label: "Bold"}, {Value: "careful", Label: "Careful"}}}
		}
		return tx.AskAll(stance(cmd.Actor), stance(args.Target))
	case "cheat":
		tx.Dice.Die(6)
		return tx.Emits("hit", cmd.Actor, "cheat", map[string]any{"target": cmd.Actor, "damage": 0})
	case "delay":
		var args struct {
			After string `json:"after"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		to := slices.Index(st.Order, args.After)
		if to < 0 || to <= st.Turn {
			return fray.Errorf(fray.EILLEGAL, "%q has not yet acted this round", args.After)
		}
		if err := tx.Reorder(cmd.Actor, to, "delay", cmd.Actor+" delays."); err != nil {
			return err
		}
		return nextTurn(tx)
	case "ready":
		if err := tx.Emits("ready", cmd.Actor, cmd.Actor+" readies.", nil); err != nil {
			return err
		}
		return nextTurn(tx)
	case "end-turn":
		if st.Interrupted() {
			return tx.EndInterrupt(cmd.Actor + " is done interrupting.")
		}
		if st.Label != "" { // a phase: each leaves it
			if err := tx.Acted(cmd.Actor, cmd.Actor+" is done."); err != nil {
				return err
			}
			if len(tx.Base().Acting) > 0 {
				return nil
			}
		}
		return nextTurn(tx)
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

func (Toy) target(tx *engine.Tx, id string) error {
	if !engine.Visible(tx.State(), tx.Viewer(), id) {
		return fray.Errorf(fray.ENOTFOUND, "no combatant %q", id)
	}
	return nil
}

// strike is a step: By strikes At; the victim may react.
type strike struct {
	By    string `json:"by"`
	At    string `json:"at"`
	Depth int    `json:"depth"` // 0 the hit, 1 a riposte, 2 a counter
}

// Step implements engine.Stepper.
func (Toy) Step(tx *engine.Tx, s engine.Step) error {
	switch s.Kind {
	case "strike":
		return engine.RunStep(tx, s, doStrike)
	case "note":
		return engine.RunStep(tx, s, func(tx *engine.Tx, text string) error { return tx.Emits("note", "", text, nil) })
	}
	return fmt.Errorf("toy: no step %q", s.Kind)
}

func doStrike(tx *engine.Tx, k strike) error {
	d := tx.Dice.Die(6)
	dmg := 0
	if d.Total() >= 4 {
		dmg = 1
	}
	names := []string{"hit", "riposte", "counter"}
	ev := engine.NewEvent("hit", k.By, fmt.Sprintf("%s: %s for %d", names[k.Depth], k.At, dmg),
		map[string]any{"target": k.At, "damage": dmg}, dice.Roll{Label: names[k.Depth], Who: k.By, Dice: []dice.Die{d}, Total: d.Total(), Target: 4, Compare: dice.AtLeast})
	if k.Depth > 0 {
		ev = ev.Using(engine.Trigger{Reactor: k.By, Kind: "riposte", Source: k.At})
	}
	if err := tx.Emit(ev.With(k.At)); err != nil {
		return err
	}
	if err := harm(tx, k.At); err != nil {
		return err
	}
	if k.Depth == 2 || tx.Base().Option("ripostes", "off") != "on" {
		return nil
	}
	_, err := tx.Offer(engine.Trigger{Reactor: k.At, Kind: "riposte", Source: k.By},
		engine.Decision{Kind: "riposte", Prompt: "Strike back at " + k.By + "?", Default: "no",
			Options: []engine.Choice{{Value: "yes", Label: "Strike back"}, {Value: "no", Label: "Let it go"}},
			Data:    MustJSON(strike{By: k.At, At: k.By, Depth: k.Depth + 1})})
	return err
}

// harm takes a combatant at 0 hit points down, below 0 out.
func harm(tx *engine.Tx, id string) error {
	st := tx.State().(*State)
	c := st.Combatant(id)
	switch {
	case st.HP[id] < 0 && !c.Out:
		return tx.TakeOut(id, "dead", c.Name+" is out.")
	case st.HP[id] == 0 && !c.Down && !c.Out:
		return tx.PutDown(id, "dying", c.Name+" is down and dying.")
	}
	return nil
}

func (Toy) Answer(tx *engine.Tx, answers []engine.Answered) error {
	a := answers[0]
	switch a.Decision.Kind {
	case "cover":
		return tx.Emits("cover", "", fmt.Sprintf("Cover is %d%%.", a.Values.Int("percent")), map[string]int{"percent": a.Values.Int("percent")})
	case "riposte":
		if a.Choice != "yes" {
			return nil
		}
		var k strike
		if err := a.Decision.Decode(&k); err != nil {
			return err
		}
		return tx.Run(engine.NewStep("strike", k))
	case "stance":
		stances := map[string]string{}
		var who []string
		for _, x := range answers {
			stances[x.Decision.For] = x.Choice
			who = append(who, x.Decision.For)
		}
		return tx.Emits("clash", "", fmt.Sprintf("Clash: %s %s, %s %s.", who[0], stances[who[0]], who[1], stances[who[1]]), stances)
	}
	return tx.Emits("ruled", "", "ruled "+a.Choice, map[string]string{"choice": a.Choice})
}

func (Toy) Settle(tx *engine.Tx) error {
	_, err := tx.LastStanding()
	return err
}

func (Toy) Apply(s engine.State, ev engine.Event) error {
	st := s.(*State)
	switch ev.Kind {
	case "hit":
		var d struct {
			Target string
			Damage int
		}
		if err := ev.Decode(&d); err != nil {
			return err
		}
		st.HP[d.Target] -= d.Damage
	case "clash":
		var d map[string]string
		if err := ev.Decode(&d); err != nil {
			return err
		}
		for id, stance := range d {
			for other, theirs := range d {
				if other != id && stance == "bold" {
					_ = theirs
					st.HP[id]--
				}
			}
		}
	case "healed":
		var d struct{ Combatant string }
		if err := ev.Decode(&d); err != nil {
			return err
		}
		st.HP[d.Combatant] = 1
	case "weather":
		var d struct{ Weather string }
		if err := ev.Decode(&d); err != nil {
			return err
		}
		st.Weather = d.Weather
	case "cover":
		var d struct{ Percent int }
		if err := ev.Decode(&d); err != nil {
			return err
		}
		st.Cover = d.Percent
	case "ready":
		st.Ready = append(st.Ready, ev.Actor)
	case engine.KindInterruptStarted:
		var d engine.InterruptStarted
		if err := ev.Decode(&d); err != nil {
			return err
		}
		st.Ready = slices.DeleteFunc(st.Ready, func(id string) bool { return id == d.Combatant })
	case "spoil":
		st.Turn = 99 // a ruleset bug the strict check catches
	}
	return nil
}

func (Toy) Actions(s engine.State, v engine.Viewer) []engine.Action {
	st := s.(*State)
	var out []engine.Action
	if v.GM {
		out = append(out, engine.Action{Kind: "weather", Label: "Weather", Fields: []engine.Field{{Name: "weather", Label: "Weather", Type: engine.FieldSelect,
			Options: []engine.Choice{{Value: "fair", Label: "Fair"}, {Value: "stormy", Label: "Stormy"}}}}})
	}
	for _, id := range st.Acting {
		if !v.CanCommand(id) {
			continue
		}
		var targets []engine.Choice
		for _, c := range st.Combatants {
			if c.ID != id && c.Fighting() && engine.Visible(st, v, c.ID) {
				targets = append(targets, engine.Choice{Value: c.ID, Label: c.Name})
			}
		}
		target := []engine.Field{{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: targets, Target: true}}
		out = append(out,
			engine.Action{Kind: "hit", Actor: id, Label: "Hit", Fields: target, Main: true},
			engine.Action{Kind: "duel", Actor: id, Label: "Duel", Fields: target},
			engine.Action{Kind: "end-turn", Actor: id, Label: "End turn", Main: true})
	}
	for _, id := range st.Ready {
		if v.CanCommand(id) && !st.Interrupted() {
			out = append(out, engine.Action{Kind: "interrupt", Actor: id, Label: "Interrupt"})
		}
	}
	return out
}

// Setup is a three-combatant encounter: hero (side a, a PC), orc (side b)
// and spy (side b, hidden).
func Setup() engine.Setup {
	return engine.Setup{
		Name: "Duel", Ruleset: ID,
		Sides: []engine.Side{{ID: "a", Name: "Heroes"}, {ID: "b", Name: "Foes"}},
		Combatants: []engine.CombatantSetup{
			{Combatant: engine.Combatant{ID: "hero", Name: "Hero", Side: "a", PC: true}},
			{Combatant: engine.Combatant{ID: "orc", Name: "Orc", Side: "b"}},
			{Combatant: engine.Combatant{ID: "spy", Name: "Spy", Side: "b", Hidden: true}},
		},
	}
}
