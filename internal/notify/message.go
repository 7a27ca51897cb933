package notify

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/links"
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
	// Act, for a turn or a decision, lets its player act from the notice.
	Act *Act `json:"act,omitempty"`
}

// Act is what a notice lets its reader do at once: URL is a signed,
// single-use link (internal/links) to a page for the one decision, or to
// their turn on the table; Answers are a decision's answers when it has
// few (a push notification's buttons), each posted as the link's answer.
type Act struct {
	URL     string          `json:"url"`
	Answers []engine.Choice `json:"answers,omitempty"`
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

// told decides what recipient r is told about notice n, caused by ev in
// an encounter now in state st: ok is false when they are told nothing —
// the filter withholds the event from them, or it is not theirs to act on.
func told(st engine.State, n store.WaitingNotice, ev engine.Event, r recipient, owned []string) (title string, seen engine.Event, ok bool) {
	seen, visible := engine.VisibleEvent(st, r.viewer, ev)
	if !visible {
		return "", seen, false
	}
	if r.public {
		if n.Type == outbox.Reminder || n.User != "" {
			return "", seen, false // a reminder is for whoever must act
		}
		return "", seen, true
	}
	if n.User != "" && n.User != r.member.UserID {
		return "", seen, false
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
			return "", seen, false
		}
		title = "Your turn"
	case outbox.Decision:
		var d engine.DecisionOpened
		if seen.Decode(&d) != nil || !(mine(d.Decision.For) || n.User != "") {
			return "", seen, false
		}
		title = "A decision waits for you"
	case outbox.EncounterStarted:
		title = "The encounter begins"
	case outbox.EncounterEnded:
		title = "The encounter is over"
	default:
		if n.User == "" {
			return "", seen, false
		}
		title = "A reminder"
	}
	if n.Type == outbox.Reminder {
		title = "Reminder: " + lowerFirst(title)
	}
	return title, seen, true
}

// maxButtons is how many answers a decision may have for a push
// notification to offer them as buttons (browsers show two at most).
const maxButtons = 2

// actOf is what the reader of a notice about seen (the event as they see
// it) may do from it, as user (who must be signed in to follow the link):
// nil unless it is a turn starting or a decision opening. A decision's
// answers are offered when it has at most maxButtons and no field.
func actOf(signer *links.Signer, base string, n store.WaitingNotice, seen engine.Event, user string) *Act {
	if signer == nil || user == "" {
		return nil
	}
	l := links.Link{User: user, Encounter: n.EncounterID, Seq: seen.Seq, Expires: n.Created.Add(links.Lifetime).Unix()}
	var answers []engine.Choice
	switch seen.Kind {
	case engine.KindTurnStarted:
	case engine.KindDecisionOpened:
		var d engine.DecisionOpened
		if seen.Decode(&d) != nil || d.Decision.ID == "" {
			return nil
		}
		l.Decision = d.Decision.ID
		if len(d.Decision.Options) > 0 && len(d.Decision.Options) <= maxButtons && len(d.Decision.Fields) == 0 {
			answers = d.Decision.Options
		}
	default:
		return nil
	}
	return &Act{URL: base + "/act/" + signer.Sign(l), Answers: answers}
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
