package web

import (
	"bytes"
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/board/boardtest"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// testView is a running encounter on a zones board seen by Ana's player:
// two sides, three areas, one melee, Ana's full sheet, a pending decision
// and actions with select, number and checkbox fields.
func testView() engine.View {
	tokens := []board.Token{
		{ID: "ana", Name: "Ana Vega", Side: "heroes", PC: true, Acting: true, Initiative: "K♠", Tags: []string{"Wild Card"},
			Health: &board.Meter{Label: "Wounds", Value: 1, Max: 3, Text: "Wounds 1/3"},
			Stats:  []board.Stat{{Label: "Parry", Value: "6"}, {Label: "Toughness", Value: "7 (2)"}, {Label: "Movement", Value: "4"}},
			Sheet: []board.Section{{Title: "Attributes", Stats: []board.Stat{{Label: "Agility", Value: "d8"}}},
				{Title: "Weapons", Stats: []board.Stat{{Label: "Long sword", Value: "Str+d8", Note: "melee"}}}}},
		{ID: "bruno", Name: "Bruno", Side: "heroes", PC: true, Initiative: "4♦", Health: &board.Meter{Label: "Wounds", Max: 3, Text: "Wounds 0/3"}},
		{ID: "thug", Name: "Thug", Side: "bandits", Initiative: "9♣", Conditions: []board.Condition{{ID: "shaken", Label: "Shaken", Icon: board.Icon{Glyph: "✶", Legend: "Shaken"}, Text: "Can only move."}}},
		{ID: "boss", Name: "Red Mara", Side: "bandits", Initiative: "Red Joker", Tags: []string{"Wild Card"}, Health: &board.Meter{Label: "Wounds", Value: 2, Max: 3, Text: "Wounds 2/3"}},
		{ID: "lookout", Name: "Lookout", Side: "bandits", Out: true, Initiative: "2♥", Conditions: []board.Condition{{ID: "status", Label: "Bleeding out", Icon: board.Icon{Glyph: "♥", Legend: "Bleeding out", Tone: board.Bad}}}},
	}
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
		Current: "ana", Acting: []string{"ana"}, Attention: &engine.Attention{Turn: []string{"ana"}},
		Pending: []engine.Decision{{
			ID: "d1", For: "ana", Kind: "soak", Prompt: "Spend a Benny to soak?",
			Options: []engine.Choice{{Value: "soak", Label: "Soak"}, {Value: "take", Label: "Take the wound"}},
		}},
		Board: &board.Board{Model: board.Zones, Tokens: tokens, Facts: []board.Stat{{Label: "Deck", Value: "40 cards left"}},
			Zones: &board.ZoneMap{
				Areas: []board.Area{
					{ID: "market", Name: "Market Square", Description: "Stalls and carts.", Features: []string{"Light cover"}, Shade: 1},
					{ID: "alley", Name: "Dark Alley"},
					{ID: "roofs", Name: "Rooftops", Features: []string{"Medium cover"}, Shade: 2},
				},
				Links:  []board.Link{{A: "market", B: "alley"}, {A: "market", B: "roofs"}},
				Groups: []board.Group{{ID: "m1", Area: "market", Members: []string{"ana", "thug"}, Label: "Melee 1"}},
				Places: []board.Placed{{Token: "ana", Area: "market", Group: "m1"}, {Token: "thug", Area: "market", Group: "m1"},
					{Token: "bruno", Area: "alley"}, {Token: "lookout", Area: "alley"}, {Token: "boss", Area: "roofs"}},
			}},
		Actions: []engine.Action{
			{
				Kind: "fight", Actor: "ana", Label: "Attack", Main: true, Help: "A Fighting roll against the target's Parry.",
				Fields: []engine.Field{
					{Name: "target", Label: "Target", Type: "select", Target: true, Options: []engine.Choice{
						{Value: "thug", Label: "Thug"}, {Value: "boss", Label: "Red Mara"},
					}, Default: "boss"},
					{Name: "attacks", Label: "Attacks", Type: "number", Min: 1, Max: 3, Default: "1"},
					{Name: "wild", Label: "Wild Attack", Type: "checkbox"},
				},
			},
			{Kind: "end-turn", Actor: "ana", Label: "End turn", Main: true},
			{Kind: "defend", Actor: "ana", Label: "Defend", Help: "+4 Parry."},
		},
	}
}

func testLog() []engine.Event {
	say := engine.NewEvent(engine.KindChatMessage, "", "Bo: Careful!", engine.Chat{From: "Bo", As: []string{"bruno"}, Text: "Careful!"})
	say.Seq, say.Round = 20, 2
	return []engine.Event{
		{Seq: 1, Kind: engine.KindStarted, Text: "The encounter begins."},
		{Seq: 4, Kind: engine.KindRoundStarted, Round: 1, Text: "Round 1 begins."},
		{Seq: 5, Kind: "shoot", Round: 1, Actor: "bruno", Text: "Bruno shoots the Thug.", Rolls: []dice.Roll{{
			Label: "Shooting", Who: "bruno",
			Dice: []dice.Die{{Sides: 8, Faces: []int{8, 5}}},
			Mod:  -2, Mods: []dice.Mod{{Label: "cover", Value: -2}}, Total: 11, Target: 4, Compare: dice.AtLeast, Result: "success, 1 raise",
		}}},
		{Seq: 6, Kind: engine.KindRoundStarted, Round: 2, Text: "Round 2 begins."},
		{Seq: 7, Kind: "fight", Round: 2, Actor: "ana", Text: "Ana Vega attacks Red Mara.", Secret: true, Rolls: []dice.Roll{{
			Label: "Fighting", Who: "ana",
			Dice: []dice.Die{{Sides: 10, Faces: []int{3}}, {Sides: 6, Faces: []int{6, 2}}},
			Kept: 2, Total: 8, Target: 9, Result: "failure",
		}}},
		say,
	}
}

