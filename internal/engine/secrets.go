package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
)

// The one filter for secrets. Everything a player reads of an encounter —
// events on a socket, the events API, the log page, the exports, the
// replay, the projection and the page built from it — passes through a
// Sight (events) or Project (the view), which hide from a viewer the
// combatants they may not see: those hidden at the time, unless the viewer
// commands them. Rulesets write their texts and data freely; nothing of
// theirs needs to be careful about hidden combatants.
//
// A combatant the viewer may not see is given away by its id (as a JSON
// value, an actor, a roll's owner, an involved id, or a token inside a
// string such as "tiebreak:<id>" or "a,<id>,b") and by its name (as a word
// in any text), unless the text names a combatant the viewer sees whose name
// contains it. An event that gives one away:
//
//   - is withheld, when it is a ruleset's event: the engine cannot tell
//     which of its words and numbers (a target number, a weapon) come from
//     the hidden combatant, so none of it reaches the viewer;
//   - is rewritten, when it is one of the engine's own events (a round, a
//     turn, a decision, a fall): its data loses the combatant (orders,
//     acting sets, answers), its text is replaced by the engine's own
//     neutral one, and it is withheld after all when anything still names
//     the combatant, or when the event is about the combatant itself (its
//     fall, its answer).
//
// Table talk (what people wrote) and events the GM revealed (reveal-event)
// pass as they are.
//
// Who is hidden is judged at each event's own seq (Base.HiddenAt): history
// shows every event as it was seen when it happened, so a reveal does not
// uncover what came before it, and the live socket, the events API, a
// resume from 0, the exports and the replay all agree.

// Unseen is what players read instead of a hidden combatant's name in a
// text they must get (a question put to them, an action's label).
const Unseen = "someone unseen"

// veil is what one viewer may not see at one point of an encounter.
type veil struct {
	ids         []string // the combatants hidden then that the viewer does not command
	hiddenNames []string
	seen        []string // the names of every other combatant, which may contain theirs
}

func newVeil(b *Base, v Viewer, hidden []string) *veil {
	vl := &veil{}
	if v.GM {
		return vl
	}
	for _, c := range b.Combatants {
		if slices.Contains(hidden, c.ID) && !v.CanCommand(c.ID) {
			vl.ids = append(vl.ids, c.ID)
			if c.Name != "" {
				vl.hiddenNames = append(vl.hiddenNames, c.Name)
			}
		} else if c.Name != "" {
			vl.seen = append(vl.seen, c.Name)
		}
	}
	return vl
}

func (vl *veil) empty() bool { return len(vl.ids) == 0 }

// hides reports whether id is a combatant the viewer may not see.
func (vl *veil) hides(id string) bool { return id != "" && slices.Contains(vl.ids, id) }

// keep returns ids without those the viewer may not see (ids itself when
// none is).
func (vl *veil) keep(ids []string) []string {
	if !slices.ContainsFunc(ids, vl.hides) {
		return ids
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !vl.hides(id) {
			out = append(out, id)
		}
	}
	return out
}

// names reports whether s gives an unseen combatant away: its id as a
// token, or its name as a word.
func (vl *veil) names(s string) bool {
	for _, id := range vl.ids {
		if idToken(s, id) {
			return true
		}
	}
	for _, name := range vl.hiddenNames {
		if len(vl.nameAt(s, name)) > 0 {
			return true
		}
	}
	return false
}

// namesJSON is names over encoded JSON, in which a name may be escaped.
func (vl *veil) namesJSON(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	s := string(raw)
	if vl.names(s) {
		return true
	}
	for _, name := range vl.hiddenNames {
		enc, _ := json.Marshal(name)
		if e := string(enc[1 : len(enc)-1]); e != name && len(vl.nameAt(s, e)) > 0 {
			return true
		}
	}
	return false
}

