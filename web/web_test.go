package web

import (
	"bytes"
	"context"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/swzones"
)

// testView is a running sw-zones encounter seen by Ana's player: two sides,
// three zones, one melee, one Full fighter (Ana), a pending decision and
// actions with select, number and checkbox fields.
func testView() engine.View {
	return engine.View{
		ID: "enc-1", Name: "Ambush at the Market", Ruleset: "sw-zones",
		Status: engine.StatusRunning, Round: 2, Seq: 7,
		Viewer: engine.PlayerViewer("ana"),
		Sides:  []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "bandits", Name: "Bandits"}},
		Combatants: []engine.Combatant{
			{ID: "ana", Name: "Ana Vega", Side: "heroes", PC: true},
			{ID: "bruno", Name: "Bruno", Side: "heroes", PC: true},
			{ID: "thug", Name: "Thug", Side: "bandits"},
			{ID: "boss", Name: "Red Mara", Side: "bandits"},
			{ID: "lookout", Name: "Lookout", Side: "bandits", Out: true},
		},
		Order:   []string{"ana", "boss", "thug", "bruno", "lookout"},
		Current: "ana",
		Pending: []engine.Decision{{
			ID: "d1", For: "ana", Kind: "soak", Prompt: "Spend a Benny to soak?",
			Options: []engine.Choice{{Value: "soak", Label: "Soak"}, {Value: "take", Label: "Take the wound"}},
		}},
		Rules: swzones.View{
			Deck: 40,
			Zones: []swzones.ZoneView{
				{
					ID: "market", Name: "Market Square", Description: "Stalls and carts.", Cover: "light",
					Adjacent: []string{"alley", "roofs"},
					Melees:   []swzones.MeleeView{{ID: "m1", Members: []string{"ana", "thug"}}},
				},
				{ID: "alley", Name: "Dark Alley", Adjacent: []string{"market"}, Unengaged: []string{"bruno", "lookout"}},
				{ID: "roofs", Name: "Rooftops", Cover: "medium", Adjacent: []string{"market"}, Unengaged: []string{"boss"}},
			},
			Fighters: map[string]swzones.FighterView{
				"ana": {
					ID: "ana", WildCard: true, Wounds: 1, MaxWounds: 3, Card: "K♠", Zone: "market", Melee: "m1",
					Full: true, Movement: 4, Parry: 6, Toughness: 7, Armor: 2, Bennies: 2,
					Traits:  map[string]string{"Fighting": "d10", "Agility": "d8", "Vigor": "d6"},
					Weapons: []swzones.WeaponView{{ID: "sword", Name: "Long sword", Damage: "Str+d8"}},
				},
				"bruno": {ID: "bruno", WildCard: true, MaxWounds: 3, Card: "4♦", Zone: "alley"},
				"thug":  {ID: "thug", Shaken: true, Card: "9♣", Zone: "market", Melee: "m1"},
				// Not Full: whatever the ruleset left in Traits must not show.
				"boss": {
					ID: "boss", WildCard: true, MaxWounds: 3, Wounds: 2, Card: "Red Joker", Zone: "roofs",
					Traits: map[string]string{"Spellcasting": "d12"}, Parry: 9,
				},
				"lookout": {ID: "lookout", Incapacitated: true, Status: "bleeding out", Zone: "alley", Card: "2♥"},
			},
		},
		Actions: []engine.Action{
			{
				Kind: "fight", Actor: "ana", Label: "Attack", Help: "A Fighting roll against the target's Parry.",
				Fields: []engine.Field{
					{Name: "target", Label: "Target", Type: "select", Options: []engine.Choice{
						{Value: "thug", Label: "Thug"}, {Value: "boss", Label: "Red Mara"},
					}, Default: "boss"},
					{Name: "attacks", Label: "Attacks", Type: "number", Min: 1, Max: 3, Default: "1"},
					{Name: "wild", Label: "Wild Attack", Type: "checkbox"},
				},
			},
			{Kind: "end-turn", Actor: "ana", Label: "End turn"},
		},
	}
}

