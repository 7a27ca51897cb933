package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/a-h/templ"
	gojson "github.com/goccy/go-json"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// Sections renders the encounter page's fragments (as Fragments does) for
// the viewers of one encounter, update after update, rendering each section
// once per distinct input: the GM and the players whose turn order looks
// the same share one render of it, and a section whose input did not
// change since the last update is not rendered again.
//
// A section's input is the part of the projection it reads (sectionInput):
// the projection with every other field left out, and the viewer reduced
// to what the section shows of it. The section is rendered from that
// reduced projection, never from the whole one, so its bytes are a
// function of the input by construction, and the input's encoding (with the
// section's name and the forms' target) is its key: the memo is a map from
// the encoding itself, not from a digest of it, so two inputs share a
// fragment only when they encode alike — no collision of a hash can show
// one viewer another's section. The board's parts, the action items, the
// log and the roll cards are encoded by hand (keys.go: every field, lists
// and strings length-prefixed, so no two inputs encode alike;
// TestKeysTellEveryFieldApart); the other sections' inputs as JSON after
// their sides and combatants (strings are valid UTF-8: every one reached
// the engine as JSON, so no two inputs encode alike). A field left out
// that a section does read changes what it renders, which
// TestPageFramesEqualAFullRender (internal/realtime) compares with
// Fragments' full render. Inside the board the same is done per roster
// row, token face, action form (model.memoized).
//
// The battlefield is the same for every viewer who sees the same tokens
// but for a few holes (Sections.battlefield): the key's "mine" line, and
// each token's numbers and sheet, which only the GM and the token's player
// read. Its shell — the rest — is memoised whole and its holes filled per
// viewer; the "mine" marks on the viewer's own tokens are the page's
// (app.js), not the markup's. The shell is itself filled from a skeleton
// (Sections.shell) — the board with a hole for each token's face and
// roster row — memoised by where the tokens stand, so a command that
// moves no one renders only the faces and rows that changed. The action
// bar is not memoised whole (unmemoised): its input holds the viewer's own
// combatants' actions, so no two viewers share it; its groups of actions
// and its forms are memoised. The parts that come back after a few updates
// unused (a combatant's actions at its next turn) are kept longer
// (longLived).
//
// RenderParts also says where the parts of the battlefield, the action bar
// and the turn order sit in their markup (Part, parts.go), so that a page
// can be sent only the parts of a section that changed.
//
// What one update rendered is kept until the next but one (Next), so the
// memory held is about two updates' sections. A Sections is safe for
// concurrent use.
type Sections struct {
	mu     sync.Mutex
	memo   map[string]*memoEntry // a part's fragment by its input's encoding
	update uint64                // counts Next's calls
	// lookups are the last viewer's lookups of combatants and sides
	// (lookupsFor): the viewers of an update most often see the same.
	lookups *model
	// entries are the last viewer's new entries of this update
	// (sharedEntries).
	entries sharedEntries
}

// sharedEntries are an update's new entries (the "log", "chat" and "cards"
// fragments) rendered for a viewer, and what they were rendered from: the
// same events (the same slice: the hub passes the update's own events to
// every viewer who sees them all whole; the events of an update are never
// written to once it is published), the same combatants and sides
// (names, portraits, sides' colours) and form target. The viewers of an
// update who see the same events — most often all of them — share one
// render, told apart without encoding the events into a memo key each.
type sharedEntries struct {
	kept       bool
	update     uint64
	events     []engine.Event
	full       bool
	id, act    string
	combatants []engine.Combatant
	sides      []engine.Side
	out        [3]string // log, chat, cards
	cards      bool      // whether out holds cards (not with full)
}

// entryKeys are the fragments sharedEntries keep, in order.
var entryKeys = [3]string{"log", "chat", "cards"}

// sharedEntries puts into out the new entries an earlier viewer of this
// update had, when they were rendered from the same input as v's, and
// reports whether it did.
func (s *Sections) sharedEntries(v engine.View, act string, events []engine.Event, full bool, out map[string]string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := &s.entries
	if !e.kept || e.update != s.update || !sameSlice(e.events, events) || e.full != full ||
		e.id != v.ID || e.act != act || !slices.Equal(e.combatants, v.Combatants) || !slices.Equal(e.sides, v.Sides) {
		return false
	}
	for i, k := range entryKeys {
		if i < 2 || e.cards {
			out[k] = e.out[i]
		}
	}
	return true
}

