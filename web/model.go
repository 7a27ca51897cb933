package web

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// IndexProps is the data of the home page. Without a User it is a landing
// page; with one, the user's campaigns and their encounters.
type IndexProps struct {
	User      string
	Campaigns []CampaignSummary
}

// CampaignSummary is one campaign on the home page. Role is the user's role
// in it: "gm" or "player".
type CampaignSummary struct {
	ID, Name   string
	Role       string
	Encounters []EncounterSummary
}

// EncounterSummary is one encounter in a campaign listing.
type EncounterSummary struct {
	ID, Name, Ruleset, Status string
}

// ChooseProps is the data of the "open this encounter as…" page.
type ChooseProps struct {
	EncounterID, Name string
	Options           []ViewerOption
}

// ViewerOption is one identity a visitor may open an encounter as: As is the
// value of the ?as= parameter ("gm" or a combatant id).
type ViewerOption struct {
	As, Label, Hint string
}

// EncounterProps is the data of the encounter page.
type EncounterProps struct {
	View engine.View
	// Log is the viewer's whole visible log, oldest first.
	Log []engine.Event
	// As is the ?as= value the page was opened with ("gm" or a combatant id).
	As string
	// WSURL is the websocket path with its query, e.g.
	// /encounters/{id}/ws?as=gm&html=1; the script appends &since=<seq>.
	WSURL string
	// ActURL is where the forms post when the script is not running.
	ActURL string
	// Notice is an optional message shown in #notice, e.g. the error of a
	// form post that was redirected back to the page; Info the outcome of
	// one that went well ("Created …").
	Notice, Info string
	// CanSwitch shows the "Switch viewer" link: only GMs may preview the
	// page as one of the players.
	CanSwitch bool
	// CampaignID, when set, adds a link back to the campaign's page, named
	// CampaignName (or "the campaign").
	CampaignID, CampaignName string
	// LogURL and ReplayURL link the encounter's history pages.
	LogURL, ReplayURL string
	// Deadline, for GMs only, is the encounter's turn-deadline form in the
	// Menu; nil shows none.
	Deadline *DeadlineForm
}

// DeadlineForm is the GM's form for an encounter's turn deadline (play
// between sessions): posted to URL; After and RemindBefore are durations
// as typed ("24h", "2h"), Fallback "default", "next-turn" or "pause"; Set
// says a deadline is in force (otherwise the fields are suggestions).
// Clock says it is a clock — Bank each, plus Increment a turn (clock.templ)
// — and Off that it is switched off.
type DeadlineForm struct {
	URL                           string
	After, RemindBefore, Fallback string
	Set                           bool
	Clock, Off                    bool
	Bank, Increment               string
}

type actURLKey struct{}

// WithActURL returns a context that makes Fragments render forms posting to
// actURL (the same value as EncounterProps.ActURL for that viewer). Without
// it, forms post to DefaultActURL.
func WithActURL(ctx context.Context, actURL string) context.Context {
	return context.WithValue(ctx, actURLKey{}, actURL)
}

// DefaultActURL is the form target used when none is given:
// /encounters/{id}/commands.
func DefaultActURL(encounterID string) string {
	return "/encounters/" + url.PathEscape(encounterID) + "/commands"
}

// Fragments renders the parts of the encounter page a live update replaces.
// The keys of SectionKeys hold the outer HTML of the element with that id.
// "log" holds <li> entries of the game log and "chat" those of the table
// talk (chat messages and free rolls) for newEvents: the new entries to
// append when full is false, the whole list (newEvents being all of it) to
// replace the list's contents when full is true. Entries carry ids
// (ev-<seq>, round-<n>) so a client can drop duplicates. "cards" holds a
// roll card for each new event with dice (not when full): the page shows
// them over the table for a while. Forms post to the URL set with
// WithActURL.
func Fragments(ctx context.Context, v engine.View, newEvents []engine.Event, full bool) (map[string]string, error) {
	return fragments(ctx, v, newEvents, full, nil)
}

