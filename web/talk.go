package web

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

func chatOf(ev engine.Event) engine.Chat {
	var c engine.Chat
	_ = ev.Decode(&c)
	c.From = cmp.Or(c.From, "Someone")
	return c
}

// whisperLabel says who a whisper is for: "to the GM", "to Brak".
func whisperLabel(c engine.Chat, names map[string]string) string {
	switch {
	case c.To == engine.GM && c.GM:
		return "GM only"
	case c.To == engine.GM:
		return "to the GM"
	}
	return "to " + whoName(names, c.To)
}

// chatTargets are whom the viewer may write to: everyone, the GM, and for
// the GM each player character (a whisper) or the GM alone (a secret roll).
func (m *model) chatTargets() []engine.Choice {
	out := []engine.Choice{{Value: "", Label: "Everyone"}}
	if m.v.Viewer.GM {
		out = append(out, engine.Choice{Value: engine.GM, Label: "Only me (secret)"})
		for _, c := range m.v.Combatants {
			if c.PC {
				out = append(out, engine.Choice{Value: c.ID, Label: "Whisper to " + c.Name})
			}
		}
		return out
	}
	if len(m.v.Viewer.Controls) > 0 {
		out = append(out, engine.Choice{Value: engine.GM, Label: "Whisper to the GM"})
	}
	return out
}

// shownRolls reports whether ev has dice worth a card: not only picks
// (dealt cards).
func shownRolls(ev engine.Event) bool {
	return slices.ContainsFunc(ev.Rolls, func(r dice.Roll) bool { return !r.IsPick() })
}

// cardGroups groups events into roll cards: the events of one command, in
// order, when at least one of them has dice worth showing. The card starts
// at the first event with dice; events of the command before it (a move
// before the attack) stay in the log alone. Events without a command id
// each make their own group.
func cardGroups(events []engine.Event) [][]engine.Event {
	var groups [][]engine.Event
	at := map[string]int{}
	for _, ev := range events {
		if ev.Command != "" {
			if i, ok := at[ev.Command]; ok {
				groups[i] = append(groups[i], ev)
				continue
			}
		}
		if !shownRolls(ev) {
			continue
		}
		if ev.Command != "" {
			at[ev.Command] = len(groups)
		}
		groups = append(groups, []engine.Event{ev})
	}
	return groups
}

func anySecret(g []engine.Event) bool {
	return slices.ContainsFunc(g, func(ev engine.Event) bool { return ev.Secret })
}

func anyWhisper(g []engine.Event) bool {
	return slices.ContainsFunc(g, func(ev engine.Event) bool { return len(ev.Audience) > 0 })
}

// eventText is what an event says, or its kind when it says nothing.
func eventText(ev engine.Event) string { return cmp.Or(ev.Text, ev.Kind) }

// outcomeClass colours a roll's result by the outcome its ruleset gave it.
func outcomeClass(o dice.Outcome) string {
	switch o {
	case dice.Good:
		return "res-good"
	case dice.Bad:
		return "res-bad"
	}
	return "res-plain"
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// dangerQuestion is the confirmation a dangerous control asks.
func dangerQuestion(a actionInfo) string {
	switch a.Kind {
	case engine.KindEnd:
		return "End the encounter for everyone? It cannot be resumed."
	case engine.KindRewind:
		return "Undo the last action? The log keeps both."
	}
	return a.Label + "?"
}

// actingNames is who may act now: one name, or several in a phase.
func (m *model) actingNames() string {
	if len(m.v.Acting) == 0 {
		return m.name(m.v.Current)
	}
	return commaList(m.nameEach(m.v.Acting))
}

func (m *model) noActions() string {
	switch {
	case m.v.Status == engine.StatusFinished:
		return "The encounter is over."
	case m.v.Status == engine.StatusSetup:
		return "Waiting for the GM to start the encounter."
	case len(m.v.Pending) > 0:
		return "Answer the question above first."
	case len(m.v.Waiting) > 0:
		return "Waiting for " + commaList(m.v.Waiting) + "."
	case m.v.Current != "":
		return "Waiting for " + m.actingNames() + "."
	}
	return "No actions available to you right now."
}

// firstTab is the pane a phone opens on: the table's actions and turn
// order for anyone who plays (the GM included), the board for a spectator.
func (m *model) firstTab() string {
	if m.v.Viewer.GM || len(m.v.Viewer.Controls) > 0 || len(m.v.Actions) > 0 || len(m.v.Pending) > 0 {
		return "act"
	}
	return "board"
}

// dieName is how the log names a die: "d10:", "d6 (bonus die):".
func dieName(d dice.Die) string {
	if d.Role != "" && d.Role != dice.RolePick {
		return "d" + strconv.Itoa(d.Sides) + " (" + d.Role + "):"
	}
	return "d" + strconv.Itoa(d.Sides) + ":"
}

// freeRollText words a free roll: "rolls 2d6+1 for courage".
func freeRollText(c engine.Chat) string {
	if c.Text != "" {
		return "rolls " + c.Dice + " for " + c.Text
	}
	return "rolls " + c.Dice
}
