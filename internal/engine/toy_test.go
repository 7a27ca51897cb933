package engine_test

import (
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// toy is a minimal ruleset that exercises every engine hook: each combatant
// has hit points; "hit" rolls a d6 (4+ deals 1); "ask" opens a GM decision;
// "cheat" rolls a die without recording it (a ruleset bug the engine must catch).
type toy struct{}

type toyState struct {
	engine.Base
	HP map[string]int `json:"hp"`
}

func (toy) ID() string    { return "toy" }
func (toy) Title() string { return "Toy" }
func (toy) Options() []engine.OptionSpec {
	return []engine.OptionSpec{{Name: "hp", Label: "Hit points", Default: "2", Choices: []engine.Choice{{Value: "1"}, {Value: "2"}}}}
}

func (toy) New(setup engine.Setup, base engine.Base) (engine.State, error) {
	st := &toyState{Base: base, HP: map[string]int{}}
	for _, c := range base.Combatants {
		st.HP[c.ID] = 1
		if base.Option("hp", "2") == "2" {
			st.HP[c.ID] = 2
		}
	}
	return st, nil
}

func (toy) Decode(raw []byte) (engine.State, error) {
	st := &toyState{}
	return st, json.Unmarshal(raw, st)
}

func (toy) Start(tx *engine.Tx) error {
	b := tx.Base()
	order := make([]string, 0, len(b.Combatants))
	for _, c := range b.Combatants {
		order = append(order, c.ID)
	}
	if err := tx.Emits(engine.KindRoundStarted, "", "Round 1", engine.RoundStarted{Round: 1, Order: order}); err != nil {
		return err
	}
	return tx.Emits(engine.KindTurnStarted, order[0], "turn", engine.TurnStarted{Combatant: order[0], Turn: 0})
}

func (toy) Decide(tx *engine.Tx, cmd engine.Command) error {
	if err := engine.RequireTurn(tx.State(), cmd.Actor); err != nil {
		return err
	}
	var args struct {
		Kind, Actor, Target string
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	switch cmd.Kind {
	case "hit":
		if tx.Base().Combatant(args.Target) == nil {
			return fray.Errorf(fray.ENOTFOUND, "no target %q", args.Target)
		}
		d := tx.Dice.Die(6)
		dmg := 0
		if d.Total() >= 4 {
			dmg = 1
		}
		return tx.Emits("hit", cmd.Actor, fmt.Sprintf("hit for %d", dmg), map[string]any{"target": args.Target, "damage": dmg},
			rollOf("Attack", d.Sides, d.Faces...))
	case "cheat":
		tx.Dice.Die(6)
		return tx.Emits("hit", cmd.Actor, "cheat", map[string]any{"target": cmd.Actor, "damage": 0})
	case "ask":
		return tx.Open(engine.Decision{For: engine.GM, Kind: "ruling", Prompt: "Allow it?", Data: json.RawMessage(`{"secret":"note"}`),
			Options: []engine.Choice{{Value: "yes", Label: "Yes"}, {Value: "no", Label: "No"}}})
	case "ask-spy":
		return tx.Open(engine.Decision{For: "spy", Kind: "ruling", Prompt: "Strike now?",
			Options: []engine.Choice{{Value: "yes", Label: "Yes"}}})
	case "end-turn":
		next := engine.NextTurn(tx.Base())
		if next < 0 {
			return tx.Emits(engine.KindRoundStarted, "", "new round", engine.RoundStarted{Round: tx.Base().Round + 1, Order: tx.Base().Order})
		}
		id := tx.Base().Order[next]
		return tx.Emits(engine.KindTurnStarted, id, "turn", engine.TurnStarted{Combatant: id, Turn: next})
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

func (toy) Answer(tx *engine.Tx, d engine.Decision, choice string) error {
	return tx.Emits("ruled", "", "ruled "+choice, map[string]string{"choice": choice})
}

func (toy) Apply(st engine.State, ev engine.Event) error {
	s := st.(*toyState)
	if ev.Kind == "hit" {
		var d struct {
			Target string
			Damage int
		}
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.HP[d.Target] -= d.Damage
	}
	return nil
}

func (toy) Project(st engine.State, v engine.Viewer) any {
	s := st.(*toyState)
	hp := map[string]int{}
	for id, n := range s.HP {
		if engine.Visible(st, v, id) {
			hp[id] = n
		}
	}
	return hp
}

func (toy) Actions(st engine.State, v engine.Viewer) []engine.Action {
	cur := st.Core().Current()
	if cur == "" || !v.CanCommand(cur) {
		return nil
	}
	return []engine.Action{{Kind: "hit", Actor: cur, Label: "Hit"}, {Kind: "end-turn", Actor: cur, Label: "End turn"}}
}
