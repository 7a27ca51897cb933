package board

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// CheckProps validates props against the fields an Editor declares for
// them: no unknown names, each value of its field's type, selects among
// their options, numbers within Min and Max. what names the owner in the
// message ("zone ford").
func CheckProps(fields []Field, p Props, what string) error {
	for name, v := range p {
		i := slices.IndexFunc(fields, func(f Field) bool { return f.Name == name })
		if i < 0 {
			known := make([]string, len(fields))
			for j, f := range fields {
				known[j] = f.Name
			}
			if len(known) == 0 {
				return fmt.Errorf("%s: no properties here, not %q", what, name)
			}
			return fmt.Errorf("%s: unknown property %q (known: %s)", what, name, strings.Join(known, ", "))
		}
		if err := fields[i].check(v); err != nil {
			return fmt.Errorf("%s: %s %w", what, name, err)
		}
	}
	return nil
}

func (f Field) check(v any) error {
	switch f.Type {
	case FieldSelect:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be one of %s", f.values())
		}
		if !slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == s }) {
			return fmt.Errorf("cannot be %q: one of %s", s, f.values())
		}
	case FieldInt:
		var n float64
		switch x := v.(type) {
		case float64:
			n = x
		case int:
			n = float64(x)
		default:
			return fmt.Errorf("must be a whole number")
		}
		if n != math.Trunc(n) {
			return fmt.Errorf("must be a whole number, not %v", n)
		}
		if (f.Min != 0 || f.Max != 0) && (n < float64(f.Min) || n > float64(f.Max)) {
			return fmt.Errorf("must be between %d and %d", f.Min, f.Max)
		}
	case FieldBool:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("must be true or false")
		}
	default:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a text")
		}
		if len(s) > 200 {
			return fmt.Errorf("is longer than 200 characters")
		}
	}
	return nil
}

func (f Field) values() string {
	vs := make([]string, len(f.Options))
	for i, o := range f.Options {
		vs[i] = strconv.Quote(o.Value)
	}
	return strings.Join(vs, ", ")
}

// OptionLabel returns the label of a select's value (the value itself
// when it has none).
func (f Field) OptionLabel(value string) string {
	for _, o := range f.Options {
		if o.Value == value && o.Label != "" {
			return o.Label
		}
	}
	return value
}

// Token returns the token with id, or nil.
func (b *Board) Token(id string) *Token {
	if b == nil {
		return nil
	}
	for i := range b.Tokens {
		if b.Tokens[i].ID == id {
			return &b.Tokens[i]
		}
	}
	return nil
}