// fragments renders Fragments' result, each fragment from its input alone
// (sections.go), through memo when it is set.
func fragments(ctx context.Context, v engine.View, newEvents []engine.Event, full bool, memo *Sections) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	act, _ := ctx.Value(actURLKey{}).(string)
	if act == "" {
		act = DefaultActURL(v.ID)
	}
	out := make(map[string]string, len(sections)+3)
	render := func(key string, in any, c templ.Component) error {
		draw := func() (string, error) {
			buf := renderBuffers.Get().(*bytes.Buffer)
			defer renderBuffers.Put(buf)
			buf.Reset()
			if err := c.Render(ctx, buf); err != nil {
				return "", fmt.Errorf("web: render %s: %w", key, err)
			}
			return buf.String(), nil
		}
		var err error
		if memo == nil {
			out[key], err = draw()
		} else {
			out[key], err = memo.render(key, in, draw)
		}
		return err
	}
	for _, s := range sections {
		in := s.input(v, act, true)
		if err := render(s.key, in, s.render(in)); err != nil {
			return nil, err
		}
	}
	game, talk := SplitTalk(newEvents)
	for key, events := range map[string][]engine.Event{"log": game, "chat": talk} {
		in := entriesIn{full, events, v.Combatants}
		if err := render(key, in, entryLists[key](in)); err != nil {
			return nil, err
		}
	}
	if !full {
		cards := cardsIn{cast{v.Sides, v.Combatants}, newEvents}
		if err := render("cards", cards, rollCards(cards)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// renderBuffers are the buffers fragments render into: each fragment is
// copied out of one, so a buffer grown to a page's largest section serves
// every later render.
var renderBuffers = sync.Pool{New: func() any {
	b := new(bytes.Buffer)
	b.Grow(8 << 10)
	return b
}}

// SplitTalk separates the game's events from the table talk (chat
// messages and free rolls), keeping each in order.
func SplitTalk(events []engine.Event) (game, talk []engine.Event) {
	for _, ev := range events {
		if engine.IsTableTalk(ev.Kind) {
			talk = append(talk, ev)
		} else {
			game = append(game, ev)
		}
	}
	return game, talk
}

func namesOf(combatants []engine.Combatant) map[string]string {
	names := make(map[string]string, len(combatants))
	for _, c := range combatants {
		names[c.ID] = c.Name
	}
	return names
}

// model is a section's input prepared for rendering: its lookups computed
// once per render. A section's template makes it from its input alone
// (sections.go).
type model struct {
	v      engine.View
	act    string
	names  map[string]string
	byID   map[string]*engine.Combatant
	sideNo map[string]int // side id → index in v.Sides, for its colour class
	board  *board.Board   // the view's board, or one built from the combatants
	tokens map[string]*board.Token
	groups []actionGroup
	gm     []actionInfo // the GM's controls with no actor, dangerous ones last
	danger []actionInfo
	ids    map[string]int // how often each id was given out (uniqueID)
	// deferred sends the forms of actions that open one in a <template>
	// (actionsIn).
	deferred bool
}

// actionInfo is an action with the element ids its form uses.
type actionInfo struct {
	engine.Action
	ID string // the form's id; controls are ID-<field>, the button ID-go
}

// actionGroup is the actions of one combatant: the main ones shown as
// buttons, the rest behind "More…".
type actionGroup struct {
	Actor  string
	Name   string
	Acting bool
	Main   []actionInfo
	More   []actionInfo
}

func newModel(v engine.View, act string) *model {
	if act == "" {
		act = DefaultActURL(v.ID)
	}
	m := &model{
		v:      v,
		act:    act,
		board:  v.Board,
		names:  namesOf(v.Combatants),
		byID:   make(map[string]*engine.Combatant, len(v.Combatants)),
		sideNo: make(map[string]int, len(v.Sides)),
	}
	for i := range v.Combatants {
		m.byID[v.Combatants[i].ID] = &v.Combatants[i]
	}
	for i, s := range v.Sides {
		m.sideNo[s.ID] = i
	}
	if m.board == nil {
		m.board = listBoard(v)
	}
	m.tokens = make(map[string]*board.Token, len(m.board.Tokens))
	for i := range m.board.Tokens {
		m.tokens[m.board.Tokens[i].ID] = &m.board.Tokens[i]
	}
	if len(v.Actions) == 0 {
		return m
	}
	// Give each action form a stable id derived from its actor and kind, so
	// that focus survives a re-render; duplicates get a numeric suffix.
	seen := map[string]int{}
	group := map[string]int{}
	for _, a := range v.Actions {
		id := "act-" + slug(a.Kind)
		if a.Actor != "" {
			id = "act-" + slug(a.Actor) + "-" + slug(a.Kind)
		}
		seen[id]++
		if n := seen[id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		info := actionInfo{Action: a, ID: id}
		if a.Actor == "" {
			if a.Danger {
				m.danger = append(m.danger, info)
			} else {
				m.gm = append(m.gm, info)
			}
			continue
		}
		gi, ok := group[a.Actor]
		if !ok {
			gi = len(m.groups)
			group[a.Actor] = gi
			m.groups = append(m.groups, actionGroup{Actor: a.Actor, Name: m.name(a.Actor), Acting: slices.Contains(v.Acting, a.Actor)})
		}
		g := &m.groups[gi]
		if a.Main {
			g.Main = append(g.Main, info)
		} else {
			g.More = append(g.More, info)
		}
	}
	for i := range m.groups {
		g := &m.groups[i]
		// A ruleset that marks nothing main still gets a short bar.
		if len(g.Main) == 0 {
			n := min(len(g.More), 4)
			g.Main, g.More = g.More[:n], g.More[n:]
		}
	}
	// The acting combatants' actions come first, each part in its order.
	acting := slices.DeleteFunc(slices.Clone(m.groups), func(g actionGroup) bool { return !g.Acting })
	m.groups = append(acting, slices.DeleteFunc(m.groups, func(g actionGroup) bool { return g.Acting })...)
	return m
}

// listBoard is the board of a ruleset that draws none: every combatant a
// token, no positions.
func listBoard(v engine.View) *board.Board {
	b := &board.Board{}
	for _, c := range v.Combatants {
		b.Tokens = append(b.Tokens, board.Token{ID: c.ID, Name: c.Name, Side: c.Side, PC: c.PC, Out: c.Out, Down: c.Down,
			Hidden: c.Hidden, Acting: slices.Contains(v.Acting, c.ID)})
	}
	return b
}

// name returns a combatant's name, or its id when it is not visible.
func (m *model) name(id string) string { return whoName(m.names, id) }

// nameEach is the name of each of ids, in order.
func (m *model) nameEach(ids []string) []string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = m.name(id)
	}
	return names
}

func (m *model) sideName(id string) string {
	if i, ok := m.sideNo[id]; ok {
		return m.v.Sides[i].Name
	}
	return id
}

// sideClass is the colour class of a side: side-0 … side-5.
func (m *model) sideClass(id string) string {
	return "side-" + strconv.Itoa(m.sideNo[id]%6)
}

// token returns the token of combatant id (nil when not on the board).
func (m *model) token(id string) *board.Token { return m.tokens[id] }

// whoAmI describes the viewer for the page header.
func (m *model) whoAmI(as string) string {
	if m.v.Viewer.GM {
		return "the GM"
	}
	if len(m.v.Viewer.Controls) == 0 {
		if as == "" {
			return "a spectator"
		}
		return m.name(as)
	}
	return commaList(m.nameEach(m.v.Viewer.Controls))
}

// oneClick are the pending decisions this viewer answers with one click:
// for the GM, all but the players' own (those are offered as "Decide for").
func (m *model) oneClick() []engine.Decision {
	return slices.DeleteFunc(slices.Clone(m.v.Pending), func(d engine.Decision) bool {
		return slices.ContainsFunc(m.v.Awaiting, func(a engine.Awaiting) bool { return a.Decision.ID == d.ID })
	})
}

// attention is what the page calls the viewer's attention to (the tab's
// title, a sound, a notification): "decision", "turn" or "".
func (m *model) attention() string {
	switch a := m.v.Attention; {
	case a == nil:
		return ""
	case len(a.Decisions) > 0:
		return "decision"
	case len(a.Turn) > 0:
		return "turn"
	}
	return ""
}

// yourMove reports whether the table waits on this player now: one of
// their characters may act and no one's answer holds the fight up (a turn
// that waits on the GM's ruling is not "your turn" yet). It reads the
// engine's Attention — what the tab's title and a notification say — so
// the badge and the title agree in every phase, a declaration phase where
// everyone acts at once included.
func (m *model) yourMove() bool {
	return !m.v.Viewer.GM && m.v.Attention != nil && len(m.v.Attention.Turn) > 0 && len(m.v.Waiting) == 0
}

func (m *model) decisionFor(d engine.Decision) string {
	if d.For == engine.GM || d.For == "" {
		return "the GM"
	}
	return m.name(d.For)
}

func (m *model) outcome() string {
	o := m.v.Outcome
	if o == nil {
		return ""
	}
	s := "No winner"
	if o.Winner != "" {
		s = m.sideName(o.Winner) + " win"
	}
	if o.Summary != "" {
		s += " — " + o.Summary
	}
	return s
}

func statusLabel(s engine.Status) string {
	switch s {
	case engine.StatusSetup:
		return "Not started"
	case engine.StatusRunning:
		return "Running"
	case engine.StatusPaused:
		return "Paused"
	case engine.StatusFinished:
		return "Finished"
	}
	return string(s)
}

// slug makes s safe inside an id attribute: letters, digits, '-' and '_'
// (any other character becomes '_'; s itself when it is safe already).
func slug(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

func encounterURL(id string) string { return "/encounters/" + url.PathEscape(id) }

// switchURL lists the viewers a GM may preview the encounter as.
func switchURL(id string) string { return encounterURL(id) + "?choose=1" }

func campaignName(name string) string { return cmp.Or(name, "the campaign") }

func chooseURL(id, as string) string {
	return encounterURL(id) + "?as=" + url.QueryEscape(as)
}

func itoa(n int) string     { return strconv.Itoa(n) }
func i64toa(n int64) string { return strconv.FormatInt(n, 10) }

// signed renders a modifier as "+2" or "−2".
func signed(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return "+" + strconv.Itoa(n)
}

// truthy reads a checkbox default.
func truthy(s string) bool {
	return slices.Contains([]string{"1", "true", "on", "yes"}, strings.ToLower(s))
}

// numberAttrs gives a number field its min, max and value.
func numberAttrs(f engine.Field) templ.Attributes {
	a := templ.Attributes{}
	if f.Min != 0 || f.Max != 0 {
		a["min"] = strconv.Itoa(f.Min)
	}
	if f.Max != 0 {
		a["max"] = strconv.Itoa(f.Max)
	}
	switch {
	case f.Default != "":
		a["value"] = f.Default
	case f.Min != 0 || f.Max != 0:
		a["value"] = strconv.Itoa(f.Min)
	}
	return a
}

// selected reports whether option value is the field's initial choice.
func selected(f engine.Field, i int, value string) bool {
	if f.Default == "" {
		return i == 0
	}
	return value == f.Default
}

// acedFace reports whether face i of d exploded (a maximum that rolled on).
func acedFace(d dice.Die, i int) bool { return i < len(d.Faces)-1 }

// dieState is "kept", "dropped" or "": a die marked Dropped, or in a roll
// where only one die counts (the better of a pair) the one that did not.
func dieState(r dice.Roll, i int) string {
	if r.Dice[i].Dropped {
		return "dropped"
	}
	if r.Kept <= 0 || len(r.Dice) < 2 {
		return ""
	}
	if r.Kept == i+1 {
		return "kept"
	}
	return "dropped"
}

func whoName(names map[string]string, id string) string {
	if n, ok := names[id]; ok {
		return n
	}
	return id
}

// logItem is one row of the log: a round heading or an event.
type logItem struct {
	Round int // > 0 for a heading
	Event engine.Event
}

func logItems(events []engine.Event) []logItem {
	items := make([]logItem, 0, len(events)+2)
	prev := -1
	for _, ev := range events {
		if ev.Round != prev && ev.Round > 0 {
			items = append(items, logItem{Round: ev.Round})
		}
		prev = ev.Round
		items = append(items, logItem{Event: ev})
	}
	return items
}

// uniqueID is id the first time a render asks for it, then id.2, id.3…
// (a duellist drawn in two engagements, a combatant twice in an order), so
// that ids stay unique on the page: a slug holds no '.', so no other
// token's id can be one of these.
func (m *model) uniqueID(id string) string {
	if m.ids == nil {
		m.ids = map[string]int{}
	}
	m.ids[id]++
	if n := m.ids[id]; n > 1 {
		return id + "." + strconv.Itoa(n)
	}
	return id
}

// answerField is a decision's field as its form posts it: nested under
// "values." so that the answer command carries it in its values.
func answerField(f engine.Field) engine.Field {
	f.Name = "values." + f.Name
	return f
}

// short is a hash's first 12 hexadecimal digits: enough for a person to
// compare two at a glance.
func short(hash string) string { return hash[:min(len(hash), 12)] }

// thumbURL is a picture's thumbnail.
func thumbURL(picture string) string { return picture + "?size=thumb" }

// fallbackLabel says what a turn deadline's fallback does.
func fallbackLabel(fallback string) string {
	switch fallback {
	case "default":
		return "the defaults answer"
	case "next-turn":
		return "defaults, then next turn"
	case "pause":
		return "pause for the GM"
	}
	return fallback
}
