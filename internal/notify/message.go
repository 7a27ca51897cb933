package notify

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/outbox"
	"github.com/fray-vtt/fray/internal/store"
)

// Message is what one recipient is told about one notice, and the payload
// of its delivery. Everything in it comes from the encounter's event as the
// engine's one filter (engine.Sight) shows it to that recipient, plus names
// every member may read (the campaign's, the encounter's): nothing of raw
// state, so a notice never says more than the recipient's page could.
type Message struct {
	ID        string      `json:"id"` // the delivery id: the same for every attempt
	Type      outbox.Type `json:"type"`
	Created   time.Time   `json:"created"` // when what it tells happened
	Campaign  Ref         `json:"campaign"`
	Encounter Ref         `json:"encounter"`
	Seq       int64       `json:"seq"`
	Round     int         `json:"round,omitempty"`
	// Title is a short line: what happened, where ("Your turn in Ambush").
	Title string `json:"title"`
	// Text is the event's own line as the recipient sees it ("Sam's turn.").
	Text string `json:"text"`
	// Due is when a reminder's wait runs out.
	Due *time.Time `json:"due,omitempty"`
}

// Ref names a campaign or an encounter; URL is its page.
type Ref struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// audience is whom a notice may go to: the public (a campaign's webhooks,
// read by everyone at the table, as a player with no character) and each
// member by their own viewer.
type recipient struct {
	public bool
	member store.NoticeMember
	viewer engine.Viewer
}

// publicViewer is a webhook's audience: a player with no character sees
// what the whole table may see.
var publicViewer = engine.PlayerViewer()

func memberViewer(m store.NoticeMember) engine.Viewer {
	if m.Role == store.RoleGM {
		return engine.GMViewer()
	}
	return engine.PlayerViewer(m.Characters...)
}

// tell decides what recipient r is told about notice n, caused by ev in
// an encounter now in state st: ok is false when they are told nothing —
// the filter withholds the event from them, or it is not theirs to act on.
func tell(st engine.State, n store.WaitingNotice, ev engine.Event, r recipient, owned []string) (title, text string, ok bool) {
	seen, visible := engine.VisibleEvent(st, r.viewer, ev)
	if !visible {
		return "", "", false
	}
	if r.public {
		if n.Type == outbox.Reminder || n.User != "" {
			return "", "", false // a reminder is for whoever must act
		}
		return "", seen.Text, true
	}
	if n.User != "" && n.User != r.member.UserID {
		return "", "", false
	}
	mine := func(ids ...string) bool {
		for _, id := range ids {
			if id == "" {
				continue
			}
			if r.viewer.GM && (id == engine.GM || !slices.Contains(owned, id)) {
				return true // the GM plays whoever no player owns
			}
			if !r.viewer.GM && slices.Contains(r.viewer.Controls, id) {
				return true
			}
		}
		return false
	}
	kind := n.Type
	if kind == outbox.Reminder {
		switch seen.Kind {
		case engine.KindTurnStarted:
			kind = outbox.Turn
		case engine.KindDecisionOpened:
			kind = outbox.Decision
		}
	}
	switch kind {
	case outbox.Turn:
		var d engine.TurnStarted
		if seen.Decode(&d) != nil || !(mine(d.Combatant) || mine(d.Acting...) || n.User != "") {
			return "", "", false
		}
		title = "Your turn"
	case outbox.Decision:
		var d engine.DecisionOpened
		if seen.Decode(&d) != nil || !(mine(d.Decision.For) || n.User != "") {
			return "", "", false
		}
		title = "A decision waits for you"
	case outbox.EncounterStarted:
		title = "The encounter begins"
	case outbox.EncounterEnded:
		title = "The encounter is over"
	default:
		if n.User == "" {
			return "", "", false
		}
		title = "A reminder"
	}
	if n.Type == outbox.Reminder {
		title = "Reminder: " + lowerFirst(title)
	}
	return title, seen.Text, true
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// due reads a reminder's due time from a notice's data.
func due(data json.RawMessage) *time.Time {
	var d struct {
		Due time.Time `json:"due"`
	}
	if data == nil || json.Unmarshal(data, &d) != nil || d.Due.IsZero() {
		return nil
	}
	return &d.Due
}