// keepEntries keeps the new entries rendered for v into out for the next
// viewer of the update (sharedEntries).
func (s *Sections) keepEntries(v engine.View, act string, events []engine.Event, full bool, out map[string]string) {
	cards, hasCards := out["cards"]
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = sharedEntries{kept: true, update: s.update, events: events, full: full, id: v.ID, act: act,
		combatants: v.Combatants, sides: v.Sides, out: [3]string{out["log"], out["chat"], cards}, cards: hasCards}
}

// lookupsFor returns a model holding lookups of combatants and sides equal
// to v's, made for an earlier viewer, or nil.
func (s *Sections) lookupsFor(v engine.View) *model {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.lookups; l != nil && slices.Equal(l.v.Combatants, v.Combatants) && slices.Equal(l.v.Sides, v.Sides) {
		return l
	}
	return nil
}

// keepLookups keeps m's lookups of combatants and sides for the next
// viewer (lookupsFor).
func (s *Sections) keepLookups(m *model) {
	l := &model{v: engine.View{Combatants: m.v.Combatants, Sides: m.v.Sides}, names: m.names, byID: m.byID, sideNo: m.sideNo}
	s.mu.Lock()
	s.lookups = l
	s.mu.Unlock()
}

// memoEntry is a rendered part and the last update that used it.
type memoEntry struct {
	html  string
	parts []string // a battlefield's shell, split at its holes
	at    []Part   // where a section's parts sit (RenderParts)
	// skeleton is a battlefield's skeleton (Sections.shell); skel, a
	// shell's, the entry of the skeleton it was filled from.
	skeleton *skeleton
	skel     *memoEntry
	filled   []filledShell // a shell's, filled for viewers
	used     uint64
	keep     uint64 // how many updates more than two it is kept unused (longLived)
}

// NewSections returns an empty Sections.
func NewSections() *Sections { return &Sections{memo: map[string]*memoEntry{}} }

// Render is Fragments with the sections memoised.
func (s *Sections) Render(ctx context.Context, v engine.View, newEvents []engine.Event, full bool) (map[string]string, error) {
	return fragments(ctx, v, newEvents, full, true, s, nil)
}

// Next says an update is done: what neither it nor the one before used is
// forgotten, but for the parts that come back (longLived), kept longer.
func (s *Sections) Next() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.update++
	for k, e := range s.memo {
		if e.used+1+e.keep < s.update {
			delete(s.memo, k)
		}
	}
}

