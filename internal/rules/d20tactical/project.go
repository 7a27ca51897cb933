package d20tactical

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// status words a fighter's state: "", disabled, dying, stable, dead.
func status(f *Fighter) string {
	switch {
	case f.Dead:
		return "dead"
	case f.HP < 0 && f.Stable:
		return "stable"
	case f.HP < 0:
		return "dying"
	case f.HP == 0:
		return "disabled"
	}
	return ""
}

func modes(w *Weapon) string {
	switch {
	case w.Auto:
		return "single, burst, automatic"
	case w.Burst:
		return "single, burst"
	}
	return ""
}

// project is d20-tactical's one projection, what v sees: the grid, its
// obstacles and every combatant v may see in its square and posture, with
// its state; the GM and a fighter's own player also see its hit points and
// sheet.
func project(st *State, v engine.Viewer) *board.Board {
	g := &board.GridMap{Width: st.Grid.Width, Height: st.Grid.Height, Scale: "5 ft", Places: []board.Placed{}, Cells: st.boardCells()}
	bd := &board.Board{Model: board.Grid, Grid: g}
	for _, tok := range engine.Tokens(st, v) {
		f := st.Fighters[tok.ID]
		full := v.CanCommand(tok.ID)
		if full {
			tok.Health = &board.Meter{Label: "HP", Value: f.HP, Max: f.Sheet.HP, Low: true, Text: fmt.Sprintf("%d of %d hit points", f.HP, f.Sheet.HP)}
			tok.Stats = []board.Stat{
				{Label: "Defense", Value: fmt.Sprint(f.Defense())},
				{Label: "Dodge", Value: dodgeText(f)},
				{Label: "Life Points", Value: fmt.Sprint(f.LifePoints)},
			}
			if a := f.Sheet.Armor; a != nil {
				tok.Stats = append(tok.Stats, board.Stat{Label: "Armour Points", Value: fmt.Sprintf("%d/%d", f.ArmorLeft, a.Points)})
			}
			tok.Sheet = sheetSections(f)
		}
		tok.Stats = append(tok.Stats, board.Stat{Label: "Initiative", Value: fmt.Sprint(f.Init)})
		tok.Pose, tok.Conditions = pose(f.Posture), conditions(st, f, full)
		bd.Tokens = append(bd.Tokens, tok)
		if !tok.Out {
			g.Places = append(g.Places, board.Placed{Token: tok.ID, X: f.X, Y: f.Y})
		}
	}
	if st.Surprise > 0 {
		bd.Notes = append(bd.Notes, "Surprise round: the surprised are flat-footed and do not act.")
	}
	return bd
}

// boardCells are the grid's squares as the board shows them. The grid
// never changes once set up, so they are made the first time they are
// shown and kept (an engine.Memo) for every later view of the state and
// of every later copy of it. Views share them: nothing may change a
// board's cells in place.
func (s *State) boardCells() []board.Cell {
	if c := s.cells.Load(); c != nil {
		return *c
	}
	var cells []board.Cell
	for _, t := range s.Grid.Cells {
		cells = append(cells, boardCell(t))
	}
	cells = slices.Clip(cells)
	return *s.cells.Keep(&cells)
}

func dodgeText(f *Fighter) string {
	if f.Sheet.Dodge == 0 {
		return "—"
	}
	return fmt.Sprint(f.Sheet.Dodge)
}

func boardCell(t Terrain) board.Cell {
	c := board.Cell{X: t.X, Y: t.Y, Label: t.Label, Blocks: t.Wall}
	switch {
	case t.Wall:
		c.Features, c.Shade = append(c.Features, "wall"), 3
	case t.Pit:
		c.Features, c.Shade = append(c.Features, "pit: jump over it"), 2
	}
	if t.Obstacle != "" {
		what := map[string]string{ObstacleLow: "low obstacle (¼ height)", ObstacleHalf: "half-height obstacle", ObstacleHigh: "high obstacle (¾ height)"}[t.Obstacle]
		c.Features = append(c.Features, what)
		c.Shade = max(c.Shade, obstacleHeight(t.Obstacle))
	}
	if t.Material != 0 {
		c.Features = append(c.Features, fmt.Sprintf("cover material %+d", t.Material))
	}
	if t.Difficult {
		c.Features = append(c.Features, "difficult terrain")
		c.Shade = max(c.Shade, 1)
	}
	if t.JumpDC != 0 {
		c.Features = append(c.Features, fmt.Sprintf("Jump DC %d", t.JumpDC))
	}
	return c
}

