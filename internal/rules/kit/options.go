package kit

import (
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
)

// Options. engine.NewEncounter sets every option of a new encounter, its
// default when the GM chose none, and Decode does the same for a snapshot
// made before an option existed: a ruleset reads Base.Options as it is.

// Opt returns option name's value.
func Opt(b *engine.Base, name string) string { return b.Options[name] }

// OptInt returns an integer option's value (the engine has checked it is
// one).
func OptInt(b *engine.Base, name string) int {
	n, _ := strconv.Atoi(b.Options[name])
	return n
}

// ChoiceOption is an option whose value is one of choices, def at first.
func ChoiceOption(name, label, help, def string, choices ...engine.Choice) engine.OptionSpec {
	return engine.OptionSpec{Name: name, Label: label, Help: help, Default: def, Choices: choices}
}

// IntOption is an option whose value is a whole number from lo to hi,
// def at first.
func IntOption(name, label, help string, def, lo, hi int) engine.OptionSpec {
	return engine.OptionSpec{Name: name, Label: label, Help: help, Type: engine.OptionInt, Default: strconv.Itoa(def), Min: lo, Max: hi}
}

// Choices makes choices from value, label pairs.
func Choices(pairs ...string) []engine.Choice {
	out := make([]engine.Choice, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, engine.Choice{Value: pairs[i], Label: pairs[i+1]})
	}
	return out
}

// fillOptions gives every option b lacks its default.
func (r *Ruleset[S, F]) fillOptions(b *engine.Base) {
	for _, o := range r.rules.Options {
		if _, ok := b.Options[o.Name]; !ok {
			if b.Options == nil {
				b.Options = map[string]string{}
			}
			b.Options[o.Name] = o.Default
		}
	}
}