// section returns section key of v rendered, from the memo or rendered now
// (into buf) and remembered; m is v's model, rendering for s.
func (s *Sections) section(ctx context.Context, key string, v engine.View, m *model, buf *bytes.Buffer) (string, error) {
	act := m.act
	if key == "battlefield" {
		return s.battlefield(ctx, v, m, buf)
	}
	if unmemoised[key] {
		buf.Reset()
		if m.parts != nil && partSections[key] {
			return m.recordSection(ctx, key, buf)
		}
		if err := m.section(key).Render(ctx, buf); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	in := sectionInput(key, v)
	k := keyBuffers.Get().(*bytes.Buffer)
	defer keyBuffers.Put(k)
	k.Reset()
	k.WriteString(key)
	k.WriteByte(0)
	k.WriteString(act)
	k.WriteByte(0)
	// What every section's input holds, by hand (keys.go), encoded once
	// per viewer (every section's input holds v's); the rest as JSON,
	// which ends the key.
	if in.ID == v.ID && sameSlice(in.Sides, v.Sides) && sameSlice(in.Combatants, v.Combatants) {
		if m.commonKey == nil {
			m.commonKey = keyBuf(make([]byte, 0, 1024)).common(v)
		}
		k.Write(m.commonKey)
	} else {
		k.Write(keyBuf(k.AvailableBuffer()).common(in))
	}
	if key == "status" {
		k.Write(keyBuf(k.AvailableBuffer()).status(in))
	} else {
		rest := in
		rest.ID, rest.Sides, rest.Combatants = "", nil, nil
		if err := encodeKey(k, rest); err != nil {
			return "", err
		}
	}
	if m.parts != nil && partSections[key] {
		return s.sectionParts(ctx, key, k, in, m, buf)
	}
	html, ok := s.lookup(k)
	if ok {
		return html, nil
	}
	m = m.derive(in)
	m.memo = s
	buf.Reset()
	if err := m.section(key).Render(ctx, buf); err != nil {
		return "", err
	}
	html = buf.String()
	s.store(k, html)
	return html, nil
}

// unmemoised are the sections rendered afresh for every viewer, their parts
// memoised (see Sections).
var unmemoised = map[string]bool{"actions": true}

// battlefield returns the battlefield of v, whose model is m: its shell
// (the board with a hole for the key and for each token's numbers and
// sheet, which differ between viewers who see the same tokens: the GM and
// a token's player read them, the "mine" mark of the key) rendered once
// per distinct shellInput and kept whole, the holes filled for this viewer
// (their parts memoised too).
//
// A hole is holeMarker in the shell's markup. Every text and attribute
// value on the board is escaped ('<' written as "&lt;"), and no template of
// the board writes a comment, so the markup holds no holeMarker but the
// holes; the shell of n tokens has n+1 of them, in order: the key, then
// each token's row. A count that differs is an error, not a wrong page.
func (s *Sections) battlefield(ctx context.Context, v engine.View, m *model, buf *bytes.Buffer) (string, error) {
	in := shellInput(v)
	k := keyBuffers.Get().(*bytes.Buffer)
	defer keyBuffers.Put(k)
	k.Reset()
	k.WriteString("battlefield")
	k.WriteByte(0)
	k.WriteString(m.act)
	k.WriteByte(0)
	shell, err := keyBuf(k.AvailableBuffer()).shell(in)
	if err != nil {
		return "", err
	}
	k.Write(shell)
	e := s.lookupShell(k)
	if e == nil {
		sm := m.derive(in)
		sm.memo, sm.shell = s, true
		sm.rec = &partRecorder{} // where the shell's parts sit (RenderParts)
		skel, err := s.shell(ctx, sm, in, buf)
		if err != nil {
			return "", err
		}
		at, err := sm.rec.locate(buf.String())
		if err != nil {
			return "", err
		}
		parts := strings.Split(buf.String(), holeMarker)
		if len(parts) != len(sm.board.Tokens)+2 {
			return "", fmt.Errorf("the battlefield's shell has %d holes for %d tokens", len(parts)-1, len(sm.board.Tokens))
		}
		e = &memoEntry{parts: parts, at: at, skel: skel, used: s.update}
		s.mu.Lock()
		s.memo[k.String()] = e
		s.mu.Unlock()
	}
	parts := e.parts
	if len(parts) != len(m.board.Tokens)+2 {
		return "", fmt.Errorf("the battlefield's shell has %d holes for %d tokens", len(parts)-1, len(m.board.Tokens))
	}
	// What fills the holes, from the memo: the key, then each token's
	// numbers and sheet.
	fills := make([]string, 1+2*len(m.board.Tokens))
	l := m.legend()
	if fills[0], err = s.fragment(ctx, m, "legend", l, boardKey(l)); err != nil {
		return "", err
	}
	for i := range m.board.Tokens {
		t := &m.board.Tokens[i]
		if len(t.Stats) > 0 {
			if fills[1+2*i], err = s.fragment(ctx, m, "stats", statsOf(t.Stats), tokenStats(t.Stats)); err != nil {
				return "", err
			}
		}
		if len(t.Sheet) > 0 {
			if fills[2+2*i], err = s.fragment(ctx, m, "sheet", sheetOf{t}, tokenSheet(t)); err != nil {
				return "", err
			}
		}
	}
	// The same shell filled with the same fills (the memo's own strings) is
	// the board this viewer, or another, had: the same string, not a copy.
	s.mu.Lock()
	for _, f := range e.filled {
		if sameStrings(f.fills, fills) {
			s.mu.Unlock()
			if m.parts != nil {
				m.parts["battlefield"] = f.at
			}
			return f.html, nil
		}
	}
	s.mu.Unlock()
	starts := make([]int, len(parts)) // where each piece of the shell is written
	n := len(fills[0])
	for i := range parts {
		n += len(parts[i])
	}
	for _, f := range fills[1:] {
		n += len(f)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(parts[0])
	b.WriteString(fills[0])
	starts[1] = b.Len()
	b.WriteString(parts[1])
	for i := range m.board.Tokens {
		b.WriteString(fills[1+2*i])
		b.WriteString(fills[2+2*i])
		starts[i+2] = b.Len()
		b.WriteString(parts[i+2])
	}
	html := b.String()
	at := shellParts(html, e.at, parts, starts)
	s.mu.Lock()
	if len(e.filled) == maxFilled {
		e.filled = e.filled[1:]
	}
	e.filled = append(e.filled, filledShell{fills: fills, html: html, at: at})
	s.mu.Unlock()
	if m.parts != nil {
		m.parts["battlefield"] = at
	}
	return html, nil
}

// filledShell is a battlefield's shell filled: with what (fills), into
// what markup, its parts where.
type filledShell struct {
	fills []string
	html  string
	at    []Part
}

// maxFilled is how many filled boards a shell keeps: about one per
// distinct viewer of the table.
const maxFilled = 4

// sameStrings reports whether a and b hold the same strings, each the same
// bytes in memory (the memo's): equal, told without reading them.
func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || len(a[i]) > 0 && unsafe.StringData(a[i]) != unsafe.StringData(b[i]) {
			return false
		}
	}
	return true
}

