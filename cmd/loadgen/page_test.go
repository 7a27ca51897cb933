package main

import (
	"slices"
	"testing"
)

// TestPageAppliesFragmentsAsAppJS: a section replaces the one of its id, a
// fragment whose first element is not that section is an error, and list
// entries are appended once each (a snapshot starts the list again).
func TestPageAppliesFragmentsAsAppJS(t *testing.T) {
	p := newPage()
	if err := p.apply(map[string]string{
		"status": `<section id="status"><span>Round 1</span><br><input type="hidden" name="x"></section>`,
		"log":    `<li id="round-1">Round 1</li><li id="ev-1">Start</li>`,
	}, true); err != nil {
		t.Fatal(err)
	}
	if err := p.apply(map[string]string{"log": `<li id="ev-1">Start</li><li id="ev-2">Hit <svg><path d="M0"/></svg></li>`}, false); err != nil {
		t.Fatal(err)
	}
	if want := []string{"round-1", "ev-1", "ev-2"}; !slices.Equal(p.lists["log"], want) {
		t.Errorf("log %v, want %v", p.lists["log"], want)
	}
	for _, bad := range []map[string]string{
		{"order": `<section id="status"></section>`},
		{"order": `<section id="order"><div></section>`},
		{"actions": `text only`},
	} {
		if err := p.apply(bad, false); err == nil {
			t.Errorf("%v applied", bad)
		}
	}
	if err := p.apply(map[string]string{"log": `<li id="ev-9">x</li>`}, true); err != nil || !slices.Equal(p.lists["log"], []string{"ev-9"}) {
		t.Errorf("snapshot: %v, %v", p.lists["log"], err)
	}
}

// TestPageAppliesParts: a part is spliced into the section holding its id
// (a part may bring another id in place of the element it replaces), so the
// section sent again whole as it now is changes nothing; a part whose
// element is elsewhere or not its id is an error.
func TestPageAppliesParts(t *testing.T) {
	p := newPage()
	section := `<section id="battlefield"><ul><li id="tok-a">A</li><li id="tok-b">B</li></ul></section>`
	if err := p.apply(map[string]string{"battlefield": section}, true); err != nil {
		t.Fatal(err)
	}
	if err := p.applyParts(map[string]string{"tok-b": `<li id="tok-b">B, hurt</li>`}); err != nil {
		t.Fatal(err)
	}
	hurt := `<section id="battlefield"><ul><li id="tok-a">A</li><li id="tok-b">B, hurt</li></ul></section>`
	if p.last["battlefield"] != hurt {
		t.Errorf("after the part the section is %s, want %s", p.last["battlefield"], hurt)
	}
	if err := p.applyParts(map[string]string{"tok-a": `<li id="tok-z">Z</li>`}); err != nil {
		t.Fatal(err)
	}
	if err := p.applyParts(map[string]string{"tok-z": `<li id="tok-a">A</li>`}); err != nil {
		t.Fatal(err)
	}
	if p.last["battlefield"] != hurt {
		t.Errorf("after two parts the section is %s, want %s", p.last["battlefield"], hurt)
	}
	for _, bad := range []map[string]string{
		{"tok-c": `<li id="tok-c">C</li>`},
		{"tok-a": `<li>B</li>`},
		{"tok-a": `<li id="tok-a">A`},
	} {
		if err := p.applyParts(bad); err == nil {
			t.Errorf("%v applied", bad)
		}
	}
}