// conditions are f's states worth an icon; full adds those only its own
// side would know (a readied action, a jammed gun).
func conditions(st *State, f *Fighter, full bool) []board.Condition {
	var out []board.Condition
	add := func(id, label, icon, text string) {
		out = append(out, board.Condition{ID: id, Label: label, Icon: icons[icon], Text: text})
	}
	switch status(f) {
	case "dying":
		add("dying", "Dying", "dying", "Loses 1 hit point a round unless stabilised; dead at −10.")
	case "stable":
		add("stable", "Stable", "unconscious", "Unconscious below 0 hit points, no longer bleeding.")
	case "disabled":
		// Its id is not the plain word: "disabled" is a page's and an
		// account's too.
		add("zero-hp", "Disabled", "wounded", "0 hit points: one move or standard action a turn; a standard action costs a hit point.")
	}
	if f.FlatFooted {
		add("flat-footed", "Flat-footed", "unaware", "No Dexterity bonus to Defense, no attacks of opportunity until its first turn.")
	}
	if f.Charging {
		add("charging", "Charging", "running", fmt.Sprintf("%+d Defense until their next turn.", kit.OptInt(&st.Base, OptChargeDefense)))
	}
	if f.Dropped {
		add("dropped", "Disarmed", "disarmed", "Dropped what they held: a move action picks it up.")
	}
	for _, h := range f.Hurt {
		text := "−1 to hit."
		if strings.HasSuffix(h.Location, "leg") {
			text = "−10 ft of speed."
		}
		add("hurt-"+h.Location, "Hurt "+locationName(h.Location), "wounded", text)
	}
	if f.Groin {
		add("groin", "Groin hit", "stunned", "Only a move-equivalent action next turn.")
	}
	if f.Cover != nil {
		add("cover", fmt.Sprintf("Cover %d%%", f.Cover.Percent), "cover", fmt.Sprintf("%+d Defense against shots (the GM's ruling).", f.Cover.Bonus()))
	}
	if winded(st, f) {
		add("winded", "Winded", "winded", fmt.Sprintf("Cannot run until round %d.", f.WindedTill+1))
	}
	if full {
		if f.Ready != nil {
			add("ready", "Ready", "hold", "A readied "+f.Ready.Action+" action, "+triggerText(f.Ready.Trigger)+".")
		}
		for _, w := range f.Weapons {
			if w.Jammed {
				add("jammed-"+w.ID, w.Name+" jammed", "jammed", "Clearing it is a move action.")
			}
		}
	}
	return out
}

// editor is the battlefield editor: a grid of 5-ft squares whose squares
// take walls, pits, obstacles, materials and difficult terrain, and whose
// combatants start in a posture, perhaps surprised.
var editor = board.Editor{Model: board.Grid, Area: cellProps, Start: startProps, MaxWidth: MaxWidth, MaxHeight: MaxHeight, Scale: "5 ft",
	Wall: board.Props{"wall": true}}

// sheetSections is the rest of a fighter's stat block: saves and speed, what its
// turn has left, and its weapons as they stand.
func sheetSections(f *Fighter) []board.Section {
	body := []board.Stat{
		{Label: "Fortitude", Value: fmt.Sprintf("%+d", f.Fort())},
		{Label: "Reflex", Value: fmt.Sprintf("%+d", f.Ref())},
		{Label: "Will", Value: fmt.Sprintf("%+d", f.Will())},
		{Label: "Speed", Value: fmt.Sprintf("%d ft", f.Speed())},
	}
	var turn []string
	if f.Budget.Move {
		turn = append(turn, "a move action")
	}
	if f.Budget.Standard {
		turn = append(turn, "a standard action")
	}
	if f.Budget.Feet > 0 {
		turn = append(turn, fmt.Sprintf("%d ft of this move", f.Budget.Feet))
	}
	if len(turn) > 0 {
		body = append(body, board.Stat{Label: "Left this turn", Value: strings.Join(turn, ", ")})
	}
	if f.Ready != nil {
		body = append(body, board.Stat{Label: "Ready", Value: f.Ready.Action, Note: triggerText(f.Ready.Trigger)})
	}
	ws := make([]board.Stat, 0, len(f.Weapons))
	for _, w := range f.Weapons {
		var notes []string
		if w.Range > 0 {
			notes = append(notes, fmt.Sprintf("range %d ft", w.Range))
		}
		if m := modes(w); m != "" {
			notes = append(notes, m)
		}
		if w.Clip > 0 {
			notes = append(notes, fmt.Sprintf("%d/%d rounds", w.Ammo, w.Clip))
		}
		if w.Jammed {
			notes = append(notes, "jammed")
		}
		if w.Ruined {
			notes = append(notes, "ruined")
		}
		ws = append(ws, board.Stat{Label: w.Name, Value: w.Damage, Note: strings.Join(notes, ", ")})
	}
	return []board.Section{{Title: "Saves and speed", Stats: body}, {Title: "Weapons", Stats: ws}}
}
