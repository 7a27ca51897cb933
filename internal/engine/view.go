package engine

import "slices"

// View is what one viewer may see of an encounter: the server-side
// projection sent to that viewer's browser. Nothing outside it reaches them.
type View struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Ruleset    string      `json:"ruleset"`
	Status     Status      `json:"status"`
	Round      int         `json:"round"`
	Seq        int64       `json:"seq"`
	Viewer     Viewer      `json:"viewer"`
	Sides      []Side      `json:"sides"`
	Combatants []Combatant `json:"combatants"`
	Order      []string    `json:"order"`
	Current    string      `json:"current,omitempty"`
	Pending    []Decision  `json:"pending,omitempty"` // the decisions this viewer may answer
	Waiting    string      `json:"waiting,omitempty"` // who the encounter waits on, when not this viewer
	Outcome    *Outcome    `json:"outcome,omitempty"`
	Rules      any         `json:"rules,omitempty"`
	Actions    []Action    `json:"actions"`
}

// Visible reports whether v may see combatant id at all.
func Visible(st State, v Viewer, id string) bool {
	c := st.Core().Combatant(id)
	return c != nil && (v.GM || !c.Hidden || v.CanCommand(id))
}

// Project builds v's view of st.
func Project(rs Ruleset, st State, v Viewer) View {
	b := st.Core()
	view := View{
		ID: b.ID, Name: b.Name, Ruleset: b.Ruleset, Status: b.Status, Round: b.Round, Seq: b.Seq,
		Viewer: v, Sides: b.Sides, Outcome: b.Outcome, Order: []string{}, Actions: []Action{},
	}
	for _, c := range b.Combatants {
		if Visible(st, v, c.ID) {
			view.Combatants = append(view.Combatants, c)
		}
	}
	for _, id := range b.Order {
		if Visible(st, v, id) {
			view.Order = append(view.Order, id)
		}
	}
	if cur := b.Current(); cur != "" && Visible(st, v, cur) {
		view.Current = cur
	}
	for _, d := range b.Pending {
		if v.GM || (d.For != GM && v.CanCommand(d.For)) {
			if !v.GM {
				d.Data = nil
			}
			view.Pending = append(view.Pending, d)
		} else if view.Waiting == "" {
			view.Waiting = "the GM"
			if c := b.Combatant(d.For); c != nil && Visible(st, v, c.ID) {
				view.Waiting = c.Name
			}
		}
	}
	view.Rules = rs.Project(st, v)
	if v.GM {
		view.Actions = append(view.Actions, gmActions(b)...)
	}
	if len(b.Pending) == 0 && b.Status == StatusRunning {
		view.Actions = append(view.Actions, rs.Actions(st, v)...)
	}
	return view
}

func gmActions(b *Base) []Action {
	var out []Action
	switch b.Status {
	case StatusSetup:
		out = append(out, Action{Kind: KindStart, Label: "Start encounter"})
	case StatusRunning:
		out = append(out, Action{Kind: KindPause, Label: "Pause"})
	case StatusPaused:
		out = append(out, Action{Kind: KindResume, Label: "Resume"})
	}
	if b.Status == StatusRunning || b.Status == StatusPaused {
		out = append(out, Action{Kind: KindRewind, Label: "Undo last action",
			Help: "Rewinds the encounter to just before the last action; the log keeps both."})
	}
	if b.Status == StatusFinished {
		return append(out, Action{Kind: KindRewind, Label: "Reopen (undo the last action)",
			Help: "Undoes the action that ended the encounter, so play goes on; the log keeps both."})
	}
	var hidden []Choice
	for _, c := range b.Combatants {
		if c.Hidden {
			hidden = append(hidden, Choice{Value: c.ID, Label: c.Name})
		}
	}
	if len(hidden) > 0 {
		out = append(out, Action{Kind: KindReveal, Label: "Reveal", Fields: []Field{
			{Name: "combatant", Label: "Combatant", Type: "select", Options: hidden},
		}})
	}
	sides := []Choice{{Value: "", Label: "No winner"}}
	for _, s := range b.Sides {
		sides = append(sides, Choice{Value: s.ID, Label: s.Name})
	}
	out = append(out, Action{Kind: KindEnd, Label: "End encounter", Fields: []Field{
		{Name: "winner", Label: "Winner", Type: "select", Options: sides},
	}})
	return out
}

// VisibleEvent reports whether v may see ev, and returns the copy v may see.
func VisibleEvent(st State, v Viewer, ev Event) (Event, bool) {
	if v.GM {
		return ev, true
	}
	if slices.Contains(st.Core().Revealed, ev.Seq) {
		return ev, true // the GM showed it to the players, context and all
	}
	if ev.Secret && !v.CanCommand(ev.Actor) {
		return Event{}, false
	}
	if ev.Kind == KindRewound {
		// The snapshot is the whole state, hidden combatants included.
		var d Rewound
		if ev.Decode(&d) == nil {
			d.Snapshot = nil
			ev = NewEventLike(ev, d)
		}
	}
	if ev.Kind == KindRoundStarted {
		var d RoundStarted
		if ev.Decode(&d) == nil {
			d.Order = slices.DeleteFunc(d.Order, func(id string) bool { return !Visible(st, v, id) })
			ev = NewEventLike(ev, d)
		}
	}
	if ev.Kind == KindDecisionOpened {
		var d DecisionOpened
		if ev.Decode(&d) == nil && d.Decision.Data != nil {
			d.Decision.Data = nil
			ev = NewEventLike(ev, d)
		}
	}
	return ev, true
}

// NewEventLike returns ev with its data replaced by data.
func NewEventLike(ev Event, data any) Event {
	n := NewEvent(ev.Kind, ev.Actor, ev.Text, data, ev.Rolls...)
	n.Seq, n.Round, n.Secret, n.Command = ev.Seq, ev.Round, ev.Secret, ev.Command
	return n
}

// FilterEvents returns the events v may see.
func FilterEvents(st State, v Viewer, events []Event) []Event {
	out := make([]Event, 0, len(events))
	for _, ev := range events {
		if e, ok := VisibleEvent(st, v, ev); ok {
			out = append(out, e)
		}
	}
	return slices.Clip(out)
}

// NextTurn returns the index in b.Order after b.Turn of the next combatant
// not out, or -1 when the round is over.
func NextTurn(b *Base) int {
	for i := b.Turn + 1; i < len(b.Order); i++ {
		if c := b.Combatant(b.Order[i]); c != nil && !c.Out {
			return i
		}
	}
	return -1
}