func testLog() []engine.Event {
	return []engine.Event{
		{Seq: 1, Kind: engine.KindStarted, Text: "The encounter begins."},
		{Seq: 4, Kind: engine.KindRoundStarted, Round: 1, Text: "Round 1 begins."},
		{Seq: 5, Kind: "shoot", Round: 1, Actor: "bruno", Text: "Bruno shoots the Thug.", Rolls: []dice.Roll{{
			Label: "Shooting", Who: "bruno",
			Dice: []dice.Die{{Sides: 8, Faces: []int{8, 5}}},
			Mod:  -2, Total: 11, Target: 4, Result: "success, 1 raise",
		}}},
		{Seq: 6, Kind: engine.KindRoundStarted, Round: 2, Text: "Round 2 begins."},
		{Seq: 7, Kind: "fight", Round: 2, Actor: "ana", Text: "Ana Vega attacks Red Mara.", Secret: true, Rolls: []dice.Roll{{
			Label: "Fighting", Who: "ana",
			Dice: []dice.Die{{Sides: 10, Faces: []int{3}}, {Sides: 6, Faces: []int{6, 2}}},
			Kept: 2, Total: 8, Target: 9, Result: "failure",
		}}},
	}
}

func renderString(t *testing.T, c templ.Component) string {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	return b.String()
}

func parseHTML(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc
}

func parseFragment(t *testing.T, s string) []*html.Node {
	t.Helper()
	ctx := &html.Node{Type: html.ElementNode, Data: "ol", DataAtom: atom.Ol}
	nodes, err := html.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		t.Fatalf("parse fragment: %v", err)
	}
	return nodes
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// findAll returns every element under n (n included) that match accepts.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func byID(n *html.Node, id string) *html.Node {
	found := findAll(n, func(e *html.Node) bool { v, ok := attr(e, "id"); return ok && v == id })
	if len(found) == 0 {
		return nil
	}
	return found[0]
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	return slices.Contains(strings.Fields(v), class)
}

// blocks are the elements a reader separates from their neighbours.
var blocks = map[string]bool{
	"div": true, "p": true, "li": true, "dt": true, "dd": true, "h1": true, "h2": true, "h3": true,
	"summary": true, "legend": true, "label": true, "button": true, "option": true, "ul": true, "ol": true, "dl": true,
}