// shell renders the battlefield's shell of sm, whose input is in
// (shellInput), into buf: its skeleton — the shell with a hole for each
// token's face and roster row — rendered once per distinct skeletonInput
// and kept, its holes filled with the faces and rows (memoised each). An
// update that changes tokens but not where they stand (whose turn it is,
// a wound, a condition) renders no part of the board but those tokens'
// faces and rows.
//
// It returns the skeleton's entry in the memo (nil for a board without
// one), which the shell keeps in use while it is (lookupParts).
func (s *Sections) shell(ctx context.Context, sm *model, in engine.View, buf *bytes.Buffer) (*memoEntry, error) {
	kin, ok := skeletonInput(in)
	if !ok {
		buf.Reset()
		return nil, battlefieldSection(sm).Render(ctx, buf)
	}
	k := keyBuffers.Get().(*bytes.Buffer)
	defer keyBuffers.Put(k)
	k.Reset()
	k.WriteString("skeleton")
	k.WriteByte(0)
	k.WriteString(sm.act)
	k.WriteByte(0)
	kb, err := keyBuf(k.AvailableBuffer()).shell(kin)
	if err != nil {
		return nil, err
	}
	k.Write(kb)
	s.mu.Lock()
	e := s.memo[string(k.Bytes())]
	if e != nil {
		e.used = s.update
	}
	s.mu.Unlock()
	if e == nil {
		km := sm.derive(kin)
		km.memo, km.shell = s, true
		km.skel = &skeleton{}
		buf.Reset()
		if err := battlefieldSection(km).Render(ctx, buf); err != nil {
			return nil, err
		}
		sk := km.skel
		sk.pieces = strings.Split(buf.String(), skeletonMarker)
		if len(sk.pieces) != len(sk.holes)+1 {
			return nil, fmt.Errorf("the battlefield's skeleton has %d holes for %d parts", len(sk.pieces)-1, len(sk.holes))
		}
		e = &memoEntry{skeleton: sk, used: s.update}
		s.mu.Lock()
		s.memo[k.String()] = e
		s.mu.Unlock()
	}
	sk := e.skeleton
	buf.Reset()
	buf.WriteString(sk.pieces[0])
	for i, h := range sk.holes {
		var c templ.Component
		if h.row >= 0 {
			if h.row >= len(sm.board.Tokens) || sm.board.Tokens[h.row].ID != h.token {
				return nil, fmt.Errorf("the battlefield's skeleton has a row for %q where the board has another", h.token)
			}
			r := sm.rosterRow(&sm.board.Tokens[h.row])
			c = sm.memoized("roster", r, rosterItem(r))
		} else {
			t := sm.token(h.token)
			if t == nil {
				return nil, fmt.Errorf("the battlefield's skeleton has a face for %q, not on the board", h.token)
			}
			f := sm.face(t)
			c = sm.memoized("face", f, faceOf(f))
		}
		if err := c.Render(ctx, buf); err != nil {
			return nil, err
		}
		buf.WriteString(sk.pieces[i+1])
	}
	return e, nil
}