// renderString is the markup of c rendered for a visitor (page).
func renderString(t *testing.T, c templ.Component) string {
	t.Helper()
	s, _ := page(t, "", c)
	return s
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
	for _, e := range append([]*html.Node{n}, slices.Collect(n.Descendants())...) {
		if e.Type == html.ElementNode && match(e) {
			out = append(out, e)
		}
	}
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

// contains fails the test for each of wants that got (what, described)
// does not contain.
func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("%s %q lacks %q", what, got, want)
		}
	}
}

// fragmentsOf is Fragments' result; an error fails the test.
func fragmentsOf(t *testing.T, ctx context.Context, v engine.View, events []engine.Event, full bool) map[string]string {
	t.Helper()
	frags, err := Fragments(ctx, v, events, full)
	if err != nil {
		t.Fatal(err)
	}
	return frags
}

// cardsFor renders the roll cards v's viewer gets for new events.
func cardsFor(t *testing.T, v engine.View, events ...engine.Event) []*html.Node {
	t.Helper()
	return findAll(parseHTML(t, fragmentsOf(t, context.Background(), v, events, false)["cards"]), func(n *html.Node) bool { return hasClass(n, "card") })
}

// options are a select's options as value=text, a selected one marked
// with a final "*".
func options(sel *html.Node) []string {
	var out []string
	for _, o := range findAll(sel, tag("option")) {
		s := mustAttr(o, "value") + "=" + text(o)
		if _, ok := attr(o, "selected"); ok {
			s += "*"
		}
		out = append(out, s)
	}
	return out
}

// hiddenInputs maps the names of form's hidden inputs to their values.
func hiddenInputs(form *html.Node) map[string]string {
	hidden := map[string]string{}
	for _, in := range findAll(form, tag("input")) {
		if mustAttr(in, "type") == "hidden" {
			hidden[mustAttr(in, "name")] = mustAttr(in, "value")
		}
	}
	return hidden
}

// sectionDoc renders section key of v, its forms posting to /act, and
// parses it.
func sectionDoc(t *testing.T, key string, v engine.View) *html.Node {
	t.Helper()
	return parseHTML(t, renderString(t, sectionFor(key, v, "/act")))
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
	// What every page obeys: ids unique (or labels and focus restoration
	// break), no inline script, style or handler (the strict
	// Content-Security-Policy), controls labelled.
	checkPage(t, s, doc)
	// What the script needs; the log, the connection state and the notice
	// as a screen reader meets them.
	for _, c := range []struct{ id, attr, want string }{
		{"encounter", "data-ws-url", "/encounters/enc-1/ws?as=ana&html=1"}, {"encounter", "data-seq", "7"}, {"encounter", "data-encounter", "enc-1"},
		{"log", "aria-live", "off"}, {"conn", "role", "status"}, {"notice", "role", "alert"},
	} {
		if got := mustAttr(byID(doc, c.id), c.attr); got != c.want {
			t.Errorf("#%s %s = %q, want %q", c.id, c.attr, got, c.want)
		}
	}
	// One polite live region reads every event out (#announce); the log,
	// the chat and the cards are not live, so nothing is read twice.
	var live []string
	for _, n := range findAll(doc, func(n *html.Node) bool { v, _ := attr(n, "aria-live"); return v == "polite" || v == "assertive" }) {
		id, _ := attr(n, "id")
		live = append(live, id)
	}
	if strings.Join(live, " ") != "announce board-cursor" {
		t.Errorf("live regions %v, want the announcements and the board's cursor", live)
	}
	if html := findAll(doc, tag("html")); len(html) != 1 || mustAttr(html[0], "lang") != "en" {
		t.Error("html lang=en missing")
	}
	if skip := findAll(doc, func(n *html.Node) bool { return n.Data == "a" && hasClass(n, "skip") }); len(skip) != 1 || mustAttr(skip[0], "href") != "#main" {
		t.Error("skip link to #main missing")
	}
	for _, sc := range findAll(doc, tag("script")) {
		if _, ok := attr(sc, "defer"); !ok {
			t.Error("script is not deferred")
		}
	}
	contains(t, "the page (its stylesheet)", s, `href="/static/app.css"`)
}

func mustAttr(n *html.Node, k string) string { v, _ := attr(n, k); return v }