// text is n's text as a reader meets it: inline elements run together (so
// a missing space shows), block elements are separated.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		if blocks[n.Data] {
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if blocks[n.Data] {
			b.WriteByte(' ')
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func encounterPage(t *testing.T) (string, *html.Node) {
	t.Helper()
	s := renderString(t, Encounter(EncounterProps{
		View: testView(), Log: testLog(), As: "ana",
		WSURL: "/encounters/enc-1/ws?as=ana&html=1", ActURL: "/encounters/enc-1/commands?as=ana",
		CanSwitch: true,
	}))
	return s, parseHTML(t, s)
}

func TestEncounterPageStructure(t *testing.T) {
	s, doc := encounterPage(t)
	for _, id := range []string{"main", "encounter", "conn", "notice", "status", "order", "battlefield", "pending", "actions", "log"} {
		if byID(doc, id) == nil {
			t.Errorf("no element with id %q", id)
		}
	}
	// Every id is unique, or labels and focus restoration break.
	seen := map[string]bool{}
	for _, n := range findAll(doc, func(n *html.Node) bool { _, ok := attr(n, "id"); return ok }) {
		id, _ := attr(n, "id")
		if seen[id] {
			t.Errorf("duplicate id %q", id)
		}
		seen[id] = true
	}
	root := byID(doc, "encounter")
	for k, want := range map[string]string{"data-ws-url": "/encounters/enc-1/ws?as=ana&html=1", "data-seq": "7", "data-encounter": "enc-1"} {
		if got, _ := attr(root, k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if v, _ := attr(byID(doc, "log"), "aria-live"); v != "polite" {
		t.Errorf("log aria-live = %q, want polite", v)
	}
	if v, _ := attr(byID(doc, "conn"), "aria-live"); v != "polite" {
		t.Errorf("conn aria-live = %q", v)
	}
	if v, _ := attr(byID(doc, "notice"), "role"); v != "alert" {
		t.Errorf("notice role = %q", v)
	}
	if html := findAll(doc, tag("html")); len(html) != 1 || mustAttr(html[0], "lang") != "en" {
		t.Error("html lang=en missing")
	}
	if skip := findAll(doc, func(n *html.Node) bool { return n.Data == "a" && hasClass(n, "skip") }); len(skip) != 1 || mustAttr(skip[0], "href") != "#main" {
		t.Error("skip link to #main missing")
	}
	// Content-Security-Policy: no inline script, handler or style.
	for _, sc := range findAll(doc, tag("script")) {
		if src, _ := attr(sc, "src"); src != "/static/app.js" || sc.FirstChild != nil {
			t.Errorf("inline or unexpected script: src=%q", src)
		}
		if _, ok := attr(sc, "defer"); !ok {
			t.Error("script is not deferred")
		}
	}
	if strings.Contains(s, "style=") || findAll(doc, tag("style")) != nil {
		t.Error("page has a style attribute or element")
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=`).MatchString(s) {
		t.Error("page has an inline event handler")
	}
	if !strings.Contains(s, `href="/static/app.css"`) {
		t.Error("stylesheet missing")
	}
}

func mustAttr(n *html.Node, k string) string { v, _ := attr(n, k); return v }

func TestEncounterHeaderAndStatus(t *testing.T) {
	_, doc := encounterPage(t)
	head := text(findAll(doc, func(n *html.Node) bool { return hasClass(n, "enc-head") })[0])
	for _, want := range []string{"Ambush at the Market", "You are Ana Vega", "Switch viewer"} {
		if !strings.Contains(head, want) {
			t.Errorf("header %q lacks %q", head, want)
		}
	}
	status := text(byID(doc, "status"))
	for _, want := range []string{"Running", "Round 2", "Turn Ana Vega", "your turn", "40 cards left"} {
		if !strings.Contains(status, want) {
			t.Errorf("status %q lacks %q", status, want)
		}
	}
}

func TestBattlefield(t *testing.T) {
	_, doc := encounterPage(t)
	bf := byID(doc, "battlefield")
	zones := findAll(bf, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "zone") })
	if len(zones) != 3 {
		t.Fatalf("got %d zone list items, want 3", len(zones))
	}
	if p := zones[0].Parent; p.Data != "ul" || !hasClass(p, "zones") {
		t.Errorf("zones are not in a list: parent %s", p.Data)
	}
	market := text(zones[0])
	for _, want := range []string{"Market Square", "Stalls and carts.", "Cover: light", "Next to Dark Alley, Rooftops", "Melee 1"} {
		if !strings.Contains(market, want) {
			t.Errorf("market zone %q lacks %q", market, want)
		}
	}
	// The melee is a nested list holding Ana and the Thug, labelled by its name.
	melee := findAll(zones[0], func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "melee") })
	if len(melee) != 1 {
		t.Fatalf("got %d melees in the market", len(melee))
	}
	members := findAll(melee[0], func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "fighter") })
	if len(members) != 2 || !strings.Contains(text(members[0]), "Ana Vega") || !strings.Contains(text(members[1]), "Thug") {
		t.Errorf("melee members wrong: %d", len(members))
	}
	if ul := members[0].Parent; ul.Data != "ul" || mustAttr(ul, "aria-labelledby") == "" || byID(doc, mustAttr(ul, "aria-labelledby")) == nil {
		t.Error("melee fighter list is not a labelled ul")
	}
	for _, z := range []struct {
		i    int
		want []string
	}{
		{1, []string{"Dark Alley", "Bruno", "Lookout", "Incapacitated", "bleeding out", "Not engaged"}},
		{2, []string{"Rooftops", "Cover: medium", "Red Mara", "Wild Card", "Wounds 2/3"}},
	} {
		got := text(zones[z.i])
		for _, want := range z.want {
			if !strings.Contains(got, want) {
				t.Errorf("zone %d %q lacks %q", z.i, got, want)
			}
		}
	}
	ana := text(byID(doc, "f-ana"))
	for _, want := range []string{"Ana Vega", "Heroes", "Wild Card", "Wounds 1/3", "Parry 6", "Toughness 7 (2)", "Movement left 4", "Bennies 2", "Agility d8", "Fighting d10", "Long sword"} {
		if !strings.Contains(ana, want) {
			t.Errorf("Ana (Full) %q lacks %q", ana, want)
		}
	}
	if d := findAll(byID(doc, "f-ana"), tag("details")); len(d) != 1 {
		t.Error("Ana's traits are not in a <details>")
	}
	// Side is given as text as well as colour.
	thug := byID(doc, "f-thug")
	if !strings.Contains(text(thug), "Bandits") || !strings.Contains(text(thug), "Shaken") {
		t.Errorf("thug %q lacks side name or Shaken", text(thug))
	}
	if !hasClass(thug, "side-1") {
		t.Error("thug lacks its side colour class")
	}
}

func TestNonFullFighterHidesStatBlock(t *testing.T) {
	s, doc := encounterPage(t)
	boss := byID(doc, "f-boss")
	if boss == nil {
		t.Fatal("no boss")
	}
	got := text(boss)
	for _, leak := range []string{"Spellcasting", "d12", "Parry", "Toughness", "Movement"} {
		if strings.Contains(got, leak) {
			t.Errorf("non-Full fighter shows %q: %q", leak, got)
		}
	}
	if strings.Contains(s, "Spellcasting") {
		t.Error("a non-Full fighter's trait appears somewhere on the page")
	}
	if findAll(boss, tag("details")) != nil {
		t.Error("non-Full fighter has a stat block")
	}
}

func TestOrder(t *testing.T) {
	_, doc := encounterPage(t)
	ol := findAll(byID(doc, "order"), tag("ol"))
	if len(ol) != 1 {
		t.Fatal("turn order is not an <ol>")
	}
	items := findAll(ol[0], tag("li"))
	if len(items) != 5 {
		t.Fatalf("got %d turn items", len(items))
	}
	if v, _ := attr(items[0], "aria-current"); v != "step" || !strings.Contains(text(items[0]), "K♠") {
		t.Errorf("first turn: aria-current=%q text=%q", v, text(items[0]))
	}
	for _, it := range items[1:] {
		if _, ok := attr(it, "aria-current"); ok {
			t.Errorf("%q is marked current too", text(it))
		}
	}
	if !strings.Contains(text(items[1]), "Red Joker") {
		t.Errorf("boss card missing: %q", text(items[1]))
	}
	out := items[4]
	if len(findAll(out, tag("s"))) != 1 || !strings.Contains(text(out), "(out)") {
		t.Errorf("out combatant not struck through with text: %q", text(out))
	}
}

func TestPendingDecision(t *testing.T) {
	_, doc := encounterPage(t)
	form := byID(doc, "dec-d1")
	if form == nil || form.Data != "form" || !hasClass(form, "decision") {
		t.Fatal("decision form missing")
	}
	if mustAttr(form, "method") != "post" || mustAttr(form, "action") != "/encounters/enc-1/commands?as=ana" {
		t.Errorf("decision form posts to %q %q", mustAttr(form, "method"), mustAttr(form, "action"))
	}
	hidden := map[string]string{}
	for _, in := range findAll(form, tag("input")) {
		if mustAttr(in, "type") == "hidden" {
			hidden[mustAttr(in, "name")] = mustAttr(in, "value")
		}
	}
	// An answer names no actor: the decision says who answers.
	if hidden["kind"] != "answer" || hidden["decision"] != "d1" || hidden["actor"] != "" {
		t.Errorf("hidden inputs %v", hidden)
	}
	var choices []string
	for _, b := range findAll(form, tag("button")) {
		if mustAttr(b, "type") != "submit" || mustAttr(b, "name") != "choice" {
			t.Errorf("decision button %q is not a submit named choice", text(b))
		}
		choices = append(choices, mustAttr(b, "value")+"="+text(b))
	}
	if !slices.Equal(choices, []string{"soak=Soak", "take=Take the wound"}) {
		t.Errorf("choices %v", choices)
	}
	if !strings.Contains(text(form), "Spend a Benny to soak?") {
		t.Error("prompt missing")
	}

	// A viewer waiting on someone else is told whom.
	v := testView()
	v.Pending, v.Waiting = nil, []string{"the GM"}
	s := renderString(t, PendingSection(v, ""))
	if !strings.Contains(s, "Waiting for the GM…") || strings.Contains(s, "<form") {
		t.Errorf("waiting section wrong: %s", s)
	}
}

func TestActions(t *testing.T) {
	_, doc := encounterPage(t)
	sec := byID(doc, "actions")
	forms := findAll(sec, func(n *html.Node) bool { return n.Data == "form" && hasClass(n, "action") })
	if len(forms) != 2 {
		t.Fatalf("got %d action forms", len(forms))
	}
	if h := findAll(sec, tag("h3")); len(h) != 1 || text(h[0]) != "Ana Vega" {
		t.Error("actions are not grouped under the actor's name")
	}
	attack := forms[0]
	if mustAttr(attack, "method") != "post" || mustAttr(attack, "action") != "/encounters/enc-1/commands?as=ana" {
		t.Error("attack form does not post to ActURL")
	}
	hidden := map[string]string{}
	for _, in := range findAll(attack, tag("input")) {
		if mustAttr(in, "type") == "hidden" {
			hidden[mustAttr(in, "name")] = mustAttr(in, "value")
		}
	}
	if hidden["kind"] != "fight" || hidden["actor"] != "ana" {
		t.Errorf("hidden inputs %v", hidden)
	}
	sel := findAll(attack, tag("select"))
	if len(sel) != 1 || mustAttr(sel[0], "name") != "target" || mustAttr(sel[0], "data-type") != "select" {
		t.Fatal("target select missing")
	}
	var opts []string
	for _, o := range findAll(sel[0], tag("option")) {
		s := mustAttr(o, "value") + "=" + text(o)
		if _, ok := attr(o, "selected"); ok {
			s += "*"
		}
		opts = append(opts, s)
	}
	if !slices.Equal(opts, []string{"thug=Thug", "boss=Red Mara*"}) {
		t.Errorf("select options %v", opts)
	}
	// Every control has a label pointing at it and a data-type.
	for _, c := range findAll(attack, func(n *html.Node) bool {
		return n.Data == "select" || n.Data == "input" && mustAttr(n, "type") != "hidden"
	}) {
		id := mustAttr(c, "id")
		labels := findAll(attack, func(n *html.Node) bool { return n.Data == "label" && mustAttr(n, "for") == id })
		if id == "" || len(labels) != 1 {
			t.Errorf("control %q has no label", mustAttr(c, "name"))
		}
		if mustAttr(c, "data-type") == "" {
			t.Errorf("control %q has no data-type", mustAttr(c, "name"))
		}
	}
	num := findAll(attack, func(n *html.Node) bool { return n.Data == "input" && mustAttr(n, "type") == "number" })
	if len(num) != 1 || mustAttr(num[0], "min") != "1" || mustAttr(num[0], "max") != "3" || mustAttr(num[0], "value") != "1" || mustAttr(num[0], "data-type") != "number" {
		t.Errorf("number field wrong: %+v", num)
	}
	cb := findAll(attack, func(n *html.Node) bool { return n.Data == "input" && mustAttr(n, "type") == "checkbox" })
	if len(cb) != 1 || mustAttr(cb[0], "data-type") != "checkbox" {
		t.Error("checkbox missing")
	}
	btn := findAll(attack, tag("button"))
	if len(btn) != 1 || text(btn[0]) != "Attack" || mustAttr(btn[0], "type") != "submit" {
		t.Fatal("submit button missing")
	}
	help := byID(doc, mustAttr(btn[0], "aria-describedby"))
	if help == nil || text(help) != "A Fighting roll against the target's Parry." {
		t.Error("help is not linked with aria-describedby")
	}
	// No fields: just a button.
	end := forms[1]
	if len(findAll(end, tag("fieldset"))) != 0 || len(findAll(end, tag("button"))) != 1 || text(end) != "End turn" {
		t.Errorf("field-less action renders %q", text(end))
	}
}

func TestUnknownFieldTypeFallsBackToText(t *testing.T) {
	v := testView()
	v.Actions = []engine.Action{{Kind: "shout", Actor: "ana", Label: "Shout", Fields: []engine.Field{
		{Name: "words", Label: "Words", Type: "text", Default: "Charge!"},
	}}}
	doc := parseHTML(t, renderString(t, ActionsSection(v, "")))
	in := byID(doc, "act-ana-shout-words")
	if in == nil || in.Data != "input" || mustAttr(in, "type") != "text" || mustAttr(in, "value") != "Charge!" || mustAttr(in, "data-type") != "text" {
		t.Errorf("unknown field type rendered as %+v", in)
	}
}

func TestGMSeesWhoADecisionIsFor(t *testing.T) {
	v := testView()
	v.Viewer = engine.GMViewer()
	s := text(parseHTML(t, renderString(t, PendingSection(v, ""))))
	if !strings.Contains(s, "Asked of Ana Vega") {
		t.Errorf("GM pending section %q does not say whom the decision is for", s)
	}
	v.Pending[0].For = engine.GM
	doc := parseHTML(t, renderString(t, PendingSection(v, "")))
	for _, in := range findAll(doc, tag("input")) {
		if mustAttr(in, "name") == "actor" {
			t.Error("a decision for the GM carries an actor")
		}
	}
}

func TestGMActionsHaveNoActor(t *testing.T) {
	v := testView()
	v.Viewer = engine.GMViewer()
	v.Actions = []engine.Action{{Kind: engine.KindPause, Label: "Pause"}}
	doc := parseHTML(t, renderString(t, ActionsSection(v, "/act")))
	forms := findAll(doc, tag("form"))
	if len(forms) != 1 {
		t.Fatal("no form")
	}
	for _, in := range findAll(forms[0], tag("input")) {
		if mustAttr(in, "name") == "actor" {
			t.Error("a GM-level action carries an actor input; the engine rejects unknown fields")
		}
	}
	if h := findAll(doc, tag("h3")); len(h) != 1 || text(h[0]) != "Encounter" {
		t.Error("GM actions are not grouped under Encounter")
	}
}

func TestLog(t *testing.T) {
	_, doc := encounterPage(t)
	log := byID(doc, "log")
	if log.Data != "ol" {
		t.Fatalf("log is a <%s>", log.Data)
	}
	for _, seq := range []string{"ev-1", "ev-4", "ev-5", "ev-6", "ev-7"} {
		if n := byID(log, seq); n == nil || n.Data != "li" {
			t.Errorf("log entry %s missing", seq)
		}
	}
	heads := findAll(log, func(n *html.Node) bool { return hasClass(n, "round-head") })
	if len(heads) != 2 || text(heads[0]) != "Round 1" || text(heads[1]) != "Round 2" {
		t.Errorf("round headings wrong: %d", len(heads))
	}
	shot := byID(log, "ev-5")
	if mustAttr(shot, "data-round") != "1" || mustAttr(shot, "data-actor") != "bruno" {
		t.Error("entry data attributes missing")
	}
	got := text(shot)
	for _, want := range []string{"Bruno shoots the Thug.", "Shooting (Bruno)", "d8: 8★ aced + 5", "−2", "11", "vs 4", "success, 1 raise"} {
		if !strings.Contains(got, want) {
			t.Errorf("shot entry %q lacks %q", got, want)
		}
	}
	aces := findAll(shot, func(n *html.Node) bool { return hasClass(n, "ace") })
	if len(aces) != 1 || text(aces[0]) != "8★ aced" {
		t.Errorf("aced face not marked: %d", len(aces))
	}
	// Wild Die pair: the d6 counted, the d10 did not.
	fight := byID(log, "ev-7")
	dice := findAll(fight, func(n *html.Node) bool { return hasClass(n, "die") })
	if len(dice) != 2 {
		t.Fatalf("got %d dice", len(dice))
	}
	if !hasClass(dice[0], "dropped") || !strings.Contains(text(dice[0]), "not kept") {
		t.Errorf("trait die not shown as dropped: %q", text(dice[0]))
	}
	if !hasClass(dice[1], "kept") || hasClass(dice[1], "dropped") || !strings.Contains(text(dice[1]), "d6: 6★ aced + 2") {
		t.Errorf("wild die not shown as kept: %q", text(dice[1]))
	}
	if !hasClass(fight, "secret") || !strings.Contains(text(fight), "secret") {
		t.Error("secret event lacks its badge")
	}
	if hasClass(shot, "secret") {
		t.Error("public event marked secret")
	}
}

func TestFragments(t *testing.T) {
	v := testView()
	newEvents := testLog()[3:] // round 2 started, Ana's attack
	ctx := WithActURL(context.Background(), "/encounters/enc-1/commands?as=ana")
	frags, err := Fragments(ctx, v, newEvents, false)
	if err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(SectionKeys), "log")
	if len(frags) != len(want) {
		t.Errorf("got %d keys, want %v", len(frags), want)
	}
	for _, key := range SectionKeys {
		doc := parseHTML(t, frags[key])
		body := findAll(doc, tag("body"))[0]
		first := body.FirstChild
		for first != nil && first.Type != html.ElementNode {
			first = first.NextSibling
		}
		if first == nil || mustAttr(first, "id") != key || first.NextSibling != nil && strings.TrimSpace(text(first.NextSibling)) != "" {
			t.Errorf("fragment %q is not the outer HTML of #%s: %.80s", key, key, frags[key])
		}
	}
	if !strings.Contains(frags["actions"], `action="/encounters/enc-1/commands?as=ana"`) {
		t.Error("actions fragment ignores WithActURL")
	}
	if !strings.Contains(frags["battlefield"], "Market Square") || !strings.Contains(frags["order"], "Red Joker") {
		t.Error("fragments lack content")
	}

	// The log fragment holds exactly the new events (plus their round heading).
	var ids []string
	for _, n := range parseFragment(t, frags["log"]) {
		if n.Type == html.ElementNode {
			if n.Data != "li" {
				t.Errorf("log fragment has a <%s>", n.Data)
			}
			ids = append(ids, mustAttr(n, "id"))
		}
	}
	if !slices.Equal(ids, []string{"round-2", "ev-6", "ev-7"}) {
		t.Errorf("log fragment ids %v", ids)
	}

	// No events, incremental: nothing to append. Full: the empty state.
	frags, err = Fragments(context.Background(), v, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if frags["log"] != "" {
		t.Errorf("empty incremental log = %q", frags["log"])
	}
	if !strings.Contains(frags["actions"], `action="/encounters/enc-1/commands"`) {
		t.Error("default act URL not used")
	}
	frags, err = Fragments(context.Background(), v, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(frags["log"], `id="log-empty"`) {
		t.Error("full empty log lacks the empty state")
	}

	// The same fragments equal the page's sections, so a live update and a
	// reload agree.
	page, _ := encounterPage(t)
	frags, _ = Fragments(ctx, v, testLog(), true)
	for _, key := range SectionKeys {
		if !strings.Contains(page, frags[key]) {
			t.Errorf("fragment %q differs from the page's section", key)
		}
	}
	if !strings.Contains(page, frags["log"]) {
		t.Error("full log fragment differs from the page's log")
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fragments(cancelled, v, nil, false); err == nil {
		t.Error("Fragments ignored a cancelled context")
	}
}

func TestGenericRuleset(t *testing.T) {
	v := testView()
	v.Ruleset, v.Rules = "d20-duel", map[string]any{"whatever": 1}
	doc := parseHTML(t, renderString(t, BattlefieldSection(v)))
	items := findAll(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "fighter") })
	if len(items) != len(v.Combatants) {
		t.Fatalf("generic battlefield lists %d of %d combatants", len(items), len(v.Combatants))
	}
	if got := text(items[4]); !strings.Contains(got, "Lookout") || !strings.Contains(got, "Bandits") || !strings.Contains(got, "Out") {
		t.Errorf("generic combatant %q", got)
	}
}

func TestPointerRulesView(t *testing.T) {
	v := testView()
	sw := v.Rules.(swzones.View)
	v.Rules = &sw
	if s := renderString(t, BattlefieldSection(v)); !strings.Contains(s, "Market Square") {
		t.Error("*swzones.View not rendered as zones")
	}
}

func TestNames(t *testing.T) {
	n := Names(testView())
	if len(n) != 5 || n["boss"] != "Red Mara" || n["ana"] != "Ana Vega" {
		t.Errorf("Names = %v", n)
	}
}

func TestIndexAndChoose(t *testing.T) {
	s := renderString(t, Index(IndexProps{User: "ana"}))
	for _, want := range []string{"No campaigns yet", "example encounters"} {
		if !strings.Contains(s, want) {
			t.Errorf("empty index lacks %q", want)
		}
	}
	s = renderString(t, Index(IndexProps{User: "ana", Campaigns: []CampaignSummary{{
		ID: "c1", Name: "Red Sands", Role: "gm",
		Encounters: []EncounterSummary{{ID: "e 1/x", Name: "Ambush", Ruleset: "sw-zones", Status: "running"}},
	}}}))
	if !strings.Contains(s, "Red Sands") || !strings.Contains(s, `href="/encounters/e%201%2Fx"`) || strings.Contains(s, "No campaigns yet") {
		t.Errorf("index wrong: %s", s)
	}
	s = renderString(t, Choose(ChooseProps{EncounterID: "enc-1", Name: "Ambush", Options: []ViewerOption{
		{As: "gm", Label: "The GM", Hint: "sees everything"}, {As: "ana", Label: "Ana Vega"},
	}}))
	for _, want := range []string{"Open this encounter as…", `href="/encounters/enc-1?as=gm"`, `href="/encounters/enc-1?as=ana"`, "sees everything"} {
		if !strings.Contains(s, want) {
			t.Errorf("choose page lacks %q", want)
		}
	}
}

func TestStaticAssets(t *testing.T) {
	for _, name := range []string{"static/app.css", "static/app.js", "static/favicon.svg"} {
		b, err := fs.ReadFile(Static, name)
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	js, _ := fs.ReadFile(Static, "static/app.js")
	for _, want := range []string{"'use strict'", "since=", "randomUUID", "submitter", "aria-disabled"} {
		if !bytes.Contains(js, []byte(want)) {
			t.Errorf("app.js lacks %q", want)
		}
	}
}
