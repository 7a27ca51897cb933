package proof

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// ChainLink is one event's place in an export's chain (docs/protocol.md, "The
// chain in an export"). Salt is given only when the export holds the event
// whole: a viewer given the event rewritten (the secrets filter) or not at
// all gets its digest alone, which links the chain without telling the
// event.
type ChainLink struct {
	Seq    int64  `json:"seq"`
	Salt   string `json:"salt,omitempty"`
	Digest string `json:"digest"`
	Link   string `json:"link"`
}

// Report is what Verify found in an export.
type Report struct {
	Encounter string
	Head      Hash   // the chain's head: the link of its last event
	Events    int    // events in the chain
	Whole     int    // events the export holds whole, checked against their digests
	Rewritten int    // events the export holds as rewritten for its viewer (not checkable)
	Withheld  int    // events the export gives by digest only
	Links     []Hash // every event's link, by seq-1: the heads the history passed through
	Dice      DiceReport
	Sealed    SealedReport
}

// Contains reports whether the history passed through head h.
func (r Report) Contains(h Hash) bool {
	for _, l := range r.Links {
		if l == h {
			return true
		}
	}
	return false
}

// Verify checks an encounter's JSON export as anyone can: that its chain
// links from the encounter's genesis, seq after seq; that every event it
// holds whole has the digest the chain gives (so no event was changed,
// removed, added or moved); that its head is the chain's; that every die
// recomputes from the published seeds; and that every sealed answer
// revealed opens its commitment. The failure is the one at the lowest seq.
func Verify(export []byte) (Report, *Failure) {
	var doc struct {
		Encounter struct {
			ID string `json:"id"`
		} `json:"encounter"`
		Head   string            `json:"head"`
		Chain  []ChainLink       `json:"chain"`
		Events []json.RawMessage `json:"events"`
	}
	var rep Report
	if err := json.Unmarshal(export, &doc); err != nil {
		return rep, fail(0, "not an encounter export: %v", err)
	}
	if doc.Encounter.ID == "" || doc.Chain == nil {
		return rep, fail(0, "not an encounter export with its chain (an export made before the chain existed?)")
	}
	rep.Encounter, rep.Events = doc.Encounter.ID, len(doc.Chain)

	// The chain: seq 1, 2, … each linked to the one before.
	var chainFail *Failure
	prev := Genesis(doc.Encounter.ID)
	digests := make([]Hash, len(doc.Chain))
	salts := make([]*Salt, len(doc.Chain))
	for i, c := range doc.Chain {
		seq := int64(i + 1)
		if c.Seq != seq {
			chainFail = fail(seq, "the chain goes from seq %d to %d: an event is missing or out of order", seq-1, c.Seq)
			break
		}
		d, err := ParseHash(c.Digest)
		if err != nil {
			chainFail = fail(seq, "digest: %v", err)
			break
		}
		l, err := ParseHash(c.Link)
		if err != nil {
			chainFail = fail(seq, "link: %v", err)
			break
		}
		if want := Link(prev, seq, d); want != l {
			chainFail = fail(seq, "the link does not follow from the one before and the event's digest")
			break
		}
		if c.Salt != "" {
			b, err := hex.DecodeString(c.Salt)
			if err != nil || len(b) != SaltSize {
				chainFail = fail(seq, "the salt is not %d bytes in hexadecimal", SaltSize)
				break
			}
			var s Salt
			copy(s[:], b)
			salts[i] = &s
		}
		digests[i], prev = d, l
		rep.Links = append(rep.Links, l)
	}
	rep.Head = prev
	if chainFail == nil && doc.Head != "" && doc.Head != prev.String() {
		chainFail = fail(int64(len(doc.Chain)), "the export's head %s is not the chain's %s", doc.Head, prev)
	}

	// The events: in seq order, each in the chain, the whole ones matching
	// their digests.
	var eventFail *Failure
	shown := make([]bool, len(doc.Chain))
	var whole []json.RawMessage
	last := int64(0)
	for _, raw := range doc.Events {
		var ev struct {
			Seq int64 `json:"seq"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			eventFail = fail(last+1, "an event that is not a JSON object: %v", err)
			break
		}
		switch {
		case ev.Seq <= last:
			eventFail = fail(ev.Seq, "event %d comes after event %d: the events are out of order", ev.Seq, last)
		case ev.Seq > int64(len(doc.Chain)):
			eventFail = fail(ev.Seq, "event %d is not in the chain", ev.Seq)
		}
		if eventFail != nil {
			break
		}
		last = ev.Seq
		shown[ev.Seq-1] = true
		salt := salts[ev.Seq-1]
		if salt == nil {
			rep.Rewritten++
			continue
		}
		d, err := Digest(*salt, raw)
		if err != nil {
			eventFail = fail(ev.Seq, "%v", err)
			break
		}
		if d != digests[ev.Seq-1] {
			eventFail = fail(ev.Seq, "the event does not match its digest in the chain: it was changed")
			break
		}
		rep.Whole++
		whole = append(whole, raw)
	}
	if eventFail == nil {
		for i := range doc.Chain {
			if !shown[i] && salts[i] != nil {
				eventFail = fail(int64(i+1), "the chain gives event %d whole (its salt) but the export lacks it: it was removed", i+1)
				break
			}
			if !shown[i] {
				rep.Withheld++
			}
		}
	}
	var diceFail, sealedFail *Failure
	rep.Dice, diceFail = CheckDice(whole, rep.Whole == rep.Events)
	rep.Sealed, sealedFail = CheckSealed(whole)
	if f := first(chainFail, eventFail, diceFail, sealedFail); f != nil {
		return rep, f
	}
	return rep, nil
}

// ExportChain builds an export's chain from what the store keeps; whole tells
// whether the viewer's export holds event seq as it is (then its salt is
// given).
func ExportChain(links []Sealed, whole func(seq int64) bool) []ChainLink {
	out := make([]ChainLink, len(links))
	for i, l := range links {
		out[i] = ChainLink{Seq: l.Seq, Digest: l.Digest.String(), Link: l.Link.String()}
		if whole(l.Seq) {
			out[i].Salt = hex.EncodeToString(l.Salt[:])
		}
	}
	return out
}

// String summarises the report in a line or two.
func (r Report) String() string {
	s := fmt.Sprintf("encounter %s: %d events chained, head %s (%s)\n", r.Encounter, r.Events, r.Head.Short(), r.Head)
	s += fmt.Sprintf("  %d checked whole, %d rewritten for this viewer, %d withheld (digest only)\n", r.Whole, r.Rewritten, r.Withheld)
	s += fmt.Sprintf("  dice: %d faces recomputed from published seeds, %d waiting for their seed, %d from before provable dice\n",
		r.Dice.Verified, r.Dice.Pending, r.Dice.Unprovable)
	s += fmt.Sprintf("  sealed answers: %d committed, %d revealed and matching, %d forfeited, %d waiting", r.Sealed.Committed, r.Sealed.Revealed, r.Sealed.Forfeited, r.Sealed.Waiting)
	return s
}