func TestEncounterHeaderAndStatus(t *testing.T) {
	_, doc := encounterPage(t)
	head := text(findAll(doc, func(n *html.Node) bool { return hasClass(n, "enc-head") })[0])
	contains(t, "header", head, "Ambush at the Market", "You are Ana Vega", "Switch viewer")
	status := text(byID(doc, "status"))
	contains(t, "status", status, "Running", "Round 2", "Turn Ana Vega", "your turn", "40 cards left")
}

func TestBattlefield(t *testing.T) {
	_, doc := encounterPage(t)
	bf := byID(doc, "battlefield")
	// The drawing is for the eye (its crowded zones scroll); the roster and
	// the zone list are for everyone, each zone's entry named by the zone
	// and who is in it.
	for _, d := range findAll(bf, func(n *html.Node) bool { return hasClass(n, "zmap") }) {
		if mustAttr(d, "aria-hidden") != "true" {
			t.Error("the zone drawing is not hidden from screen readers")
		}
		if len(findAll(d, func(n *html.Node) bool { return n.Data == "button" || n.Data == "a" || n.Data == "input" })) > 0 {
			t.Error("the hidden drawing holds focusable controls")
		}
	}
	areas := findAll(bf, func(n *html.Node) bool { return hasClass(n, "zarea") })
	if len(areas) != 3 {
		t.Fatalf("got %d areas, want 3", len(areas))
	}
	entries := findAll(bf, func(n *html.Node) bool { return hasClass(n, "zone-entry") })
	if len(entries) != 3 {
		t.Fatalf("got %d zone entries, want 3", len(entries))
	}
	if name := mustAttr(entries[0], "aria-label"); !strings.HasPrefix(name, "Zone Market Square") || !strings.Contains(name, "Ana Vega") {
		t.Errorf("the market's entry is named %q", name)
	}
	market := text(areas[0])
	contains(t, "market area", market, "Market Square", "Light cover", "Melee 1", "Ana Vega", "Thug")
	if lines := findAll(bf, tag("line")); len(lines) != 2 {
		t.Errorf("got %d border lines, want 2", len(lines))
	}
	zl := text(byID(doc, "area-market"))
	contains(t, "zone list entry", zl, "Market Square", "Light cover", "next to Dark Alley, Rooftops", "Stalls and carts.")
	ana := text(byID(doc, "tok-ana"))
	contains(t, "Ana's roster entry", ana, "Ana Vega", "Heroes", "Wild Card", "acting", "Market Square, in melee with Thug", "Wounds 1/3", "Parry 6", "Toughness 7 (2)", "Agility d8", "Long sword", "Str+d8")
	if d := findAll(byID(doc, "tok-ana"), tag("details")); len(d) != 1 {
		t.Error("Ana's sheet is not in a <details>")
	}
	btn := byID(doc, "pick-thug")
	if btn == nil || btn.Data != "button" || mustAttr(btn, "data-token") != "thug" || mustAttr(btn, "aria-pressed") != "false" {
		t.Fatalf("the Thug has no target button: %+v", btn)
	}
	thug := byID(doc, "tok-thug")
	if !strings.Contains(text(thug), "Bandits") || !strings.Contains(text(thug), "Shaken : Can only move.") || !hasClass(thug, "side-1") {
		t.Errorf("thug %q lacks side name, condition text or colour", text(thug))
	}
	contains(t, "the Lookout (out)", text(byID(doc, "tok-lookout")), "out")
}

// Every position model is drawn by its own drawer, and a board the page
// does not know falls back to the roster alone.
func TestEachModelDraws(t *testing.T) {
	want := map[string]string{"zones": "zmap", "grid-bands": "grid-svg", "grid-squares": "grid-svg", "pairs": "duels", "ladder": "ladders"}
	for _, s := range boardtest.All() {
		doc := sectionDoc(t, "battlefield", s.View)
		if len(findAll(doc, func(n *html.Node) bool { return hasClass(n, want[s.Name]) })) != 1 {
			t.Errorf("%s: no .%s drawing", s.Name, want[s.Name])
		}
		if got := len(findAll(doc, func(n *html.Node) bool { return hasClass(n, "tok-btn") })); got != len(s.View.Board.Tokens) {
			t.Errorf("%s: %d roster buttons for %d tokens", s.Name, got, len(s.View.Board.Tokens))
		}
	}
	grid := text(sectionDoc(t, "battlefield", boardtest.GridBands().View))
	contains(t, "band grid", grid, "One square: 30 m", "0 Close, 1 Medium", "Off the map", "C4, in contact with Raider 1", "Dust storm")
	squares := text(sectionDoc(t, "battlefield", boardtest.GridSquares().View))
	contains(t, "5-ft grid", squares, "E6", "Prone", "hidden", "Bleeding out", "HP 0/24", "down")
	pairs := text(sectionDoc(t, "battlefield", boardtest.Pairs().View))
	contains(t, "pairs", pairs, "Striking", "shows Feint", "Grappling", "Not engaged", "Striking with Vex")
	// The ladder's gaps are named groups: a screen reader reads their names.
	ladderDoc := sectionDoc(t, "battlefield", boardtest.Ladder().View)
	ladder := text(ladderDoc)
	for _, n := range findAll(ladderDoc, func(n *html.Node) bool { return hasClass(n, "ladder") }) {
		ladder += " " + mustAttr(n, "aria-label")
	}
	contains(t, "ladder", ladder, "Hunters and Wolves are at Medium", "Hunters and The witch are at Long", "Rifles, −2",
		"Medium from Wolves; Long from The witch", "Long from Hunters")
	v := testView()
	v.Board = &board.Board{Model: "hexes", Tokens: v.Board.Tokens}
	doc := sectionDoc(t, "battlefield", v)
	if !strings.Contains(text(doc), "keeps no positions") || len(findAll(doc, func(n *html.Node) bool { return hasClass(n, "tok-btn") })) != 5 {
		t.Error("an unknown model does not fall back to the roster")
	}
}

