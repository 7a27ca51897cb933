package rules_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
)

// fuzzFight is one example encounter of a registered ruleset, before and
// after the GM's start, with every command kind it takes.
type fuzzFight struct {
	name       string
	rs         engine.Ruleset
	states     [2]engine.State // set up, started
	history    [2]engine.History
	kinds      []string // the core commands, then the ruleset's
	combatants []string
}

// fuzzFights prepares every example encounter of every registered
// ruleset: a new ruleset and a new example are fuzzed without anyone
// adding them here.
func fuzzFights(f *testing.F) []fuzzFight {
	reg := rules.Registry()
	exs, err := prep.Examples()
	if err != nil {
		f.Fatal(err)
	}
	var out []fuzzFight
	for _, ex := range exs {
		p, err := prep.Prepare(reg, ex.Data)
		if err != nil {
			f.Fatalf("%s: %v", ex.Name, err)
		}
		ff := fuzzFight{name: ex.Name, rs: p.Ruleset, states: [2]engine.State{p.State, p.State}}
		ff.history[0] = &fuzzHistory{rs: p.Ruleset, initial: p.State}
		ff.history[1] = ff.history[0]
		evs, started, err := engine.Decide(p.Ruleset, p.State, engine.GMViewer(), "start", engine.Command{Kind: engine.KindStart}, dice.NewRoller(dice.NewSeeded(1)))
		if err == nil {
			ff.states[1] = started
			ff.history[1] = &fuzzHistory{rs: p.Ruleset, initial: p.State, events: evs}
		}
		ff.kinds = []string{engine.KindStart, engine.KindPause, engine.KindResume, engine.KindEnd, engine.KindReveal, engine.KindRewind,
			engine.KindRevealEvent, engine.KindAcceptDefaults, engine.KindAnswer, engine.KindChat, engine.KindFreeRoll}
		for _, c := range p.Ruleset.Commands() {
			ff.kinds = append(ff.kinds, c.Kind)
		}
		for _, c := range p.State.Core().Combatants {
			ff.combatants = append(ff.combatants, c.ID)
		}
		out = append(out, ff)
	}
	for _, rs := range reg.All() {
		found := false
		for _, ff := range out {
			found = found || ff.rs.ID() == rs.ID()
		}
		if !found {
			f.Fatalf("ruleset %s has no example encounter to fuzz", rs.ID())
		}
	}
	return out
}

// fuzzHistory is an encounter's past for rewind and reveal-event: its
// initial state and the events since.
type fuzzHistory struct {
	rs      engine.Ruleset
	initial engine.State
	events  []engine.Event
}

func (h *fuzzHistory) Events(after, upto int64) ([]engine.Event, error) {
	var out []engine.Event
	for _, ev := range h.events {
		if ev.Seq > after && ev.Seq <= upto {
			out = append(out, ev)
		}
	}
	return out, nil
}

func (h *fuzzHistory) StateAt(seq int64) (engine.State, error) {
	st, err := engine.Copy(h.initial)
	if err != nil {
		return nil, err
	}
	evs, _ := h.Events(0, seq)
	return st, engine.Replay(h.rs, st, evs)
}

// argsOf fills an action's fields with the first value each offers.
func argsOf(fields []engine.Field) []byte {
	args := map[string]any{}
	for _, fd := range fields {
		switch {
		case fd.Type == engine.FieldNumber:
			args[fd.Name] = fd.Min
		case fd.Type == engine.FieldCheckbox:
			args[fd.Name] = true
		case len(fd.Options) > 0:
			args[fd.Name] = fd.Options[0].Value
		default:
			args[fd.Name] = fd.Default
		}
	}
	raw, _ := json.Marshal(args)
	return raw
}

// FuzzCommandArgs feeds arguments to every command kind of every
// registered ruleset, through the engine, on every example encounter set
// up and started, as the GM and as a player: whatever the arguments, the
// command is decided or refused with a client's error code — never a
// panic, never an internal error. Seeds: every kind with no arguments,
// and every action the GM's view offers with its first choices.
func FuzzCommandArgs(f *testing.F) {
	fights := fuzzFights(f)
	for i, ff := range fights {
		for k := range ff.kinds {
			f.Add(uint8(i), uint8(1), uint8(k), uint8(0), []byte(`{}`), true)
		}
		for phase, st := range ff.states {
			for _, a := range engine.Project(ff.rs, st, engine.GMViewer()).Actions {
				k, actor := 0, 0
				for j, kind := range ff.kinds {
					if kind == a.Kind {
						k = j
					}
				}
				for j, id := range ff.combatants {
					if id == a.Actor {
						actor = j + 1
					}
				}
				f.Add(uint8(i), uint8(phase), uint8(k), uint8(actor), argsOf(a.Fields), true)
				f.Add(uint8(i), uint8(phase), uint8(k), uint8(actor), argsOf(a.Fields), false)
			}
		}
	}
	f.Add(uint8(0), uint8(1), uint8(20), uint8(1), []byte(`{"target":"nobody","x":-1,"y":1e308,"zone":"\u00e9","steps":99999999999}`), true)
	f.Add(uint8(3), uint8(1), uint8(12), uint8(2), []byte(`{"to":[1,2],"weapon":{"a":null},"extra":true}`), false)
	f.Fuzz(func(t *testing.T, fight, phase, kind, actor uint8, args []byte, gm bool) {
		ff := fights[int(fight)%len(fights)]
		st := ff.states[int(phase)%2]
		fields := map[string]json.RawMessage{}
		if json.Unmarshal(args, &fields) != nil {
			return // not an object: the envelope's decoder refuses it (FuzzDecodeClientMessage)
		}
		fields["kind"], _ = json.Marshal(ff.kinds[int(kind)%len(ff.kinds)])
		viewer := engine.GMViewer()
		if a := int(actor) % (len(ff.combatants) + 1); a > 0 {
			fields["actor"], _ = json.Marshal(ff.combatants[a-1])
			if !gm {
				viewer = engine.PlayerViewer(ff.combatants[a-1])
			}
		} else {
			delete(fields, "actor")
		}
		raw, _ := json.Marshal(fields)
		cmd, err := engine.DecodeCommand(raw)
		if err != nil {
			return
		}
		_, _, err = engine.DecideWith(ff.rs, st, viewer, "fuzz-"+strconv.Itoa(int(kind)), cmd, dice.NewRoller(dice.NewSeeded(7)), ff.history[int(phase)%2])
		var fe *fray.Error
		if err != nil && (!errors.As(err, &fe) || fe.Code == fray.EINTERNAL) {
			t.Fatalf("%s (%s): %s as %+v: not a client's error: %v", ff.name, ff.rs.ID(), raw, viewer, err)
		}
	})
}