// skeleton is the battlefield's shell with a hole (skeletonMarker) for each
// token's face and roster row: pieces split at the holes, and what fills
// each.
type skeleton struct {
	pieces []string
	holes  []skeletonHole
}

// skeletonHole is the face of a token in a drawing (row < 0), or the roster
// row of the board's token number row.
type skeletonHole struct {
	token string
	row   int
}

// hole writes a hole for token's face (row < 0) or the roster row of the
// board's token number row, and notes what fills it.
func (sk *skeleton) hole(token string, row int) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		sk.holes = append(sk.holes, skeletonHole{token: token, row: row})
		_, err := io.WriteString(w, skeletonMarker)
		return err
	})
}

// skeletonMarker marks a hole in the battlefield's skeleton: a comment, as
// holeMarker (no template of the board writes one).
const skeletonMarker = "<!--part-->"

// skeletonInput is what the battlefield's skeleton reads of the shell's
// input in: the shell's input with its tokens reduced to their ids and
// sides (the drawings place faces by id, the ladder its camps by side) and
// no one acting (only the tokens say so). The grid's drawing reads every
// field of its tokens (no faces): it has no skeleton (false).
func skeletonInput(in engine.View) (engine.View, bool) {
	if in.Board == nil || in.Board.Model == board.Grid {
		return engine.View{}, false
	}
	in.Acting = nil
	b := *in.Board
	b.Tokens = make([]board.Token, len(in.Board.Tokens))
	for i, t := range in.Board.Tokens {
		b.Tokens[i] = board.Token{ID: t.ID, Side: t.Side}
	}
	in.Board = &b
	return in, true
}

// holeMarker marks a hole in the battlefield's shell (hole).
const holeMarker = "<!--hole-->"

// hole is a hole in the battlefield's shell: where Sections.battlefield
// writes what differs between the viewers who share the shell.
var hole = templ.Raw(holeMarker)

// shellInput is what the battlefield's shell reads of v: the board, the
// scene, the combatants and sides it names, with no viewer and the tokens
// without their numbers and sheets (which go in its holes); without the
// board's facts (the status strip's) and icons (the key's, a hole too),
// which change with the fight where the board does not.
func shellInput(v engine.View) engine.View {
	in := engine.View{ID: v.ID, Sides: v.Sides, Combatants: v.Combatants, Acting: v.Acting,
		Board: v.Board, Scene: v.Scene, SceneFit: v.SceneFit}
	if v.Board == nil {
		return in
	}
	private := slices.ContainsFunc(v.Board.Tokens, func(t board.Token) bool { return len(t.Stats) > 0 || len(t.Sheet) > 0 })
	if private || len(v.Board.Facts) > 0 || len(v.Board.Legend) > 0 {
		b := *v.Board
		b.Facts, b.Legend = nil, nil
		if private {
			b.Tokens = make([]board.Token, len(v.Board.Tokens))
			for i, t := range v.Board.Tokens {
				t.Stats, t.Sheet = nil, nil
				b.Tokens[i] = t
			}
		}
		in.Board = &b
	}
	return in
}

// encodeKey appends in's encoding to k: JSON without escaping HTML (a key
// is never shown; JSON is an injective encoding either way, and escaping
// was a third of encoding a key).
func encodeKey(k *bytes.Buffer, in any) error {
	return gojson.NewEncoder(k).EncodeWithOption(in, gojson.DisableHTMLEscape())
}

