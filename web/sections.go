package web

import (
	"context"
	"slices"
	"sync"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/say"
)

// A section is a part of the encounter page that an update replaces: its
// key (the id of its element), the function that takes from a viewer's
// projection all the section shows (its input, a type of its own), and its
// template, which takes that input and nothing else. So a section renders
// from its input alone by construction: two viewers whose inputs are
// equal are shown the same bytes, and the memo (Sections) keys a render by
// its input's encoding (inputKey), a generic one. TestSectionInputsMatter
// zeroes each field of each input in turn, over the states of played
// fights, and fails when one changes nothing: a field the input function
// no longer fills or the template no longer reads.
//
// An input function is given the forms' target (act) and whether the
// section goes to a live page (live: an update over the websocket, which
// app.js applies) rather than a page's first render.
type section struct {
	key    string
	input  func(v engine.View, act string, live bool) any
	render func(in any) templ.Component
}

func sectionOf[T any](key string, input func(engine.View, string, bool) T, render func(T) templ.Component) section {
	return section{key,
		func(v engine.View, act string, live bool) any { return input(v, act, live) },
		func(in any) templ.Component { return render(in.(T)) }}
}

// sections are the page's sections, in page order.
var sections = []section{
	sectionOf("status", statusInput, statusSection),
	sectionOf("pending", pendingInput, pendingSection),
	sectionOf("actions", actionsInput, actionsSection),
	sectionOf("handouts", handoutsInput, handoutsSection),
	sectionOf("notes", notesInput, notesSection),
	sectionOf("order", orderInput, orderSection),
	sectionOf("battlefield", battlefieldInput, battlefieldSection),
}

// SectionKeys are the keys of Fragments' result that replace an element
// of the page, in page order. Each names the id of the element its HTML
// replaces.
var SectionKeys = func() []string {
	keys := make([]string, len(sections))
	for i, s := range sections {
		keys[i] = s.key
	}
	return keys
}()

// sectionFor renders section key of v for a page's first render, its
// forms posting to act.
func sectionFor(key string, v engine.View, act string) templ.Component {
	for _, s := range sections {
		if s.key == key {
			return s.render(s.input(v, act, false))
		}
	}
	panic("web: unknown section " + key)
}

// cast are the combatants and sides a section names: its lookups of names
// and sides' colours are made from these.
type cast struct {
	Sides      []engine.Side
	Combatants []engine.Combatant
}

// statusIn is all #status shows.
type statusIn struct {
	ID        string // the encounter, for the GM's carry-over link
	Status    engine.Status
	Round     int
	Phase     string
	Turn      string // who may act now, by name ("" for no one)
	YourMove  bool
	Waiting   []string
	Outcome   string
	Facts     []board.Stat
	Attention string // what waits on the viewer: "decision", "turn" or ""
	CarryOver bool   // the GM's, once the encounter is finished
	// Spoken is the status as the announcements read it (say.Status).
	Spoken string
}

func statusInput(v engine.View, act string, _ bool) statusIn {
	m := newModel(v, act)
	in := statusIn{ID: v.ID, Status: v.Status, Round: v.Round, Phase: v.Phase, YourMove: m.yourMove(), Waiting: v.Waiting,
		Outcome: m.outcome(), Attention: m.attention(), CarryOver: v.Viewer.GM && v.Status == engine.StatusFinished, Spoken: say.Status(v)}
	if v.Current != "" {
		in.Turn = m.actingNames()
	}
	if v.Board != nil {
		in.Facts = v.Board.Facts
	}
	return in
}

// pendingIn is all #pending shows: the decisions the viewer may answer,
// their sealed answers, whom the table waits on, and for the GM the
// decisions waiting on players.
type pendingIn struct {
	Act       string
	GM        bool
	Pending   []engine.Decision
	Committed []engine.Committed
	Waiting   []string
	Awaiting  []engine.Awaiting
	// Asked names whom each decision is asked of (for the GM).
	Combatants []engine.Combatant
}

func pendingInput(v engine.View, act string, _ bool) pendingIn {
	in := pendingIn{Act: act, GM: v.Viewer.GM, Pending: v.Pending, Committed: v.Committed, Waiting: v.Waiting, Awaiting: v.Awaiting}
	if v.Viewer.GM && (len(v.Pending) > 0 || len(v.Awaiting) > 0) {
		in.Combatants = v.Combatants
	}
	return in
}