// nameAt returns where name stands in s as a word, leaving out where it is
// part of the name of a combatant the viewer sees.
func (vl *veil) nameAt(s, name string) []int {
	var at []int
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return at
		}
		j += i
		i = j + len(name)
		if !bounded(s, j, i, isWordRune) {
			continue
		}
		if slices.ContainsFunc(vl.seen, func(other string) bool { return within(s, j, name, other) }) {
			continue
		}
		at = append(at, j)
	}
}

// within reports whether the name at s[j:] is part of other standing there.
func within(s string, j int, name, other string) bool {
	for k := strings.Index(other, name); k >= 0; {
		if start := j - k; start >= 0 && strings.HasPrefix(s[start:], other) {
			return true
		}
		next := strings.Index(other[k+1:], name)
		if next < 0 {
			break
		}
		k += 1 + next
	}
	return false
}

// idToken reports whether id stands in s as a token: not next to a letter,
// a digit, '-' or '_'.
func idToken(s, id string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], id)
		if j < 0 {
			return false
		}
		j += i
		i = j + 1
		if bounded(s, j, j+len(id), isIDRune) {
			return true
		}
	}
}

func bounded(s string, from, to int, inside func(rune) bool) bool {
	if r, _ := utf8.DecodeLastRuneInString(s[:from]); from > 0 && inside(r) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(s[to:]); to < len(s) && inside(r) {
		return false
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
func isIDRune(r rune) bool   { return isWordRune(r) || r == '-' || r == '_' }

// replace returns s with each unseen combatant's name and id put as
// Unseen ("Someone unseen" to begin a sentence).
func (vl *veil) replace(s string) string {
	if vl.empty() || !vl.names(s) {
		return s
	}
	for _, name := range vl.hiddenNames {
		for _, j := range slices.Backward(vl.nameAt(s, name)) {
			s = s[:j] + unseenAt(s, j) + s[j+len(name):]
		}
	}
	for _, id := range vl.ids {
		for i := 0; ; {
			j := strings.Index(s[i:], id)
			if j < 0 {
				break
			}
			j += i
			if !bounded(s, j, j+len(id), isIDRune) {
				i = j + 1
				continue
			}
			u := unseenAt(s, j)
			s = s[:j] + u + s[j+len(id):]
			i = j + len(u)
		}
	}
	return s
}

// unseenAt is Unseen as it reads at s[j:]: capitalised to begin a sentence.
func unseenAt(s string, j int) string {
	before := strings.TrimRight(s[:j], " ")
	if before == "" || strings.HasSuffix(before, ".") || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "!") || strings.HasSuffix(before, "?") {
		return "Someone unseen"
	}
	return Unseen
}

// mentions reports whether ev gives an unseen combatant away anywhere: its
// actor, whom it involves or addresses, its rolls, its text or its data
// (the GM's parts included).
func (vl *veil) mentions(ev Event) bool {
	if vl.empty() {
		return false
	}
	if vl.hides(ev.Actor) || slices.ContainsFunc(ev.Involves, vl.hides) || slices.ContainsFunc(ev.Audience, vl.hides) {
		return true
	}
	if ev.Uses != nil && (vl.hides(ev.Uses.Reactor) || vl.hides(ev.Uses.Source)) {
		return true
	}
	return vl.names(ev.Text) || slices.ContainsFunc(ev.Rolls, vl.rollNames) || vl.namesJSON(ev.Data)
}

func (vl *veil) rollNames(r dice.Roll) bool {
	if vl.hides(r.Who) || vl.names(r.Label) || vl.names(r.Result) {
		return true
	}
	return slices.ContainsFunc(r.Mods, func(m dice.Mod) bool { return vl.names(m.Label) })
}

// A Sight is what one viewer sees of an encounter's events, judged
// against st, a state at or after them (the current state, or a replay's
// step): see the package's notes on secrets above. Events must be shown to
// it in seq order only for speed; each is judged on its own.
type Sight struct {
	b     *Base
	v     Viewer
	veils map[int]*veil // by the entry of b.Hiding in force (len: now)
}

// NewSight returns v's sight of events up to st.
func NewSight(st State, v Viewer) *Sight {
	return &Sight{b: st.Core(), v: v}
}

// veil returns what the viewer may not see right after event seq.
func (s *Sight) veil(seq int64) *veil {
	i := slices.IndexFunc(s.b.Hiding, func(h HidingChange) bool { return h.Seq > seq })
	if i < 0 {
		i = len(s.b.Hiding)
	}
	if vl, ok := s.veils[i]; ok {
		return vl
	}
	if s.veils == nil {
		s.veils = map[int]*veil{}
	}
	vl := newVeil(s.b, s.v, s.b.HiddenAt(seq))
	s.veils[i] = vl
	return vl
}

// See reports whether the viewer may see ev and returns the copy they may
// see, and whether that is ev whole, with nothing taken out: then ev's
// stored encoding may be sent as it is.
func (s *Sight) See(ev Event) (seen Event, ok, whole bool) {
	v := s.v
	if SeesAll(v) {
		return ev, true, true
	}
	if !visibleTo(ev.Audience, v) {
		return Event{}, false, false // a whisper, for others
	}
	if slices.Contains(s.b.Revealed, ev.Seq) {
		return ev, true, true // the GM showed it to the players, context and all
	}
	if ev.Secret && !v.CanCommand(ev.Actor) {
		return Event{}, false, false
	}
	vl := s.veil(ev.Seq)
	mentioned := !IsTableTalk(ev.Kind) && !IsStageEvent(ev.Kind) && ev.Kind != KindEventRevealed && vl.mentions(ev)
	if mentioned && (!coreKinds[ev.Kind] || vl.hides(ev.Actor)) {
		return Event{}, false, false // a ruleset's event about someone unseen
	}
	whole = !mentioned && ev.Uses == nil
	ev.Uses = nil // the engine's bookkeeping
	switch ev.Kind {
	case KindRewound:
		// The snapshot is the whole state, hidden combatants included.
		var d Rewound
		if ev.Decode(&d) == nil {
			d.Snapshot = nil
			ev, whole = NewEventLike(ev, d), false
		}
	case KindOrderChanged:
		var d OrderChanged
		if ev.Decode(&d) == nil {
			d.Turn = -1 // an index into the whole order would count the hidden
			ev, whole = NewEventLike(ev, d), false
		}
	case KindInterruptStarted:
		var d InterruptStarted
		if ev.Decode(&d) == nil && len(d.Then) > 0 {
			d.Then = nil
			ev, whole = NewEventLike(ev, d), false
		}
	case KindDecisionOpened:
		var d DecisionOpened
		if ev.Decode(&d) == nil && (d.Decision.Data != nil || d.Then != nil) {
			d.Decision.Data, d.Then = nil, nil
			ev, whole = NewEventLike(ev, d), false
		}
	}
	if mentioned {
		var ok bool
		if ev, ok = vl.rewrite(s.b, ev); !ok || vl.mentions(ev) {
			return Event{}, false, false
		}
	}
	return ev, true, whole
}

// coreKinds are the engine's own events, whose shape it knows.
var coreKinds = map[string]bool{
	KindStarted: true, KindRoundStarted: true, KindTurnStarted: true, KindOrderChanged: true, KindActed: true,
	KindInterruptStarted: true, KindInterruptEnded: true, KindDecisionOpened: true, KindDecisionResolved: true,
	KindDecisionAnswered: true, KindDecisionsRevealed: true, KindCombatantOut: true, KindCombatantBack: true,
	KindCombatantDown: true, KindCombatantUp: true, KindRevealed: true, KindPaused: true, KindResumed: true,
	KindEnded: true, KindRewound: true, KindDiceCommitted: true, KindDicePublished: true, KindDecisionForfeited: true,
}

// keepsText are the engine's events whose text is the ruleset's words
// about the event itself, not about what its lists hold: such a text stays
// when it names no one unseen.
var keepsText = map[string]bool{
	KindStarted: true, KindRoundStarted: true, KindTurnStarted: true, KindOrderChanged: true, KindActed: true,
	KindInterruptStarted: true, KindInterruptEnded: true, KindCombatantOut: true, KindCombatantBack: true,
	KindCombatantDown: true, KindCombatantUp: true, KindRevealed: true, KindPaused: true, KindResumed: true,
	KindRewound: true,
}

// rewrite takes the unseen combatants out of one of the engine's events
// and gives it the engine's own neutral text; false when the event is
// about one of them.
func (vl *veil) rewrite(b *Base, ev Event) (Event, bool) {
	name := func(id string) string {
		if id == GM || id == "" || vl.hides(id) {
			return "the GM"
		}
		return b.NameOf(id)
	}
	var data any
	text := ""
	switch ev.Kind {
	case KindStarted:
		var d Started
		if len(ev.Data) > 0 && ev.Decode(&d) != nil {
			return ev, false
		}
		if d.Dice != nil {
			data = d
		}
		text = "The encounter begins."
	case KindDiceCommitted, KindDicePublished:
		// Hexadecimal digits and the engine's own words: nothing to take out.
		data, text = ev.Data, ev.Text
	case KindRoundStarted:
		var d RoundStarted
		if ev.Decode(&d) != nil {
			return ev, false
		}
		d.Order = vl.keep(d.Order)
		data, text = d, fmt.Sprintf("Round %d begins.", d.Round)
	case KindTurnStarted:
		var d TurnStarted
		if ev.Decode(&d) != nil || vl.hides(d.Combatant) {
			return ev, false
		}
		d.Acting = vl.keep(d.Acting)
		data, text = d, "A new turn begins."
		if d.Combatant != "" {
			text = b.NameOf(d.Combatant) + "'s turn."
		}
	case KindOrderChanged:
		var d OrderChanged
		if ev.Decode(&d) != nil {
			return ev, false
		}
		d.Order = vl.keep(d.Order)
		data, text = d, "The turn order changes."
	case KindActed, KindInterruptStarted, KindInterruptEnded:
		var d struct {
			Combatant string `json:"combatant"`
		}
		if ev.Decode(&d) != nil || vl.hides(d.Combatant) {
			return ev, false
		}
		data = d
		text = map[string]string{KindActed: "%s is done acting.", KindInterruptStarted: "%s interrupts.", KindInterruptEnded: "%s's interruption ends."}[ev.Kind]
		text = fmt.Sprintf(text, b.NameOf(d.Combatant))
	case KindDecisionOpened:
		var d DecisionOpened
		if ev.Decode(&d) != nil {
			return ev, false
		}
		q := d.Decision
		if vl.hides(q.For) {
			q.For = GM
		}
		data = DecisionOpened{Decision: Decision{ID: q.ID, For: q.For, Kind: q.Kind, Options: []Choice{}, Sealed: q.Sealed, Group: q.Group}}
		text = "Waiting for " + name(q.For) + "."
	case KindDecisionResolved:
		var d DecisionResolved
		if ev.Decode(&d) != nil {
			return ev, false
		}
		if vl.hides(d.By) {
			d.By = GM
		}
		data, text = DecisionResolved{ID: d.ID, By: d.By}, "A question is settled."
	case KindDecisionAnswered:
		var d DecisionAnswered
		if ev.Decode(&d) != nil || vl.hides(d.By) {
			return ev, false
		}
		data, text = d, strings.ToUpper(name(ev.Actor)[:1])+name(ev.Actor)[1:]+" has answered."
	case KindDecisionsRevealed:
		var d DecisionsRevealed
		if ev.Decode(&d) != nil {
			return ev, false
		}
		var texts []string
		d.Answers = slices.DeleteFunc(d.Answers, func(a RevealedAnswer) bool {
			raw, _ := json.Marshal(a)
			return vl.namesJSON(raw)
		})
		for _, a := range d.Answers {
			texts = append(texts, fmt.Sprintf("%s — %s", name(a.For), a.Label))
		}
		data, text = d, "Sealed answers are revealed."
		if len(texts) > 0 {
			text = "Revealed: " + strings.Join(texts, "; ") + "."
		}
	case KindCombatantOut, KindCombatantBack, KindCombatantDown, KindCombatantUp:
		var d CombatantOut
		if ev.Decode(&d) != nil || vl.hides(d.Combatant) {
			return ev, false
		}
		data = CombatantOut{Combatant: d.Combatant}
		text = map[string]string{KindCombatantOut: "%s is out of the fight.", KindCombatantBack: "%s is back in the fight.",
			KindCombatantDown: "%s is down.", KindCombatantUp: "%s is up again."}[ev.Kind]
		text = fmt.Sprintf(text, b.NameOf(d.Combatant))
	case KindRevealed:
		var d Revealed
		if ev.Decode(&d) != nil || vl.hides(d.Combatant) {
			return ev, false
		}
		data, text = d, b.NameOf(d.Combatant)+" is revealed."
	case KindDecisionForfeited:
		var d DecisionForfeited
		if ev.Decode(&d) != nil || vl.hides(d.For) {
			return ev, false
		}
		data, text = DecisionForfeited{ID: d.ID, For: d.For}, name(d.For)+" did not reveal in time: the default applies."
	case KindPaused:
		text = "The GM pauses the encounter."
	case KindResumed:
		text = "The encounter resumes."
	case KindEnded:
		var d Ended
		if ev.Decode(&d) != nil {
			return ev, false
		}
		d.Outcome.Summary = ""
		data, text = d, "The encounter is over."
	case KindRewound:
		var d Rewound
		if ev.Decode(&d) != nil {
			return ev, false
		}
		d.Snapshot = nil
		data, text = d, "The GM rewinds the encounter."
	default:
		return ev, false
	}
	if keepsText[ev.Kind] && !vl.names(ev.Text) {
		text = ev.Text // the combatant is only in the event's lists
	}
	out := NewEvent(ev.Kind, ev.Actor, text, data)
	out.Seq, out.Round, out.Secret, out.Command, out.Audience, out.Draw = ev.Seq, ev.Round, ev.Secret, ev.Command, ev.Audience, ev.Draw
	out.Involves = slices.Clip(vl.keep(ev.Involves))
	for _, r := range ev.Rolls {
		if !vl.rollNames(r) {
			out.Rolls = append(out.Rolls, r)
		}
	}
	return out, true
}

// VisibleEvent reports whether v may see ev, and returns the copy v may see.
func VisibleEvent(st State, v Viewer, ev Event) (Event, bool) {
	seen, ok, _ := NewSight(st, v).See(ev)
	return seen, ok
}

// SeesAll reports whether v sees every event exactly as it is (the GM):
// VisibleEvent leaves such a viewer's events untouched, so their stored
// encoding may be sent as it is.
func SeesAll(v Viewer) bool { return v.GM }

// NewEventLike returns ev with its data replaced by data.
func NewEventLike(ev Event, data any) Event {
	n := NewEvent(ev.Kind, ev.Actor, ev.Text, data, ev.Rolls...)
	n.Seq, n.Round, n.Secret, n.Command, n.Involves, n.Uses, n.Audience = ev.Seq, ev.Round, ev.Secret, ev.Command, ev.Involves, ev.Uses, ev.Audience
	return n
}

// FilterEvents returns the events v may see, each as it was seen when it
// happened; st is a state at or after them.
func FilterEvents(st State, v Viewer, events []Event) []Event {
	out := make([]Event, 0, len(events))
	s := NewSight(st, v)
	for _, ev := range events {
		if e, ok, _ := s.See(ev); ok {
			out = append(out, e)
		}
	}
	return slices.Clip(out)
}

// veilView takes what view's viewer may not see out of the parts of the
// view that rulesets and the engine fill with words: questions put to the
// viewer, actions, the outcome, the board and the ruleset's projection.
// (Combatants, the order, the acting set and the waiting list are built
// from what the viewer sees.) Options that name an unseen combatant are
// dropped; its name anywhere else reads Unseen; a board or projection that
// names one anyway loses what does (see scrubJSON).
func (vl *veil) veilView(view *View) {
	if vl.empty() {
		return
	}
	for i := range view.Pending {
		d := &view.Pending[i]
		d.Prompt = vl.replace(d.Prompt)
		d.Options = vl.choices(d.Options)
		d.Fields = vl.fields(d.Fields)
	}
	for i := range view.Committed {
		view.Committed[i].Prompt = vl.replace(view.Committed[i].Prompt)
		view.Committed[i].Label = vl.replace(view.Committed[i].Label)
	}
	for i := range view.Actions {
		a := &view.Actions[i]
		a.Label, a.Help, a.Fields = vl.replace(a.Label), vl.replace(a.Help), vl.fields(a.Fields)
	}
	if view.Outcome != nil && vl.names(view.Outcome.Summary) {
		o := *view.Outcome
		o.Summary = vl.replace(o.Summary)
		view.Outcome = &o
	}
	if view.Board != nil {
		view.Board = vl.veilBoard(view.Board)
	}
}

// veilBoard returns bd without what names a combatant the viewer may not
// see (see scrubJSON): bd itself when nothing does, found without encoding
// it when boardNames can tell (veilboard.go).
func (vl *veil) veilBoard(bd *board.Board) *board.Board {
	names, ok := vl.boardNames(bd)
	if ok && !names {
		return bd
	}
	raw, err := json.Marshal(bd)
	if err != nil || !ok && !vl.namesJSON(raw) {
		return bd
	}
	var clean *board.Board
	if scrubbed := vl.scrubJSON(raw); scrubbed != nil && json.Unmarshal(scrubbed, &clean) == nil {
		return clean
	}
	return nil
}

func (vl *veil) choices(cs []Choice) []Choice {
	if !slices.ContainsFunc(cs, func(c Choice) bool { return vl.names(c.Value) || vl.names(c.Label) }) {
		return cs
	}
	out := make([]Choice, 0, len(cs))
	for _, c := range cs {
		if !vl.names(c.Value) {
			c.Label = vl.replace(c.Label)
			out = append(out, c)
		}
	}
	return out
}

func (vl *veil) fields(fs []Field) []Field {
	if len(fs) == 0 {
		return fs
	}
	out := slices.Clone(fs)
	for i := range out {
		f := &out[i]
		f.Label, f.Options = vl.replace(f.Label), vl.choices(f.Options)
		if vl.names(f.Default) {
			f.Default = ""
		}
	}
	return out
}

// scrubJSON returns raw without what names an unseen combatant: an object
// with a value naming one (its id, or its id as a token in a string) is
// taken out of the array or object holding it, as is a map entry keyed by
// one; a string naming one by name reads Unseen instead. nil when the
// whole document is such an object.
func (vl *veil) scrubJSON(raw []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return nil
	}
	doc, cut := vl.scrub(doc)
	if cut {
		return nil
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil
	}
	return out
}

// scrub cleans v; cut reports that v itself names an unseen combatant by
// id and must go.
func (vl *veil) scrub(v any) (_ any, cut bool) {
	switch x := v.(type) {
	case string:
		if vl.namesID(x) {
			return nil, true
		}
		return vl.replace(x), false
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			if e, cut := vl.scrub(e); !cut {
				out = append(out, e)
			}
		}
		return out, false
	case map[string]any:
		for k, e := range x {
			if vl.namesID(k) {
				delete(x, k)
				continue
			}
			if s, ok := e.(string); ok && vl.namesID(s) {
				return nil, true // an object naming someone unseen is about them
			}
			if r := vl.replace(k); r != k {
				delete(x, k) // a key naming someone unseen by name reads Unseen
				if _, taken := x[r]; !taken {
					x[r] = e
				}
			}
		}
		for k, e := range x {
			if e, cut := vl.scrub(e); cut {
				delete(x, k)
			} else {
				x[k] = e
			}
		}
		return x, false
	}
	return v, false
}

func (vl *veil) namesID(s string) bool {
	return slices.ContainsFunc(vl.ids, func(id string) bool { return idToken(s, id) })
}
