package kit_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

func values(f engine.Field) []string {
	var out []string
	for _, o := range f.Options {
		out = append(out, o.Value)
	}
	return out
}

func field(fs []engine.Field, name string) *engine.Field {
	for i := range fs {
		if fs[i].Name == name {
			return &fs[i]
		}
	}
	return nil
}

// An aimed shot is a single shot, and only a near target can be aimed
// at: a form offering both a burst and aimed shots loses what combines
// with least, and every combination of what it keeps is accepted.
func TestNarrowKeepsWhatCombines(t *testing.T) {
	refuse := errors.New("refused")
	shoot := func(v kit.Values) error {
		aimed := v.String("aim") != "none" && v.String("aim") != ""
		switch {
		case aimed && v.Int("shots") > 1:
			return refuse
		case aimed && v.String("target") == "far":
			return refuse
		case v.Bool("prone") && v.String("target") == "far":
			return refuse
		}
		return nil
	}
	sel := func(name, def string, vals ...string) engine.Field {
		f := engine.Field{Name: name, Type: engine.FieldSelect, Default: def}
		for _, v := range vals {
			f.Options = append(f.Options, engine.Choice{Value: v, Label: v})
		}
		return f
	}
	for _, tc := range []struct {
		name                 string
		fields               []engine.Field
		targets, shots, aims []string
		prone, ok            bool
	}{
		{"bursts and an aimed shot: the aimed shot takes part in most refusals and goes",
			[]engine.Field{sel("target", "", "near"), sel("shots", "1", "1", "2", "3"), sel("aim", "head", "none", "head")},
			[]string{"near"}, []string{"1", "2", "3"}, []string{"none"}, false, true},
		{"one burst and two aimed shots: the burst goes",
			[]engine.Field{sel("target", "", "near"), sel("shots", "1", "1", "2"), sel("aim", "head", "none", "head", "arm")},
			[]string{"near"}, []string{"1"}, []string{"none", "head", "arm"}, false, true},
		{"a far target can only be shot unaimed",
			[]engine.Field{sel("target", "", "near", "far"), sel("aim", "none", "none", "head", "arm")},
			[]string{"near"}, nil, []string{"none", "head", "arm"}, false, true},
		{"with more ways to aim than targets near, the aims go",
			[]engine.Field{sel("target", "", "far", "near"), sel("aim", "", "head")},
			[]string{"near"}, nil, []string{"head"}, false, true},
		{"a box refused with a target: unticked only, so no box",
			[]engine.Field{sel("target", "", "far", "near", "nearer"), {Name: "prone", Type: engine.FieldCheckbox}},
			[]string{"far", "near", "nearer"}, nil, nil, false, true},
		{"nothing left",
			[]engine.Field{sel("target", "", "far"), sel("aim", "", "head")},
			nil, nil, nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(tc.fields)
			got, ok := kit.Narrow(tc.fields, shoot)
			if ok != tc.ok {
				t.Fatalf("ok %v", ok)
			}
			if !slices.EqualFunc(before, tc.fields, func(a, b engine.Field) bool { return slices.Equal(a.Options, b.Options) && a.Default == b.Default }) {
				t.Error("the fields given were changed")
			}
			if !ok {
				return
			}
			if f := field(got, "target"); !slices.Equal(values(*f), tc.targets) {
				t.Errorf("targets %v, want %v", values(*f), tc.targets)
			}
			if f := field(got, "shots"); f != nil && !slices.Equal(values(*f), tc.shots) {
				t.Errorf("shots %v, want %v", values(*f), tc.shots)
			}
			if f := field(got, "aim"); f != nil && !slices.Equal(values(*f), tc.aims) {
				t.Errorf("aims %v, want %v", values(*f), tc.aims)
			}
			if f := field(got, "prone"); (f != nil) != tc.prone {
				t.Errorf("prone offered: %v", f != nil)
			}
			for _, f := range got {
				if f.Type == engine.FieldSelect && f.Default != "" && !slices.Contains(values(f), f.Default) {
					t.Errorf("%s defaults to %q, not offered", f.Name, f.Default)
				}
			}
		})
	}
}

// A form too big to check whole is checked a choice at a time, the
// others at their defaults.
func TestNarrowABigForm(t *testing.T) {
	var squares []engine.Choice
	for i := range kit.MaxCombinations + 1 {
		squares = append(squares, engine.Choice{Value: strconv.Itoa(i)})
	}
	fields := []engine.Field{{Name: "to", Type: engine.FieldSelect, Options: squares}, {Name: "n", Type: engine.FieldNumber, Min: 2, Max: 5}}
	checked := 0
	got, ok := kit.Narrow(fields, func(v kit.Values) error {
		checked++
		if v.Int("n") != 2 {
			t.Errorf("a number is at its minimum when it has no default: %d", v.Int("n"))
		}
		if v.Int("to")%2 == 1 {
			return errors.New("odd")
		}
		return nil
	})
	if !ok || len(got[0].Options) != kit.MaxCombinations/2+1 || checked != kit.MaxCombinations+1 {
		t.Fatalf("%v: %d squares kept, %d checked", ok, len(got[0].Options), checked)
	}
}

// A form with no choice that its check refuses is not offered.
func TestNarrowNoChoices(t *testing.T) {
	fields := []engine.Field{{Name: "n", Type: engine.FieldNumber, Min: 1, Max: 3}}
	if _, ok := kit.Narrow(fields, func(kit.Values) error { return errors.New("no") }); ok {
		t.Error("offered, refused")
	}
	if got, ok := kit.Narrow(fields, func(kit.Values) error { return nil }); !ok || len(got) != 1 {
		t.Error("not offered, accepted")
	}
}