func (in pendingIn) model() *model {
	return newModel(engine.View{Combatants: in.Combatants, Viewer: engine.Viewer{GM: in.GM}, Pending: in.Pending,
		Committed: in.Committed, Waiting: in.Waiting, Awaiting: in.Awaiting}, in.Act)
}

// actionsIn is all #actions shows: the viewer's actions, grouped by
// combatant under their names, the acting ones first; with none, why.
// Deferred sends the forms of the actions that open one inert, each in a
// <template> its page builds when the action is opened (app.js): on a
// live page, most of an update's markup is the acting combatant's forms,
// new at every turn and most never opened.
type actionsIn struct {
	Act        string
	Actions    []engine.Action
	Acting     []string
	Combatants []engine.Combatant
	Idle       string // why there are no actions
	Deferred   bool
}

func actionsInput(v engine.View, act string, live bool) actionsIn {
	in := actionsIn{Act: act, Actions: v.Actions}
	if live && slices.ContainsFunc(v.Actions, func(a engine.Action) bool { return len(a.Fields) > 0 || a.Danger }) {
		in.Deferred = true
	}
	if len(v.Actions) == 0 {
		in.Idle = newModel(v, act).noActions()
		return in
	}
	if slices.ContainsFunc(v.Actions, func(a engine.Action) bool { return a.Actor != "" }) {
		in.Acting, in.Combatants = v.Acting, v.Combatants
	}
	return in
}

func (in actionsIn) model() *model {
	m := newModel(engine.View{Combatants: in.Combatants, Acting: in.Acting, Actions: in.Actions}, in.Act)
	m.deferred = in.Deferred
	return m
}

// handoutsIn is all #handouts shows: the handouts, and for the GM whom
// each was shown to.
type handoutsIn struct {
	GM         bool
	Handouts   []engine.Handout
	Combatants []engine.Combatant
}

func handoutsInput(v engine.View, _ string, _ bool) handoutsIn {
	in := handoutsIn{GM: v.Viewer.GM, Handouts: v.Handouts}
	if v.Viewer.GM && slices.ContainsFunc(v.Handouts, func(h engine.Handout) bool { return len(h.To) > 0 }) {
		in.Combatants = v.Combatants
	}
	return in
}

// audience says, for the GM, whom a handout was shown to.
func (in handoutsIn) audience(h engine.Handout) string {
	switch {
	case !h.Revealed:
		return "Not shown yet"
	case len(h.To) == 0:
		return "Shown to everyone"
	}
	known, names := namesOf(in.Combatants), make([]string, 0, len(h.To))
	for _, id := range h.To {
		names = append(names, whoName(known, id))
	}
	return "Shown to " + commaList(names)
}

// notesIn is all #notes shows: for the GM, the notes and what they may be
// written on; for anyone else, nothing.
type notesIn struct {
	Act        string
	GM         bool
	Notes      []engine.Note
	Combatants []engine.Combatant
}

func notesInput(v engine.View, act string, _ bool) notesIn {
	if !v.Viewer.GM {
		return notesIn{}
	}
	return notesIn{Act: act, GM: true, Notes: v.Notes, Combatants: v.Combatants}
}

// subjects are what the GM may write notes on: the encounter, and
// each combatant with a note or in the fight.
func (in notesIn) subjects() []engine.Choice {
	out := []engine.Choice{{Value: "encounter", Label: "The encounter"}}
	for _, c := range in.Combatants {
		out = append(out, engine.Choice{Value: "combatant:" + c.ID, Label: c.Name})
	}
	for _, n := range in.Notes {
		if !slices.ContainsFunc(out, func(c engine.Choice) bool { return c.Value == n.Subject }) {
			out = append(out, engine.Choice{Value: n.Subject, Label: n.Subject})
		}
	}
	return out
}

// note is the GM's note on subject.
func (in notesIn) note(subject string) string {
	for _, n := range in.Notes {
		if n.Subject == subject {
			return n.Text
		}
	}
	return ""
}

// orderIn is all #order shows: the turn order (or, before it is set,
// every token), each combatant's side, name, whether it may act or is
// out, and of its token the draw, portrait and health.
type orderIn struct {
	cast
	Order  []string
	Acting []string
	Tokens []board.Token // nil: the combatants, listed
}

func orderInput(v engine.View, _ string, _ bool) orderIn {
	in := orderIn{cast: cast{v.Sides, v.Combatants}, Order: v.Order, Acting: v.Acting}
	if v.Board != nil {
		in.Tokens = make([]board.Token, len(v.Board.Tokens))
		for i, t := range v.Board.Tokens {
			in.Tokens[i] = board.Token{ID: t.ID, Initiative: t.Initiative, Portrait: t.Portrait, Health: t.Health}
		}
	}
	return in
}

