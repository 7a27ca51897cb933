package kit

import (
	"slices"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
)

// Forms. An action's fields are choices a player combines: a target, a
// weapon, a fire mode. The rules may refuse a combination of values each
// of which they accept alone — an aimed shot is a single shot, so "aim at
// the head" and "a burst of three" are each fine and together refused. A
// form offers only what its ruleset accepts when every choice it keeps
// combines with every other: Narrow runs the ruleset's own check (the one
// its command's handler runs) over the combinations and drops what it
// refuses, so a page, a bot or a player picking among what is offered is
// never told no.

// MaxCombinations is how many combinations of a form's choices Narrow
// checks one by one. A bigger form is checked a choice at a time, the
// others at their defaults: its ruleset must build its choices so that
// they do not depend on one another (a test plays every combination it
// offers; see internal/rules, TestOfferedActionsKeepTheirContract).
const MaxCombinations = 256

// Values is one combination of a form's choices, as Narrow hands it to a
// check: each select's and checkbox's value in this combination, and the
// default of every other field (a number's default, or its minimum).
type Values struct {
	fields []engine.Field
	pick   []int // per field, the index of its value (-1: not a choice)
}

// String is field name's value ("" when the form has no such field).
func (v Values) String(name string) string {
	for i, f := range v.fields {
		if f.Name != name {
			continue
		}
		if j := v.pick[i]; j >= 0 {
			return valueAt(f, j)
		}
		if f.Type == engine.FieldNumber && f.Default == "" {
			return strconv.Itoa(f.Min)
		}
		return f.Default
	}
	return ""
}

// Int is field name's value as a whole number (0 when it is none).
func (v Values) Int(name string) int {
	s := v.String(name)
	if s == "" {
		return 0 // no error made: checks run often
	}
	n, _ := strconv.Atoi(s)
	return n
}

// Bool is a checkbox's value.
func (v Values) Bool(name string) bool { return v.String(name) == "true" }

// valueAt is a choice's jth value: a select's option, a checkbox's state.
func valueAt(f engine.Field, j int) string {
	if f.Type == engine.FieldCheckbox {
		return strconv.FormatBool(j == 1)
	}
	return f.Options[j].Value
}

// choices is how many values field f offers to combine: a select's
// options, a checkbox's two states, none for the rest.
func choices(f engine.Field) int {
	switch f.Type {
	case engine.FieldSelect:
		return len(f.Options)
	case engine.FieldCheckbox:
		return 2
	}
	return 0
}

// Narrow returns fields with only the select options and checkbox values
// that check accepts in every combination with the others kept, and
// whether anything is left to offer (false: a choice lost every value,
// or a checkbox would have to be ticked; the action is not offered).
// When check refuses a combination, the value taking part in the most
// refusals goes first (of a field with another value left; of equals, the
// later field's, then the later value: a form lists what matters most
// first), until check accepts every combination. A select whose default
// goes falls back to its first option. The fields given are not changed.
func Narrow(fields []engine.Field, check func(Values) error) ([]engine.Field, bool) {
	v := Values{fields: fields, pick: make([]int, len(fields))}
	var axes []int // the fields that are choices
	total := 1
	for i, f := range fields {
		v.pick[i] = -1
		if n := choices(f); n > 0 {
			axes = append(axes, i)
			total *= n
		}
	}
	// Each combination checked is the index of every axis's value: all
	// of them, or for a big form each value with the others at their
	// defaults.
	var refused [][]int
	var flat []int // the refused combinations' indexes, one after another
	nrefused := 0
	try := func(c []int) {
		for k, i := range axes {
			v.pick[i] = c[k]
		}
		if check(v) != nil {
			flat = append(flat, c...)
			nrefused++
		}
	}
	c := make([]int, len(axes))
	if total <= MaxCombinations {
		for range total {
			try(c)
			for k, i := range axes { // the next combination
				if c[k]++; c[k] < choices(fields[i]) {
					break
				}
				c[k] = 0
			}
		}
	} else {
		for k, i := range axes {
			c[k] = defaultIndex(fields[i])
		}
		for k, i := range axes {
			d := c[k]
			for j := range choices(fields[i]) {
				c[k] = j
				try(c)
			}
			c[k] = d
		}
	}
	if nrefused == 0 {
		return fields, true
	}
	n := len(axes)
	for i := range nrefused {
		refused = append(refused, flat[i*n:(i+1)*n:(i+1)*n])
	}
	gone := make([][]bool, len(axes))
	left := make([]int, len(axes))
	for k, i := range axes {
		gone[k] = make([]bool, choices(fields[i]))
		left[k] = len(gone[k])
	}
	count := make([]int, 0, 8)
	for len(refused) > 0 {
		// The value in the most refusals, of a choice with another left.
		bestK, bestJ, most := -1, -1, 0
		for k, i := range axes {
			if left[k] < 2 {
				continue
			}
			count = count[:0]
			for range gone[k] {
				count = append(count, 0)
			}
			for _, c := range refused {
				count[c[k]]++
			}
			for j, n := range count {
				if fields[i].Type == engine.FieldCheckbox && j == 0 {
					continue // a box that must be ticked is no choice
				}
				if n > 0 && n >= most { // a tie: the later choice goes
					bestK, bestJ, most = k, j, n
				}
			}
		}
		if bestK < 0 {
			return nil, false // nothing is left to drop
		}
		gone[bestK][bestJ] = true
		left[bestK]--
		refused = slices.DeleteFunc(refused, func(c []int) bool { return c[bestK] == bestJ })
	}
	out := slices.Clone(fields)
	drop := map[int]bool{}
	for k, i := range axes {
		if left[k] == len(gone[k]) {
			continue
		}
		f := out[i]
		if f.Type == engine.FieldCheckbox {
			drop[i] = true // only unticked is left: not a choice
			continue
		}
		f.Options = nil
		for j, o := range fields[i].Options {
			if !gone[k][j] {
				f.Options = append(f.Options, o)
			}
		}
		if !slices.ContainsFunc(f.Options, func(o engine.Choice) bool { return o.Value == f.Default }) {
			f.Default = ""
		}
		out[i] = f
	}
	if len(drop) > 0 {
		kept := out[:0]
		for i, f := range out {
			if !drop[i] {
				kept = append(kept, f)
			}
		}
		out = kept
	}
	return out, true
}

// defaultIndex is the index of a choice's default among its values: a
// select's default or first option, a checkbox's state.
func defaultIndex(f engine.Field) int {
	if f.Type == engine.FieldCheckbox {
		switch f.Default {
		case "1", "true", "on", "yes":
			return 1
		}
		return 0
	}
	return max(0, slices.IndexFunc(f.Options, func(o engine.Choice) bool { return o.Value == f.Default }))
}
