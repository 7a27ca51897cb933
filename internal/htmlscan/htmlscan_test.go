package htmlscan

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestTopIDs(t *testing.T) {
	ids, err := TopIDs(`<li id="a"><img src="x"><span id="inner">t</span></li><br/><p>no id</p><div id="b"></div>`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "", "", "b"}; !slices.Equal(ids, want) {
		t.Errorf("TopIDs = %q, want %q", ids, want)
	}
	if _, err := TopIDs(`<div id="a"><span>`); err == nil {
		t.Error("an element left open is not an error")
	}
}

func TestElementByID(t *testing.T) {
	markup := `<ul><li id="a"><input id="i"><ul><li id="b">x</li></ul></li><li id="c"/></ul>`
	for _, c := range []struct{ id, want string }{
		{"a", `<li id="a"><input id="i"><ul><li id="b">x</li></ul></li>`},
		{"i", `<input id="i">`},
		{"b", `<li id="b">x</li>`},
		{"c", `<li id="c"/>`},
	} {
		start, end, ok := ElementByID(markup, c.id)
		if !ok || markup[start:end] != c.want {
			t.Errorf("ElementByID(%q) = %q, %v; want %q", c.id, markup[max(start, 0):max(end, 0)], ok, c.want)
		}
	}
	if _, _, ok := ElementByID(markup, "nope"); ok {
		t.Error("found an id the markup does not hold")
	}
	// The search and the tokenizer agree, on markup as templates write it
	// and on markup the search leaves to the tokenizer.
	for _, m := range []string{
		markup,
		`<p title="x id=&#34;a&#34;">t</p><div data-x=" id=" id="a"><div>in</div></div>`,
		`<p>an id="a" in text</p><section id="a"><div><div></div></div></section>`,
		`<ul><li id='a'>single</li><li  id=a>bare</li></ul>`,
		`<div id="a"><div id="a2">x</div>`, // never closed
		`<!-- <b id="a"> --><i id="a">i</i>`,
	} {
		for _, id := range []string{"a", "a2", "i", "b", "c", "zz"} {
			s1, e1, ok1 := ElementByID(m, id)
			s2, e2, ok2 := elementByIDTokenized(m, id)
			if ok1 != ok2 || ok1 && m[s1:e1] != m[s2:e2] {
				t.Errorf("ElementByID(%q, %q) = %q, %v; the tokenizer finds %q, %v", m, id, m[s1:max(e1, s1)], ok1, m[s2:max(e2, s2)], ok2)
			}
		}
	}
}

// TestDiff: parts that differ are sent by the id they replace; a change
// outside the parts, a part more or fewer, or markup without parts is sent
// whole; the same markup is nothing.
func TestDiff(t *testing.T) {
	shown := `<section id="s"><h2>T</h2><ul><li id="a" data-part>1<span id="in" data-part>x</span></li><li id="b" data-part>2</li></ul><img id="i" data-part></section>`
	for _, c := range []struct {
		name, next string
		want       map[string]string
		whole      bool
	}{
		{"same", shown, nil, false},
		{"one part", strings.Replace(shown, ">2<", ">3<", 1), map[string]string{"b": `<li id="b" data-part>3</li>`}, false},
		{"inner part", strings.Replace(shown, ">x<", ">y<", 1), map[string]string{"a": `<li id="a" data-part>1<span id="in" data-part>y</span></li>`}, false},
		{"another id", strings.Replace(shown, `<li id="b" data-part>2`, `<li id="c" data-part>2`, 1), map[string]string{"b": `<li id="c" data-part>2</li>`}, false},
		{"void part", strings.Replace(shown, `<img id="i" data-part>`, `<img id="i" data-part alt="">`, 1), map[string]string{"i": `<img id="i" data-part alt="">`}, false},
		{"outside", strings.Replace(shown, ">T<", ">U<", 1), nil, true},
		{"fewer parts", strings.Replace(shown, `<li id="b" data-part>2</li>`, ``, 1), nil, true},
		{"no parts", `<p>a</p>`, nil, true},
	} {
		got, whole := Diff(shown, c.next)
		if whole != c.whole || !maps.Equal(got, c.want) {
			t.Errorf("%s: Diff = %q, %v; want %q, %v", c.name, got, whole, c.want, c.whole)
		}
		if !whole {
			if applied, _ := Apply(shown, got); applied != c.next {
				t.Errorf("%s: applied, the parts give %q, not %q", c.name, applied, c.next)
			}
		}
	}
	// Its words and attribute values do not make parts; elements of a
	// part's name inside it do not end it; an SVG group closes itself.
	tricky := `<ul title="x data-part y"><li id="a" data-part> data-part<ul><li>in</li></ul>1</li><g id="g" data-part/><li id="b" data-part title="a&#34;b">2</li></ul>`
	got, whole := Diff(tricky, strings.Replace(strings.Replace(tricky, ">1<", ">3<", 1), ">2<", ">4<", 1))
	if want := map[string]string{"a": `<li id="a" data-part> data-part<ul><li>in</li></ul>3</li>`, "b": `<li id="b" data-part title="a&#34;b">4</li>`}; whole || !maps.Equal(got, want) {
		t.Errorf("Diff = %q, %v; want %q", got, whole, want)
	}
	if _, whole := Diff(`<p>a</p>`, `<p>b</p>`); !whole {
		t.Error("markup without parts that changed is not sent whole")
	}
	if _, whole := Diff(`<p id="a" data-part>a</p>`, `<p data-part>b</p>`); !whole {
		t.Error("a part without an id is not sent whole")
	}
}

// TestApply: the element of an id is found whole — nested elements of the
// same tag, void elements — and replaced by its part; every element is
// found before any is replaced, so a part may carry another part's id.
func TestApply(t *testing.T) {
	markup := `<section id="s"><div id="a"><div>x</div><input id="i"></div><p id="b">y</p></section>`
	got, found := Apply(markup, map[string]string{"a": `<div id="b">1</div>`, "b": `<p id="a">2</p>`})
	if want := `<section id="s"><div id="b">1</div><p id="a">2</p></section>`; got != want || len(found) != 2 {
		t.Errorf("Apply = %q (%q), want %q", got, found, want)
	}
	if got, found := Apply(markup, map[string]string{"nope": "<p></p>"}); got != markup || len(found) != 0 {
		t.Errorf("a part of an id markup lacks changed it: %q", got)
	}
}