func (in orderIn) model() *model {
	v := engine.View{Sides: in.Sides, Combatants: in.Combatants, Order: in.Order, Acting: in.Acting}
	if in.Tokens != nil {
		v.Board = &board.Board{Tokens: in.Tokens}
	}
	return newModel(v, "")
}

// battlefieldIn is all #battlefield shows: the board as the viewer sees
// it (or, for a ruleset without one, the combatants), the scene, and which
// tokens are the viewer's (the key's "mine": a player's only).
type battlefieldIn struct {
	cast
	Acting   []string
	Board    *board.Board
	Scene    string
	SceneFit *engine.SceneFit
	Controls []string
}

func battlefieldInput(v engine.View, _ string, _ bool) battlefieldIn {
	in := battlefieldIn{cast: cast{v.Sides, v.Combatants}, Board: v.Board, Scene: v.Scene, SceneFit: v.SceneFit}
	if v.Board == nil {
		in.Acting = v.Acting // the list board marks who acts
	}
	if !v.Viewer.GM {
		in.Controls = v.Viewer.Controls
	}
	return in
}

func (in battlefieldIn) model() *model {
	return newModel(engine.View{Sides: in.Sides, Combatants: in.Combatants, Acting: in.Acting, Board: in.Board,
		Scene: in.Scene, SceneFit: in.SceneFit, Viewer: engine.Viewer{Controls: in.Controls}}, "")
}

// entriesIn is what the new entries of the log or the table talk show:
// the events, whether they are the whole list, and the names of the
// combatants they name.
type entriesIn struct {
	Full       bool
	Events     []engine.Event
	Combatants []engine.Combatant
}

// entryLists render the entries of the log and of the table talk.
var entryLists = map[string]func(entriesIn) templ.Component{
	"log":  func(in entriesIn) templ.Component { return logEntries(in.Events, namesOf(in.Combatants), in.Full) },
	"chat": func(in entriesIn) templ.Component { return chatEntries(in.Events, namesOf(in.Combatants), in.Full) },
}

// cardsIn is all the roll cards of events show: the events, and of the
// combatants their names, sides and portraits.
type cardsIn struct {
	cast
	Events []engine.Event
}

func (in cardsIn) model() *model {
	return newModel(engine.View{Sides: in.Sides, Combatants: in.Combatants}, "")
}

// Sections renders the encounter page's fragments (as Fragments does) for
// the viewers of one encounter, update after update, rendering each
// section and each list of new entries once per distinct input: the
// viewers whose input is the same share one render, and a section whose
// input did not change since the last update is not rendered again. The
// memo is a map from a digest of the input's complete encoding
// (inputKey), so two inputs share a render only when they are equal.
//
// What one update rendered is kept until the next but one (Next), so the
// memory held is about two updates' sections. A Sections is safe for
// concurrent use.
type Sections struct {
	mu     sync.Mutex
	memo   map[string]*memoEntry
	update uint64 // counts Next's calls
}

// memoEntry is a rendered section and the last update that used it. A
// render of new entries (the log's, the talk's, the roll cards) is shared
// by the viewers of its update only (once): the next update's are others.
type memoEntry struct {
	html string
	used uint64
	once bool
}

// NewSections returns an empty Sections.
func NewSections() *Sections { return &Sections{memo: map[string]*memoEntry{}} }

// Render is Fragments with the sections memoised.
func (s *Sections) Render(ctx context.Context, v engine.View, newEvents []engine.Event, full bool) (map[string]string, error) {
	return fragments(ctx, v, newEvents, full, s)
}

// Next says an update is done: what neither it nor the one before used is
// forgotten.
func (s *Sections) Next() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.update++
	for k, e := range s.memo {
		if e.once || e.used+1 < s.update {
			delete(s.memo, k)
		}
	}
}

// render returns c, the render of in under kind, from the memo or rendered
// now (by draw) and remembered.
func (s *Sections) render(kind string, in any, draw func() (string, error)) (string, error) {
	key := inputKey(kind, in)
	s.mu.Lock()
	e, ok := s.memo[key]
	if ok {
		e.used = s.update
	}
	s.mu.Unlock()
	if ok {
		return e.html, nil
	}
	html, err := draw()
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.memo[key] = &memoEntry{html: html, used: s.update, once: kind == "cards" || entryLists[kind] != nil}
	s.mu.Unlock()
	return html, nil
}
