package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Decisions belong to their owner.
//
// A decision asked of a player's character is that player's to answer. The
// GM commands every combatant, but the server tells the engine which of
// them players own (Viewer.Players, on the GM's viewer only), and the
// engine then keeps those decisions out of the GM's one-click answers: the
// GM's view lists them apart (View.Awaiting, "waiting on Sam (prompt)"; they
// stay in the GM's Pending, answerable with override only), a plain answer
// from the GM is refused, and only an answer that says so —
// {"kind":"answer",…,"override":true}, "Decide for Sam" on the page — or a
// turn deadline's fallback answers one. The log then says who answered:
// "The GM decided for Sam: …". The GM's accept-defaults leaves players'
// decisions alone. A GM viewer without Players (tests, bots, a campaign
// whose characters no player owns) answers everything as before.

// Awaiting is a decision waiting on a player, as the GM sees it: the GM
// may take it over only deliberately (an answer with Override).
type Awaiting struct {
	Player   string   `json:"player"` // the player's account name
	Decision Decision `json:"decision"`
}

// Attention is what asks this viewer to act now: the combatants of theirs
// who have the floor, and the decisions waiting for their answer. The page
// turns it into a changed title, a sound and a notification.
type Attention struct {
	Turn      []string `json:"turn,omitempty"`      // the viewer's combatants acting now
	Decisions []string `json:"decisions,omitempty"` // ids of decisions waiting on the viewer
}

// playerOf is the name of the player who owns the combatant decision d is
// for, when v is a GM who must not answer it in passing; "" otherwise.
func (v Viewer) playerOf(d Decision) string {
	if !v.GM || d.For == GM {
		return ""
	}
	return v.Players[d.For]
}

// PlayerOwned reports whether combatant id is a player's, as v (a GM's
// viewer) knows it.
func (v Viewer) PlayerOwned(id string) bool { return v.GM && v.Players[id] != "" }

// playersKey is the part of a GM's viewer key that Players makes.
func (v Viewer) playersKey() string {
	if len(v.Players) == 0 {
		return ""
	}
	pairs := make([]string, 0, len(v.Players))
	for id, name := range v.Players {
		pairs = append(pairs, id+"="+name)
	}
	slices.Sort(pairs)
	return ":" + strings.Join(pairs, ",")
}

// decidedForText is how the log says the GM answered for a player.
func decidedForText(player, text string) string {
	return fmt.Sprintf("The GM decided for %s: %s", player, text)
}

// attention builds v's attention from the view being projected.
func attention(st State, v Viewer, view *View) *Attention {
	var a Attention
	if view.Status == StatusRunning && !st.Core().Waiting() {
		for _, id := range view.Acting {
			if v.CanCommand(id) && !v.PlayerOwned(id) {
				a.Turn = append(a.Turn, id)
			}
		}
	}
	for _, d := range view.Pending {
		if v.playerOf(d) == "" {
			a.Decisions = append(a.Decisions, d.ID)
		}
	}
	if len(a.Turn) == 0 && len(a.Decisions) == 0 {
		return nil
	}
	return &a
}