// keyBuffers hold the sections' inputs as they are encoded into keys.
var keyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// sectionInput is the part of v that section key reads: v with every field
// the section does not read left out (see Sections). The viewer is kept
// only as far as the section shows it, so that viewers who see the same
// thing share it.
func sectionInput(key string, v engine.View) engine.View {
	// Every section may name combatants and sides, and forms post to the
	// encounter: these are the same for every viewer of an update.
	in := engine.View{ID: v.ID, Sides: v.Sides, Combatants: v.Combatants}
	switch key {
	case "status":
		// Its key is written by hand (keyBuf.status): a field kept here
		// is written there too (TestKeysTellEveryFieldApart,
		// TestStatusInputKeepsStatusFields).
		in.Status, in.Round, in.Phase = v.Status, v.Round, v.Phase
		in.Current, in.Acting, in.Waiting = v.Current, v.Acting, v.Waiting
		in.Outcome, in.Attention = v.Outcome, v.Attention
		in.Viewer.GM = v.Viewer.GM
		// "your turn": whether the viewer controls who has the floor.
		if !v.Viewer.GM && v.Current != "" && contains(v.Viewer.Controls, v.Current) {
			in.Viewer.Controls = []string{v.Current}
		}
		if v.Board != nil && len(v.Board.Facts) > 0 {
			in.Board = &board.Board{Facts: v.Board.Facts}
		}
	case "pending":
		in.Viewer = engine.Viewer{GM: v.Viewer.GM, Controls: v.Viewer.Controls, Players: v.Viewer.Players}
		in.Status = v.Status
		in.Pending, in.Committed, in.Waiting, in.Awaiting = v.Pending, v.Committed, v.Waiting, v.Awaiting
	case "actions":
		in.Viewer = engine.Viewer{GM: v.Viewer.GM, Controls: v.Viewer.Controls, Players: v.Viewer.Players}
		in.Status, in.Pending, in.Waiting = v.Status, v.Pending, v.Waiting
		in.Current, in.Acting, in.Actions = v.Current, v.Acting, v.Actions
	case "handouts":
		in.Viewer.GM = v.Viewer.GM
		in.Handouts = v.Handouts
	case "notes":
		if !v.Viewer.GM {
			return engine.View{} // an empty, hidden section
		}
		in.Viewer.GM = true
		in.Notes = v.Notes
	case "order":
		in.Order, in.Acting, in.Current = v.Order, v.Acting, v.Current
		if v.Board != nil {
			// Of the board, the order shows each token's draw, portrait
			// and health.
			b := &board.Board{Tokens: make([]board.Token, len(v.Board.Tokens))}
			for i, t := range v.Board.Tokens {
				b.Tokens[i] = board.Token{ID: t.ID, Initiative: t.Initiative, Portrait: t.Portrait, Health: t.Health}
			}
			in.Board = b
		}
	case "battlefield":
		in.Board, in.Scene, in.SceneFit, in.Acting = v.Board, v.Scene, v.SceneFit, v.Acting
		// Tokens are marked as the viewer's own ("mine") for players only.
		in.Viewer.GM = v.Viewer.GM
		if !v.Viewer.GM {
			in.Viewer.Controls = v.Viewer.Controls
		}
	default:
		return v
	}
	return in
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// face is all tokenFace shows of a token.
type face struct {
	T                *board.Token `json:"-"` // in the key as tokenKey's
	ID               string       // the element's id (faceID)
	Classes, Summary string
}

func (f face) token() *board.Token { return f.T }

func (m *model) face(t *board.Token) face {
	return face{T: t, ID: m.faceID(t.ID), Classes: m.tokenClasses(t), Summary: m.tokenSummary(t)}
}

// rosterRow is all the roster shows of a token.
type rosterRow struct {
	T                   *board.Token `json:"-"` // in the key as tokenKey's
	SideClass, SideName string
	Place               string
	// Shell leaves a hole where the token's numbers and sheet go
	// (tokenPrivate): the board's shell (Sections.battlefield).
	Shell bool
}

func (r rosterRow) token() *board.Token { return r.T }

// ofToken is the input of a token's part (a face, a roster row): its key
// holds the token's encoding, which the token's parts share (tokenKey).
type ofToken interface{ token() *board.Token }

// handKeyed is a part's input whose key is written by hand (keys.go), not
// encoded as JSON; keyedErr one whose key may fail to be written.
type handKeyed interface{ appendKey(keyBuf) keyBuf }
type keyedErr interface {
	appendKey(keyBuf) (keyBuf, error)
}

func (f face) appendKey(k keyBuf) keyBuf      { return k.face(f) }
func (r rosterRow) appendKey(k keyBuf) keyBuf { return k.rosterRow(r) }
func (l legend) appendKey(k keyBuf) keyBuf    { return k.legend(l) }

// statsOf is all tokenStats shows: a token's numbers.
type statsOf []board.Stat

func (s statsOf) appendKey(k keyBuf) keyBuf { return k.stats(s) }

// sheetOf is all tokenSheet shows of a token: its id, name and sheet.
type sheetOf struct{ t *board.Token }

func (s sheetOf) appendKey(k keyBuf) keyBuf { return k.tokenSheet(s.t) }

// tokenKey is t's encoding for the keys of its parts, encoded once per
// render however many parts show it.
func (m *model) tokenKey(t *board.Token) ([]byte, error) {
	if k, ok := m.tokenKeys[t]; ok {
		return k, nil
	}
	k := keyBuf(nil).token(t)
	if m.tokenKeys == nil {
		m.tokenKeys = make(map[*board.Token][]byte, len(m.board.Tokens))
	}
	m.tokenKeys[t] = k
	return k, nil
}

func (m *model) rosterRow(t *board.Token) rosterRow {
	return rosterRow{T: t, SideClass: m.sideClass(t.Side), SideName: m.sideName(t.Side), Place: m.place(t.ID), Shell: m.shell}
}

// memoized is c, which renders in alone, rendered once per distinct in and
// kind while m renders for a Sections (a roster row, a token's face: most
// of a board stays as it was from one update to the next).
func (m *model) memoized(kind string, in any, c templ.Component) templ.Component {
	if m.memo == nil {
		return c
	}
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		html, err := m.memo.fragment(ctx, m, kind, in, c)
		if err != nil {
			return err
		}
		if partKinds[kind] {
			m.rec.record(html)
		}
		_, err = io.WriteString(w, html)
		return err
	})
}

