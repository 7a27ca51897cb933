package engine

import "encoding/json"

// Decision is a question the encounter waits on: a GM ruling, an ally's
// reaction, a sealed choice. While any decision is pending, only answers (and
// the GM's encounter controls) are accepted.
type Decision struct {
	ID      string          `json:"id"`
	For     string          `json:"for"` // GM, or the combatant whose controller answers
	Kind    string          `json:"kind"`
	Prompt  string          `json:"prompt"`
	Options []Choice        `json:"options"`
	Default string          `json:"default,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"` // the ruleset's context, GM-only in projections
}

// Choice is one option in a Decision or in an action's select field.
type Choice struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// HasOption reports whether value is one of the decision's options.
func (d Decision) HasOption(value string) bool {
	for _, o := range d.Options {
		if o.Value == value {
			return true
		}
	}
	return false
}

// KindAnswer is the command kind that answers a pending decision:
// {"kind":"answer","decision":"<id>","choice":"<value>"}.
const KindAnswer = "answer"

// Answer is the payload of an answer command.
type Answer struct {
	Kind     string `json:"kind"`
	Actor    string `json:"actor,omitempty"`
	Decision string `json:"decision"`
	Choice   string `json:"choice"`
}
