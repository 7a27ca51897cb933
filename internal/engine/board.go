package engine

import "github.com/fray-vtt/fray/internal/board"

// Boarder is implemented by rulesets that draw their battlefield — every
// ruleset the page shows — under one of the position models of package
// board. Project puts the board in the view, so the page, the prep editor
// and bots read positions without knowing the ruleset.
type Boarder interface {
	// Board is what v sees of the battlefield in st.
	Board(st State, v Viewer) *board.Board
	// Editor describes the battlefield editor for the prep pages.
	Editor() board.Editor
}

// Tokens returns a token for every combatant v may see, in setup order,
// with what the engine knows filled in (side, acting, out, down, hidden); a
// ruleset's Board adds health, conditions and stats.
func Tokens(st State, v Viewer) []board.Token {
	b := st.Core()
	out := make([]board.Token, 0, len(b.Combatants))
	for _, c := range b.Combatants {
		if !Visible(st, v, c.ID) {
			continue
		}
		out = append(out, board.Token{ID: c.ID, Name: c.Name, Side: c.Side, PC: c.PC, Out: c.Out, Down: c.Down,
			Hidden: c.Hidden, Acting: b.IsActing(c.ID)})
	}
	return out
}
