package statblock

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

// TestNormalize undoes what a PDF copy does to text, keeping the pasted
// line numbers.
func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ofﬁce ﬂag", "1:Office flag"},
		{"Roll d 8 and 2 d6 or D10", "1:Roll d8 and 2d6 or d10"},
		{"Armour −1, Parry –2, Pace —", "1:Armour -1, Parry -2, Pace -"},
		{"Intimi-\ndation d8", "1:Intimidation d8"},
		{"Man-\nAt-arms", "1:Man-|2:At-arms"},
		{"a\r\n\r\n\u00a0b\u00adc  d", "1:a|3:bc d"},
		{"", ""},
	} {
		var got []string
		for _, l := range Normalize(c.in) {
			got = append(got, itoa(l.N)+":"+l.Text)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, g, c.want)
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestParse reads a generic format: labels with and without colons,
// lists, mid-line labels, tables, page headers, bullets, prose; and
// reports what it does not know by line.
func TestParse(t *testing.T) {
	f := Format{Entries: []Entry{
		{Labels: []string{"Height"}, Read: func(b *Builder, it string) error { b.Set("height", it); return nil }},
		{Labels: []string{"Weight"}, MidLine: true, Read: func(b *Builder, it string) error { b.Set("weight", it); return nil }},
		{Labels: []string{"Gear"}, Read: func(b *Builder, it string) error { b.Set("gear."+it, "on"); return nil }},
		{Labels: []string{"Notes"}, Prose: true, Skip: "prose"},
		{Labels: []string{"Tricks"}, Whole: true, Read: func(b *Builder, it string) error { b.Set("trick."+it, "on"); return nil }},
	}}
	r, err := Parse("Ogre (big)\nHeight 3 Weight 9\nGear: rope, torch,\nlamp\nBESTIARY 87\nHuh: what\nTricks:\n• juggle, badly\nNotes the ogre\nsleeps a lot", f)
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "Ogre (big)" {
		t.Errorf("name %q", r.Name)
	}
	for k, v := range map[string]string{"height": "3", "weight": "9", "gear.rope": "on", "gear.torch": "on", "gear.lamp": "on", "trick.juggle, badly": "on"} {
		if r.Values.Get(k) != v {
			t.Errorf("%s = %q, want %q (%v)", k, r.Values.Get(k), v, r.Values)
		}
	}
	if len(r.Unknown) != 1 || r.Unknown[0].Line != 6 {
		t.Errorf("unknown %+v, want line 6", r.Unknown)
	}
	if len(r.Skipped) != 3 || r.Skipped[0].Line != 5 || r.Skipped[1].Line != 9 || r.Skipped[2].Line != 10 {
		t.Errorf("skipped %+v, want lines 5, 9, 10", r.Skipped)
	}
	r, err = Parse("Ogre\nHeight Weight\n3 (+1) 9\n", f)
	if err != nil || r.Values.Get("height") != "3 (+1)" || r.Values.Get("weight") != "9" {
		t.Errorf("table: %v %v", r.Values, err)
	}
	if _, err := Parse(strings.Repeat("x", MaxBytes+1), f); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("a huge block: %v", err)
	}
	if _, err := Parse(strings.Repeat("x\n", MaxLines+1), f); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("too many lines: %v", err)
	}
	if _, err := Parse("Height 3", f); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("no name: %v", err)
	}
}

// BenchmarkParse reads a block of the generic format the size of a long
// book monster (a paste is read once a request).
func BenchmarkParse(b *testing.B) {
	f := Format{Entries: []Entry{
		{Labels: []string{"Height"}, Read: func(b *Builder, it string) error { b.Set("height", it); return nil }},
		{Labels: []string{"Gear"}, Read: func(b *Builder, it string) error { b.Set("gear."+it, "on"); return nil }},
	}}
	text := "Ogre\n" + strings.Repeat("Height 3\nGear: rope, torch, lamp, ﬂask, d 8 dice\n", 40)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Parse(text, f); err != nil {
			b.Fatal(err)
		}
	}
}