func TestNonFullTokenHidesSheet(t *testing.T) {
	_, doc := encounterPage(t)
	boss := byID(doc, "tok-boss")
	got := text(boss)
	for _, leak := range []string{"Parry", "Toughness", "Sheet"} {
		if strings.Contains(got, leak) {
			t.Errorf("a foe's entry shows %q: %q", leak, got)
		}
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
	contains(t, "Red Mara's turn (card and health)", text(items[1]), "Red Joker", "Wounds 2/3")
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
	hidden := hiddenInputs(form)
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
	contains(t, "the decision's prompt", text(form), "Spend a Benny to soak?")

	// A viewer waiting on someone else is told whom.
	v := testView()
	v.Pending, v.Waiting = nil, []string{"the GM", "Bruno"}
	s := renderString(t, sectionFor("pending", v, "/act"))
	if got := text(parseHTML(t, s)); !strings.Contains(got, "Waiting for: the GM Bruno") || strings.Contains(s, "<form") {
		t.Errorf("waiting section wrong: %s", got)
	}
	if len(findAll(parseHTML(t, s), tag("ul"))) != 1 {
		t.Error("the waiting parties are not a list")
	}
	// A sealed answer is shown to its author only as theirs, still hidden.
	v.Waiting = []string{"Red Mara"}
	v.Committed = []engine.Committed{{Decision: "d2", For: "ana", Prompt: "Your stance?", Choice: "feint", Label: "Feint"}}
	contains(t, "sealed answer", text(sectionDoc(t, "pending", v)), "You chose Feint — hidden until everyone has chosen.")
}

func TestActions(t *testing.T) {
	_, doc := encounterPage(t)
	sec := byID(doc, "actions")
	forms := findAll(sec, func(n *html.Node) bool { return n.Data == "form" && hasClass(n, "action") })
	if len(forms) != 3 {
		t.Fatalf("got %d action forms", len(forms))
	}
	if h := findAll(sec, tag("h3")); len(h) != 1 || text(h[0]) != "Ana Vega acting" {
		t.Error("actions are not grouped under the actor's name")
	}
	// Main actions are buttons in the bar; an action with fields is a
	// disclosure whose form shows only once chosen; the rest is behind More….
	attackD := byID(doc, "act-ana-fight-d")
	if attackD == nil || attackD.Data != "details" || mustAttr(attackD, "name") != "act" {
		t.Fatal("Attack is not a disclosure")
	}
	if s := findAll(attackD, tag("summary")); len(s) != 1 || text(s[0]) != "Attack" {
		t.Error("Attack's disclosure is not labelled Attack")
	}
	more := byID(doc, "more-ana")
	if more == nil || len(findAll(more, func(n *html.Node) bool { return mustAttr(n, "id") == "act-ana-defend" })) != 1 {
		t.Error("Defend (not main) is not behind More…")
	}
	if byID(more, "act-ana-fight") != nil || byID(more, "act-ana-end-turn") != nil {
		t.Error("a main action is behind More…")
	}
	attack := byID(doc, "act-ana-fight")
	if mustAttr(attack, "method") != "post" || mustAttr(attack, "action") != "/encounters/enc-1/commands?as=ana" {
		t.Error("attack form does not post to ActURL")
	}
	hidden := hiddenInputs(attack)
	if hidden["kind"] != "fight" || hidden["actor"] != "ana" {
		t.Errorf("hidden inputs %v", hidden)
	}
	sel := findAll(attack, tag("select"))
	if len(sel) != 1 || mustAttr(sel[0], "name") != "target" || mustAttr(sel[0], "data-type") != "select" || mustAttr(sel[0], "data-target") != "true" {
		t.Fatal("target select missing or not marked as a target")
	}
	if opts := options(sel[0]); !slices.Equal(opts, []string{"thug=Thug", "boss=Red Mara*"}) {
		t.Errorf("select options %v", opts)
	}
	// Every control has a data-type (and a label: checkPage, in
	// TestEncounterPageStructure, checks every control of this page).
	for _, c := range findAll(attack, func(n *html.Node) bool {
		return n.Data == "select" || n.Data == "input" && mustAttr(n, "type") != "hidden"
	}) {
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
	// No fields: just a button that acts at once.
	end := byID(doc, "act-ana-end-turn")
	if len(findAll(end, tag("fieldset"))) != 0 || len(findAll(end, tag("button"))) != 1 || text(end) != "End turn" {
		t.Errorf("field-less action renders %q", text(end))
	}
}

// Ending or rewinding the encounter asks first and sits apart from the
// other controls; Start is the GM's main button.
func TestDangerousControlsConfirm(t *testing.T) {
	v := boardtest.GridSquares().View
	doc := sectionDoc(t, "actions", v)
	zone := byID(doc, "danger-zone")
	if zone == nil {
		t.Fatal("no danger zone")
	}
	for _, id := range []string{"act-end", "act-rewind"} {
		d := byID(zone, id+"-d")
		if d == nil || d.Data != "details" {
			t.Fatalf("%s is not behind a disclosure in the danger zone", id)
		}
		if byID(doc, id+"-go") == nil || byID(zone, id+"-go") == nil {
			t.Fatalf("%s has no confirm button", id)
		}
	}
	contains(t, "end confirmation", text(byID(zone, "act-end")), "End the encounter for everyone? It cannot be resumed.", "Yes, end encounter")
	gm := byID(doc, "ag-gm")
	if gm == nil || byID(gm, "act-pause") == nil || byID(gm, "act-end") != nil || byID(gm, "act-accept-defaults") == nil {
		t.Error("the GM's safe controls are not apart from the dangerous ones")
	}
	v.Status, v.Actions = engine.StatusSetup, []engine.Action{{Kind: engine.KindStart, Label: "Start encounter", Main: true},
		{Kind: engine.KindEnd, Label: "End encounter", Danger: true}}
	doc = sectionDoc(t, "actions", v)
	start := byID(doc, "act-start-go")
	if start == nil || !hasClass(start, "primary") || byID(byID(doc, "ag-gm"), "act-end-go") != nil {
		t.Error("Start is not the GM's main button, apart from End")
	}
}

// A roll card shows the dice as they fell, each modifier with its source,
// the total against its target and the outcome; dealt cards get none.
func TestRollCards(t *testing.T) {
	ev := engine.NewEvent("attack", "ana", "Ana Vega attacks the Thug: hit.", nil, dice.Roll{
		Label: "Fighting", Who: "ana", Kept: 1, Total: 9, Target: 5, Compare: dice.AtLeast, Result: "hit", Outcome: dice.Good,
		Dice: []dice.Die{{Sides: 10, Faces: []int{10, 1}, Role: "trait die"}, {Sides: 6, Faces: []int{3}, Role: "Wild Die", Dropped: true}},
		Mods: []dice.Mod{{Label: "wounds", Value: -1}, {Label: "gang-up", Value: 1}, {Label: "cover", Value: -2}},
	})
	ev.Seq, ev.Command = 8, "cmd-1"
	deal := engine.NewEvent("cards-dealt", "", "Cards are dealt.", nil, dice.Roll{Label: "Deal: K♠", Dice: []dice.Die{{Sides: 52, Faces: []int{3}, Role: dice.RolePick}}})
	deal.Seq = 9
	cards := cardsFor(t, testView(), ev, deal)
	if len(cards) != 1 || mustAttr(cards[0], "id") != "card-8" || mustAttr(cards[0], "data-command") != "cmd-1" {
		t.Fatalf("cards: %d (dealt cards must not get one)", len(cards))
	}
	got := text(cards[0])
	contains(t, "card", got, "Ana Vega attacks the Thug: hit.", "Fighting (Ana Vega)", "10+ 1", "d10 · trait die · kept", "3", "d6 · Wild Die · not kept",
		"wounds −1", "gang-up +1", "cover −2", "total 9", "(needs 5)", "hit")
	if b := findAll(cards[0], tag("button")); len(b) != 1 || mustAttr(b[0], "aria-label") != "Dismiss roll" {
		t.Error("a card has no labelled dismiss button")
	}
	if frags, _ := Fragments(context.Background(), testView(), []engine.Event{ev}, true); frags["cards"] != "" {
		t.Error("a snapshot shows old rolls as cards")
	}
	// The result is coloured by the outcome the ruleset gave it, never by
	// its words; a roll logged without one is plain.
	if res := findAll(cards[0], func(n *html.Node) bool { return hasClass(n, "card-result") }); len(res) != 1 || !hasClass(res[0], "res-good") {
		t.Error("a good roll's result is not coloured good")
	}
	for _, c := range []struct {
		roll dice.Roll
		want string
	}{
		{dice.Roll{Label: "Soak", Total: 2, Target: 4, Result: "success", Outcome: dice.Bad}, "res-bad"},
		{dice.Roll{Label: "Old log", Total: 9, Target: 4, Result: "success, hit"}, "res-plain"},
	} {
		e := engine.NewEvent("roll", "ana", "A roll.", nil, c.roll)
		e.Seq = 10
		res := findAll(cardsFor(t, testView(), e)[0], func(n *html.Node) bool { return hasClass(n, "card-result") })
		if len(res) != 1 || !hasClass(res[0], c.want) {
			t.Errorf("%s: result not %s", c.roll.Label, c.want)
		}
	}
	// The log of a dealt card names the card, not a die.
	log := text(parseHTML(t, renderString(t, logEntries([]engine.Event{deal}, nil, false))))
	if !strings.Contains(log, "Deal: K♠") || strings.Contains(log, "d52") {
		t.Errorf("deal log %q", log)
	}
}

// The chat holds messages and free rolls apart from the game's log, and
// offers the viewer's audiences.
func TestChatPanel(t *testing.T) {
	_, doc := encounterPage(t)
	chat := byID(doc, "chat")
	if chat == nil || chat.Data != "ol" || mustAttr(chat, "aria-live") != "off" {
		t.Fatal("no chat list, or a live one (the announcements read it out)")
	}
	if byID(chat, "ev-20") == nil || byID(byID(doc, "log"), "ev-20") != nil {
		t.Error("the chat message is not in the chat, or also in the log")
	}
	form := byID(doc, "chat-form")
	if form == nil || mustAttr(form, "method") != "post" || byID(form, "chat-text") == nil || mustAttr(byID(form, "chat-text"), "maxlength") != "500" {
		t.Fatal("chat form missing")
	}
	if to := options(byID(form, "chat-to")); !slices.Equal(to, []string{"=Everyone", "gm=Whisper to the GM"}) {
		t.Errorf("a player may write to %v", to)
	}
	v := testView()
	v.Viewer = engine.GMViewer()
	gm := options(byID(parseHTML(t, renderString(t, Encounter(EncounterProps{View: v}))), "chat-to"))
	if !slices.Equal(gm, []string{"=Everyone", "gm=Only me (secret)", "ana=Whisper to Ana Vega", "bruno=Whisper to Bruno"}) {
		t.Errorf("the GM may write to %v", gm)
	}
	whisper := engine.NewEvent(engine.KindChatMessage, "", "GM → Ana Vega: psst", engine.Chat{From: "Dana", GM: true, To: "ana", Text: "psst"})
	whisper.Seq = 9
	got := text(parseHTML(t, renderString(t, chatEntries([]engine.Event{whisper}, namesOf(testView().Combatants), false))))
	if got != "Dana GM to Ana Vega psst" {
		t.Errorf("whisper reads %q", got)
	}
}

func TestUnknownFieldTypeFallsBackToText(t *testing.T) {
	v := testView()
	v.Actions = []engine.Action{{Kind: "shout", Actor: "ana", Label: "Shout", Fields: []engine.Field{
		{Name: "words", Label: "Words", Type: "text", Default: "Charge!"},
	}}}
	doc := sectionDoc(t, "actions", v)
	in := byID(doc, "act-ana-shout-words")
	if in == nil || in.Data != "input" || mustAttr(in, "type") != "text" || mustAttr(in, "value") != "Charge!" || mustAttr(in, "data-type") != "text" {
		t.Errorf("unknown field type rendered as %+v", in)
	}
}

func TestGMSeesWhoADecisionIsFor(t *testing.T) {
	v := testView()
	v.Viewer = engine.GMViewer()
	s := text(sectionDoc(t, "pending", v))
	contains(t, "the GM's pending section", s, "Asked of Ana Vega")
	v.Pending[0].For = engine.GM
	doc := sectionDoc(t, "pending", v)
	if controls(doc)["actor"] != nil {
		t.Error("a decision for the GM carries an actor")
	}
}

func TestGMActionsHaveNoActor(t *testing.T) {
	v := testView()
	v.Viewer = engine.GMViewer()
	v.Actions = []engine.Action{{Kind: engine.KindPause, Label: "Pause"}}
	doc := sectionDoc(t, "actions", v)
	forms := findAll(doc, tag("form"))
	if len(forms) != 1 {
		t.Fatal("no form")
	}
	if controls(forms[0])["actor"] != nil {
		t.Error("a GM-level action carries an actor input; the engine rejects unknown fields")
	}
	if h := findAll(doc, tag("h3")); len(h) != 1 || text(h[0]) != "Encounter" {
		t.Error("GM actions are not grouped under Encounter")
	}
	if b := byID(doc, "act-pause-go"); b == nil || b.Data != "button" {
		t.Error("Pause is not a plain button")
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
	contains(t, "shot entry", got, "Bruno shoots the Thug.", "Shooting (Bruno)", "d8: 8★ aced + 5", "cover −2", "11", "(needs 4)", "success, 1 raise")
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
	frags := fragmentsOf(t, ctx, v, newEvents, false)
	want := append(slices.Clone(SectionKeys), "log", "chat", "cards")
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
	contains(t, "the actions fragment (WithActURL)", frags["actions"], `action="/encounters/enc-1/commands?as=ana"`)
	if !strings.Contains(frags["battlefield"], "Market Square") || !strings.Contains(frags["order"], "Red Joker") || !strings.Contains(frags["chat"], "Careful!") {
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
	if !slices.Equal(ids, []string{"round-2", "ev-6", "ev-7"}) { // the chat message (ev-20) is in "chat"
		t.Errorf("log fragment ids %v", ids)
	}

	// No events, incremental: nothing to append. Full: the empty state.
	frags = fragmentsOf(t, context.Background(), v, nil, false)
	if frags["log"] != "" {
		t.Errorf("empty incremental log = %q", frags["log"])
	}
	contains(t, "the actions fragment (default act URL)", frags["actions"], `action="/encounters/enc-1/commands"`)
	frags = fragmentsOf(t, context.Background(), v, nil, true)
	if !strings.Contains(frags["log"], `id="log-empty"`) || !strings.Contains(frags["chat"], `id="chat-empty"`) {
		t.Error("full empty log or chat lacks the empty state")
	}

	// The same fragments equal the page's sections, so a live update and a
	// reload agree — but for the live update's closed action forms, which
	// travel inert in a <template> the page builds when one is opened.
	page, _ := encounterPage(t)
	frags, _ = Fragments(ctx, v, testLog(), true)
	contains(t, "a live update's actions (a form in a template)", frags["actions"], "<template>")
	built := strings.NewReplacer("<template>", "", "</template>", "")
	for _, key := range SectionKeys {
		if !strings.Contains(page, built.Replace(frags[key])) {
			t.Errorf("fragment %q differs from the page's section", key)
		}
	}
	if !strings.Contains(page, frags["log"]) || !strings.Contains(page, frags["chat"]) {
		t.Error("full log or chat fragment differs from the page's")
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fragments(cancelled, v, nil, false); err == nil {
		t.Error("Fragments ignored a cancelled context")
	}
}

func TestGenericRuleset(t *testing.T) {
	v := testView()
	v.Ruleset, v.Board = "no-board", nil
	doc := sectionDoc(t, "battlefield", v)
	items := findAll(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "roster-item") })
	if len(items) != len(v.Combatants) {
		t.Fatalf("generic battlefield lists %d of %d combatants", len(items), len(v.Combatants))
	}
	contains(t, "generic combatant", text(items[4]), "Lookout", "Bandits", "out")
}

func TestZoneLayout(t *testing.T) {
	// A chain of four zones folds onto two rows, every border short.
	zm := &board.ZoneMap{Areas: []board.Area{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}},
		Links: []board.Link{{A: "a", B: "b"}, {A: "b", B: "c"}, {A: "c", B: "d"}}}
	l := layoutZones(zm)
	if l.Cols != 2 || l.Rows != 2 {
		t.Errorf("layout %dx%d", l.Cols, l.Rows)
	}
	for _, k := range zm.Links {
		a, b := l.At[k.A], l.At[k.B]
		if max(abs(a[0]-b[0]), abs(a[1]-b[1])) != 1 {
			t.Errorf("%s–%s is %v to %v", k.A, k.B, a, b)
		}
	}
	seen := map[[2]int]bool{}
	for _, p := range l.At {
		if seen[p] {
			t.Errorf("two zones at %v", p)
		}
		seen[p] = true
	}
	// Hints win.
	x0, x1 := 0, 3
	l = layoutZones(&board.ZoneMap{Areas: []board.Area{{ID: "a", X: &x0, Y: &x0}, {ID: "b", X: &x1, Y: &x0}}})
	if l.At["b"] != [2]int{3, 0} || l.Cols != 12 || l.Rows != 8 || !l.Placed {
		t.Errorf("hinted layout %v, %d × %d", l.At, l.Cols, l.Rows)
	}
	// A zone drawn at column 9 stays there, the size it was drawn (not
	// packed next to column 1), in the editor's frame of 12 columns; its
	// border runs between the middles of the two boxes.
	x9, y2 := 9, 2
	l = layoutZones(&board.ZoneMap{Areas: []board.Area{{ID: "a", X: &x0, Y: &x0, W: 3, H: 2}, {ID: "b", X: &x9, Y: &y2, W: 2, H: 10}},
		Links: []board.Link{{A: "a", B: "b"}}})
	if l.At["a"] != [2]int{0, 0} || l.At["b"] != [2]int{9, 2} || l.Cols != 12 || l.Rows != 12 {
		t.Errorf("drawn layout %v, %d × %d", l.At, l.Cols, l.Rows)
	}
	if got := gridClass(l.Areas[1]); got != "zc-10 zr-3 zw-2 zh-10" {
		t.Errorf("drawn zone's classes %q", got)
	}
	if ln := l.Lines[0]; ln != (zoneLine{"1.5", "1", "10", "7"}) {
		t.Errorf("border %+v", ln)
	}
}

// TestIndexAndChoose: a user without campaigns is pointed at the examples
// (TestIndexPages has the list); the choose page links each viewer.
func TestIndexAndChoose(t *testing.T) {
	s := renderString(t, Index(IndexProps{User: "ana"}))
	contains(t, "empty index", s, "No campaigns yet", "example encounters")
	s = renderString(t, Choose(ChooseProps{EncounterID: "enc-1", Name: "Ambush", Options: []ViewerOption{
		{As: "gm", Label: "The GM", Hint: "sees everything"}, {As: "ana", Label: "Ana Vega"},
	}}))
	contains(t, "choose page", s, "Open this encounter as…", `href="/encounters/enc-1?as=gm"`, `href="/encounters/enc-1?as=ana"`, "sees everything")
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

// TestBoardKey: the key lists the sides, the marks the drawing uses, what
// each bar counts and the ruleset's icons in its words, only those the
// board shows.
func TestBoardKey(t *testing.T) {
	zones := text(byID(sectionDoc(t, "battlefield", boardtest.Zones().View), "board-key"))
	contains(t, "the zones key", zones, "Heroes", "Goblins", "ringed: may act now", "red dashed frame: fighting in melee", "dotted line",
		"bar: shrinks as Wounds grow", "Shaken")
	if strings.Contains(zones, "black square") || strings.Contains(zones, "range in squares") {
		t.Errorf("the zones key explains what it does not show: %s", zones)
	}
	bands := text(byID(sectionDoc(t, "battlefield", boardtest.GridBands().View), "board-key"))
	contains(t, "the band grid's key", bands, "range in squares: 0 Close, 1 Medium", "in contact", "off the map")
	squares := text(byID(sectionDoc(t, "battlefield", boardtest.GridSquares().View), "board-key"))
	contains(t, "the 5-ft grid's key", squares, "bar: HP left", "Bleeding out", "flattened: lying on the ground", "down: still in the fight")
}

// TestBarsShowWhatIsLeft: a bar means one thing whatever the ruleset
// counts — what is left; harm that grows empties it.
func TestBarsShowWhatIsLeft(t *testing.T) {
	for _, c := range []struct {
		m    board.Meter
		fill int
		cls  string
	}{
		{board.Meter{Value: 0, Max: 3}, 10, "ok"},              // no wounds: full
		{board.Meter{Value: 1, Max: 3}, 7, "ok"},               // one of three
		{board.Meter{Value: 3, Max: 3}, 0, "bad"},              // all taken
		{board.Meter{Value: 31, Max: 31, Low: true}, 10, "ok"}, // hit points, full
		{board.Meter{Value: 12, Max: 30, Low: true}, 4, "warn"},
		{board.Meter{Value: 0, Max: 24, Low: true}, 0, "bad"},
	} {
		if f, cl := fill(&c.m), meterClass(&c.m); f != c.fill || cl != c.cls {
			t.Errorf("%+v: fill %d %s, want %d %s", c.m, f, cl, c.fill, c.cls)
		}
	}
}

// TestBadgeAgreesWithTitle: the badge and the tab's title read the same
// thing (the engine's Attention), in every phase — a declaration phase
// where everyone acts at once and another character has the floor first
// included (d20-under's "before the first round"); but "your turn" shows
// only when the table waits on you, not beside "waiting on the GM".
func TestBadgeAgreesWithTitle(t *testing.T) {
	turn := &engine.Attention{Turn: []string{"ana"}}
	for _, c := range []struct {
		name      string
		current   string
		acting    []string
		attention *engine.Attention
		waiting   []string
		yours     bool
	}{
		{"ana's turn", "ana", []string{"ana"}, turn, nil, true},
		{"a phase, another first", "bruno", []string{"bruno", "ana"}, turn, nil, true},
		{"a phase, ana first", "ana", []string{"ana", "bruno"}, turn, nil, true},
		{"someone else's turn", "bruno", []string{"bruno"}, nil, nil, false},
		{"a decision waits on ana", "ana", []string{"ana"}, &engine.Attention{Decisions: []string{"d1"}}, nil, false},
		{"ana's turn, the GM rules", "ana", []string{"ana"}, turn, []string{"the GM"}, false},
	} {
		v := testView()
		v.Current, v.Acting, v.Attention, v.Waiting = c.current, c.acting, c.attention, c.waiting
		m := newModel(v, "")
		got := text(sectionDoc(t, "status", v))
		badge := strings.Contains(got, "your turn")
		if badge != c.yours || c.waiting == nil && badge != (m.attention() == "turn") {
			t.Errorf("%s: badge %v, title %q, want your turn %v: %q", c.name, badge, m.attention(), c.yours, got)
		}
		contains(t, c.name, got, c.waiting...)
	}
}

// A roll card shows its actor: the portrait the view carries, initials
// without one, and nothing for an actor the view does not hold (a
// combatant hidden from this viewer is not in its view, so neither is
// its picture).
func TestRollCardActor(t *testing.T) {
	card := func(v engine.View, actor string) *html.Node {
		t.Helper()
		ev := engine.NewEvent("attack", actor, "An attack.", nil, dice.Roll{Label: "Fighting", Total: 5, Dice: []dice.Die{{Sides: 6, Faces: []int{5}}}})
		ev.Seq, ev.Command = 8, "cmd-1"
		cards := cardsFor(t, v, ev)
		if len(cards) != 1 {
			t.Fatalf("%d cards", len(cards))
		}
		return cards[0]
	}
	actorOf := func(c *html.Node) *html.Node {
		if a := findAll(c, func(n *html.Node) bool { return hasClass(n, "card-actor") }); len(a) == 1 {
			return a[0]
		}
		return nil
	}
	v := testView()
	v.Combatants[0].Portrait = "/assets/" + strings.Repeat("a", 64)
	a := actorOf(card(v, "ana"))
	if a == nil {
		t.Fatal("the card shows no actor")
	}
	if img := findAll(a, tag("img")); len(img) != 1 || mustAttr(img[0], "src") != v.Combatants[0].Portrait+"?size=thumb" {
		t.Error("the actor's portrait is not on the card")
	}
	if a := actorOf(card(v, "bruno")); a == nil || strings.TrimSpace(text(a)) != "B" || len(findAll(a, tag("img"))) != 0 {
		t.Error("an actor without a portrait shows no initials")
	}
	if a := actorOf(card(v, "nobody")); a != nil {
		t.Error("an actor the view does not hold shows on the card")
	}
}