// fragment returns c rendered, c being a function of in alone, from the memo
// or rendered now and remembered.
func (s *Sections) fragment(ctx context.Context, m *model, kind string, in any, c templ.Component) (string, error) {
	k := keyBuffers.Get().(*bytes.Buffer)
	defer keyBuffers.Put(k)
	k.Reset()
	k.WriteString(kind)
	k.WriteByte(0)
	switch h := in.(type) {
	case handKeyed:
		k.Write(h.appendKey(k.AvailableBuffer()))
	case keyedErr:
		kb, err := h.appendKey(k.AvailableBuffer())
		if err != nil {
			return "", err
		}
		k.Write(kb)
	default:
		if err := encodeKey(k, in); err != nil {
			return "", err
		}
	}
	if t, ok := in.(ofToken); ok {
		tk, err := m.tokenKey(t.token())
		if err != nil {
			return "", err
		}
		k.Write(tk)
	}
	html, ok := s.lookup(k)
	if ok {
		return html, nil
	}
	buf := renderBuffers.Get().(*bytes.Buffer)
	defer renderBuffers.Put(buf)
	buf.Reset()
	if err := c.Render(ctx, buf); err != nil {
		return "", err
	}
	html = buf.String()
	k2 := k.String()
	s.mu.Lock()
	s.memo[k2] = &memoEntry{html: html, used: s.update, keep: longLived[kind]}
	s.mu.Unlock()
	return html, nil
}

// longLived are the kinds of parts kept for this many updates more after
// they were last used: those that come back after a few updates unused. A
// combatant's actions come back at its next turn, as they were but for
// what moved (most of its action items); a token's face and roster row are
// looked up only when the board's shell changed, and come back as they
// were when the token is (the one whose turn ended). They are kept for a
// round of six combatants' turns or so (docs/performance.md, "Fifth
// pass", says what that saves and costs).
var longLived = map[string]uint64{"action": 14, "action-group": 14, "gm-controls": 14, "face": 14, "roster": 14}

// lookup finds the input encoded in key in the memo, marking it used by
// this update. Looking a map up by string(bytes) copies nothing.
func (s *Sections) lookup(key *bytes.Buffer) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.memo[string(key.Bytes())]
	if !ok {
		return "", false
	}
	e.used = s.update
	return e.html, true
}

// lookupShell is lookup for a battlefield's shell, marking the skeleton
// it was filled from used too: the next shell may be filled from it.
func (s *Sections) lookupShell(key *bytes.Buffer) *memoEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.memo[string(key.Bytes())]
	if !ok {
		return nil
	}
	e.used = s.update
	if e.skel != nil {
		e.skel.used = s.update
	}
	return e
}

func (s *Sections) store(key *bytes.Buffer, html string) {
	k := key.String()
	s.mu.Lock()
	s.memo[k] = &memoEntry{html: html, used: s.update}
	s.mu.Unlock()
}

// logEntries is the log's entries of events: rendered once per distinct
// events and names, so viewers who see the same events of an update (the
// GM and players, most of the time) share one render of them.
func (m *model) logEntries(events []engine.Event, full bool) templ.Component {
	return m.memoized("log", logIn{full, events, m.v.Combatants}, logEntries(events, m.names, full))
}

