package htmlscan

import (
	"slices"
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
}
