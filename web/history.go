package web

import (
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
)

// HistoryLinks are the URLs of one encounter's pages for one viewer; they
// carry ?as= when a GM previews as a player.
type HistoryLinks struct {
	Encounter, Log, Replay, ExportJSON, ExportMD, Timeline string
}

// LogProps is the data of an encounter's log page.
type LogProps struct {
	// View is the viewer's projection now: names, sides, status.
	View  engine.View
	Links HistoryLinks
	// As is the ?as= a GM previews with, kept by the filter form.
	As string
	// Entries is the page of the viewer's log that matches the filters.
	Entries []engine.Event
	// Undone marks events a later rewind undid.
	Undone map[int64]bool
	// CanReveal (the GM) adds a "reveal to players" button to every
	// secret entry not in Revealed; the forms post seq to RevealURL.
	CanReveal bool
	Revealed  map[int64]bool
	RevealURL string
	// Characters are the character filter's options; Rounds the last round.
	Characters []engine.Choice
	Rounds     int
	// Who and Round are the filters in force ("" and 0: none).
	Who   string
	Round int
	// Next is the URL of the next page of entries, "" on the last.
	Next string
	// Notice and Error report the outcome of a reveal.
	Notice, Error string
}

// ReplayProps is the data of the replay page: the encounter as it was right
// after event Seq.
type ReplayProps struct {
	// View is the viewer's projection of the state at Seq, without actions.
	View  engine.View
	Links HistoryLinks
	As    string
	// Seq is the step shown, Latest the encounter's last event.
	Seq, Latest int64
	// Event is the event at Seq when the viewer may see it; Hidden says
	// there is one they may not.
	Event  *engine.Event
	Hidden bool
	// Log is the end of the viewer's log up to Seq; Earlier says it is cut.
	Log     []engine.Event
	Earlier bool
	// Prev and Next are the neighbouring steps the viewer may see; -1 for none.
	Prev, Next int64
}

// TimelineProps is the data of a campaign's timeline.
type TimelineProps struct {
	CampaignID, Name string
	Entries          []TimelineEntry
}

// TimelineEntry is one encounter on a campaign's timeline, as its viewer
// may see it.
type TimelineEntry struct {
	ID, Name, Ruleset, Status string
	// Date is shown; DateISO goes in <time datetime>.
	Date, DateISO string
	Events        int64
	Sides         []TimelineSide
	// Outcome is "Heroes win — …", "No winner", or "" while unfinished.
	Outcome string
	Fell    []Fallen
	Links   HistoryLinks
	// Carried are the character revisions the encounter made (those the
	// viewer may see); CarryURL is the GM's carry-over page of a finished
	// encounter.
	Carried  []TimelineCarry
	CarryURL string
}

// TimelineCarry is a character revision an encounter made, linking the
// character's page.
type TimelineCarry struct {
	Name, URL string
	Revision  int
}

// TimelineSide is one side's visible participants.
type TimelineSide struct {
	Name, Class string
	Members     []string
}

// Fallen is a combatant out of the fight, with why.
type Fallen struct {
	Name, Side, Reason string
}

// withSeq adds seq=N to a URL.
func withSeq(u string, seq int64) string {
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + "seq=" + strconv.FormatInt(seq, 10)
}

// undoneSeqs lists the seqs a rewind event undid, space-separated.
func undoneSeqs(ev engine.Event) string {
	var d engine.Rewound
	if ev.Decode(&d) != nil {
		return ""
	}
	parts := make([]string, len(d.Undone))
	for i, s := range d.Undone {
		parts[i] = strconv.FormatInt(s, 10)
	}
	return strings.Join(parts, " ")
}

func (p LogProps) secretFromPlayers(ev engine.Event) bool {
	return p.CanReveal && engine.SecretFromPlayers(ev)
}

func (p LogProps) filtered() bool { return p.Who != "" || p.Round > 0 }

// replayModel is the model of a replay's view, without what a replay must
// not offer: actions and answers.
func replayModel(v engine.View) *model {
	v.Actions, v.Pending = nil, nil
	return newModel(v, "")
}

func (p ReplayProps) stepLabel() string {
	if p.Seq == 0 {
		return "Before the first event"
	}
	return "Event " + strconv.FormatInt(p.Seq, 10) + " of " + strconv.FormatInt(p.Latest, 10)
}

func fallenText(f Fallen) string {
	s := f.Name
	if f.Side != "" {
		s += " (" + f.Side + ")"
	}
	if f.Reason != "" {
		s += ": " + f.Reason
	}
	return s
}