// logIn is what the log's entries of events are rendered from: the events,
// and the names of the combatants (m.names, from the combatants).
type logIn struct {
	Full       bool
	Events     []engine.Event
	Combatants []engine.Combatant
}

func (l logIn) appendKey(k keyBuf) (keyBuf, error) {
	k, err := k.bool(l.Full).events(l.Events)
	return k.combatants(l.Combatants), err
}

// cardsIn is all the roll cards of events show of a projection.
type cardsIn struct {
	Events     []engine.Event
	Sides      []engine.Side
	Combatants []engine.Combatant
}

func (c cardsIn) appendKey(k keyBuf) (keyBuf, error) {
	k, err := k.events(c.Events)
	return k.sides(c.Sides).combatants(c.Combatants), err
}

// rollCards is the roll cards of events, rendered once per distinct events
// and combatants (all a card shows of the viewer's projection: names,
// sides, portraits), from those alone.
func (m *model) rollCards(events []engine.Event) templ.Component {
	if m.memo == nil {
		return rollCards(events, m)
	}
	k := cardsIn{events, m.v.Sides, m.v.Combatants}
	return m.memoized("cards", k, templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return rollCards(events, m.derive(engine.View{ID: m.v.ID, Sides: k.Sides, Combatants: k.Combatants})).Render(ctx, w)
	}))
}

// actionItem is one action: a button that submits at once when the action
// takes no input, or a disclosure that opens its small form.
func (m *model) actionItem(a actionInfo) templ.Component {
	return m.memoized("action", actionIn{m.act, a}, actionItemOf(m.act, a))
}

// actionGroup is a combatant's group of actions in the action bar (a
// part), rendered once per distinct group and form target: most groups are
// as they were from one update to the next.
func (m *model) actionGroup(g actionGroup) templ.Component {
	if m.memo == nil {
		return m.part(actionGroupOf(m, g))
	}
	return m.memoized("action-group", groupIn{m.act, g}, actionGroupOf(m, g))
}

// groupIn is all a group of actions shows: the group and where its forms
// post.
type groupIn struct {
	Act   string
	Group actionGroup
}

func (g groupIn) appendKey(k keyBuf) keyBuf { return k.actionGroup(g) }

// gmOnly is the GM's controls of kind ("gm-controls", "danger-zone": a
// part each) rendered by c from actions alone, once per distinct actions
// and form target.
func (m *model) gmOnly(kind string, actions []actionInfo, c func(*model) templ.Component) templ.Component {
	alone := &model{act: m.act, memo: m.memo}
	if kind == "danger-zone" {
		alone.danger = actions
	} else {
		alone.gm = actions
	}
	if m.memo == nil {
		return m.part(c(alone))
	}
	return m.memoized(kind, actionsIn{m.act, actions}, c(alone))
}

// actionsIn is all the GM's controls show: the actions and where their
// forms post.
type actionsIn struct {
	Act     string
	Actions []actionInfo
}

func (a actionsIn) appendKey(k keyBuf) keyBuf { return k.actionList(a) }

// orderEntry is all the turn order shows of combatant Token: its
// element's id, its side's class, whether it may act now or is out, its
// name, and of its token its draw, portrait and health.
type orderEntry struct {
	ID, Token, SideClass string
	Current, Out         bool
	Name                 string
	Initiative, Portrait string
	Health               *board.Meter
}

func (e orderEntry) appendKey(k keyBuf) keyBuf { return k.orderEntry(e) }

func (m *model) orderEntry(id string) orderEntry {
	c := m.byID[id]
	e := orderEntry{ID: m.uniqueID("turn-" + slug(id)), Token: id, SideClass: m.sideClass(sideOfID(m, id)),
		Current: slices.Contains(m.v.Acting, id), Out: c != nil && c.Out, Name: m.name(id)}
	if t := m.token(id); t != nil {
		e.Initiative, e.Portrait, e.Health = t.Initiative, t.Portrait, t.Health
	}
	return e
}

// actionIn is all an action item shows: the action and where its form
// posts.
type actionIn struct {
	Act    string
	Action actionInfo
}

func (a actionIn) appendKey(k keyBuf) keyBuf { return k.action(a) }
