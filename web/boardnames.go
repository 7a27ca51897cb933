package web

import (
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// The drawings' names for a screen reader (docs/playing-by-words.md): a
// zone, a square's token, a pair or a ladder's gap, a roll card each has a
// role and a name that says what it is, made here from what the drawing
// shows — never more than the viewer's board holds.

// zoneName names a zone on the map and who is in it: "Zone Saloon (Light
// cover): Sal, Outlaw 1 and Outlaw 2 in Melee 1".
func (m *model) zoneName(a zoneCell) string {
	s := "Zone " + a.Name
	if len(a.Features) > 0 {
		s += " (" + strings.Join(a.Features, ", ") + ")"
	}
	groups, loose := m.groupsIn(a.ID)
	who := m.nameEach(loose)
	for _, g := range groups {
		if len(g.Members) > 0 {
			who = append(who, strings.Join(m.nameEach(g.Members), " and ")+" in "+groupLabel(g))
		}
	}
	if len(who) == 0 {
		return s + ": no one"
	}
	return s + ": " + strings.Join(who, ", ")
}

// occupiedSquare is a token on the grid, named with its square.
type occupiedSquare struct{ ID, Name string }

// occupied names the square of each token on the grid (a grid board's
// words call it), in the board's order: "Square C8: Sal, Outlaws, Wounded".
func (m *model) occupied() []occupiedSquare {
	var out []occupiedSquare
	for _, p := range m.board.Grid.Places {
		if t := m.token(p.Token); t != nil && !p.Off {
			out = append(out, occupiedSquare{ID: t.ID, Name: "Square " + board.SquareName(p.X, p.Y) + ": " + m.tokenSummary(t)})
		}
	}
	return out
}

// duelName names an engaged pair: the two, their distance as the ruleset
// says it, and what each shows.
func (m *model) duelName(e board.Engagement) string {
	s := m.name(e.A) + " and " + m.name(e.B) + ": " + e.Distance
	for _, id := range []string{e.A, e.B} {
		if shown := e.Shown[id]; shown != "" {
			s += "; " + m.name(id) + " shows " + shown
		}
	}
	return s
}

// gapName names the distance between two sides on the ladder: "Heroes
// and Bandits are at Close".
func (m *model) gapName(l *board.LadderMap, g board.SideGap) string {
	s := m.sideName(g.A) + " and " + m.sideName(g.B) + " are at " + rungName(l, g.Rung)
	if g.Note != "" {
		s += ". " + g.Note
	}
	return s
}

// cardName names a roll card: who rolled, what the card says, and each
// roll's result: "Sal: Sal shoots Outlaw 1 — hit. Shooting 14".
func cardName(g []engine.Event, m *model) string {
	first := g[0]
	s := eventText(first)
	if actor := m.byID[first.Actor]; actor != nil && !strings.HasPrefix(s, actor.Name) {
		s = actor.Name + ": " + s
	}
	var rolls []string
	for _, ev := range g {
		for _, r := range ev.Rolls {
			if !r.IsPick() {
				rolls = append(rolls, rollWords(r, m.names))
			}
		}
	}
	if len(rolls) > 0 {
		s += " " + strings.Join(rolls, "; ") + "."
	}
	return s
}

// rollWords is a roll's result in words: "Shooting (Sal) 14".
func rollWords(r dice.Roll, names map[string]string) string {
	s := r.Label
	if r.Who != "" {
		s += " (" + whoName(names, r.Who) + ")"
	}
	return strings.TrimSpace(s + " " + strconv.Itoa(r.Total))
}
