package d6bands

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/rules/kit"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// GM commands (no actor; only the GM may issue them), for the seed's
// rulings:
//   - set-cell: a square's terrain and cover mid-fight — dash difficulty,
//     impassable difficulty, water, cover, line-of-sight blocking, crowd
//     (the fog rolls in, the barricade burns, a cliff gives cover or not);
//   - place: put a combatant on any square, or off the map (Extreme
//     range), out of any contact group;
//   - adjust: a one-off ±D and ±TN on a combatant's next check, with a
//     reason ("a crowd is much easier to hit": −2D).

// Event kinds of GM commands.
const (
	KindCellChanged = "cell-changed"
	KindPlaced      = "placed"
	KindAdjusted    = "adjusted"
	KindAdjustUsed  = "adjust-used"
)

// CellChanged is the data of a cell-changed event: the square's new
// values.
type CellChanged struct {
	Cell Cell `json:"cell"`
}

// Placed is the data of a placed event.
type Placed struct {
	Fighter string `json:"fighter"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Off     bool   `json:"off,omitempty"`
}

// Adjusted is the data of an adjusted event.
type Adjusted struct {
	Fighter string `json:"fighter"`
	Adjust  Adjust `json:"adjust"`
}

// AdjustUsed is the data of an adjust-used event.
type AdjustUsed struct {
	Fighter string `json:"fighter"`
}

// flexInt reads a number given as a JSON number or a numeric string (a
// form posts strings).
type flexInt int

func (n *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*n = 0
		return nil
	}
	var v int
	if _, err := fmt.Sscanf(s, "%d", &v); err != nil || fmt.Sprint(v) != strings.TrimPrefix(s, "+") {
		return fmt.Errorf("%q is not a whole number", s)
	}
	*n = flexInt(v)
	return nil
}

// flexBool reads a checkbox given as a JSON boolean or "on"/"true"/"".
type flexBool bool

func (v *flexBool) UnmarshalJSON(b []byte) error {
	switch strings.Trim(string(b), `"`) {
	case "true", "on":
		*v = true
	case "false", "", "null", "off":
		*v = false
	default:
		return fmt.Errorf("%s is not true or false", b)
	}
	return nil
}

func decideSetCell(tx *Tx, cmd engine.Command) error {
	var args struct {
		X          flexInt  `json:"x"`
		Y          flexInt  `json:"y"`
		Dash       flexInt  `json:"dash"`
		Impassable flexInt  `json:"impassable"`
		Water      flexBool `json:"water"`
		Cover      flexInt  `json:"cover"`
		Blocks     flexBool `json:"blocks"`
		Crowd      flexBool `json:"crowd"`
		Label      string   `json:"label"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	x, y := int(args.X), int(args.Y)
	if !st.onMap(x, y) {
		return fray.Errorf(fray.EINVALID, "square (%d,%d) is outside the %d×%d map", x, y, st.Width, st.Height)
	}
	c := Cell{X: x, Y: y, Dash: int(args.Dash), Impassable: int(args.Impassable), Water: bool(args.Water), Cover: int(args.Cover),
		Blocks: bool(args.Blocks), Crowd: bool(args.Crowd), Label: strings.TrimSpace(args.Label)}
	if err := c.check(); err != nil {
		return fray.Errorf(fray.EINVALID, "%v", err)
	}
	words := "open ground"
	if f := c.Features(); len(f) > 0 {
		words = strings.Join(f, "; ")
	}
	where := board.SquareName(x, y)
	if c.Label != "" {
		where += " " + c.Label
	}
	text := fmt.Sprintf("The GM changes square %s: %s.", where, words)
	if c == st.cell(x, y) {
		// The form as it stands is a legal command: the GM's ruling that
		// the square stays as it is.
		text = fmt.Sprintf("The GM rules square %s stays as it is: %s.", where, words)
	}
	return tx.Emits(KindCellChanged, "", text, CellChanged{Cell: c})
}

func decidePlace(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string   `json:"combatant"`
		X         flexInt  `json:"x"`
		Y         flexInt  `json:"y"`
		Off       flexBool `json:"off"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	p := Placed{Fighter: f.ID, X: int(args.X), Y: int(args.Y), Off: bool(args.Off)}
	text := fmt.Sprintf("The GM places %s off the map, at Extreme range.", st.NameOf(f.ID))
	if p.Off {
		p.X, p.Y = f.X, f.Y
	} else {
		if !st.onMap(p.X, p.Y) {
			return fray.Errorf(fray.EINVALID, "square (%d,%d) is outside the %d×%d map", p.X, p.Y, st.Width, st.Height)
		}
		text = fmt.Sprintf("The GM places %s at %s.", st.NameOf(f.ID), board.SquareName(p.X, p.Y))
	}
	if p.Off == f.Off && (p.Off || (p.X == f.X && p.Y == f.Y && f.Group == "")) {
		// Already there: the GM's ruling that the combatant stays.
		text = fmt.Sprintf("The GM leaves %s where they are.", st.NameOf(f.ID))
	}
	// The combatant is the actor: a hidden one is moved in secret.
	return tx.Emits(KindPlaced, f.ID, text, p)
}

func decideAdjust(tx *Tx, cmd engine.Command) error {
	var args struct {
		Combatant string  `json:"combatant"`
		Dice      flexInt `json:"dice"`
		TN        flexInt `json:"tn"`
		Reason    string  `json:"reason"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	f, err := tx.Named(args.Combatant)
	if err != nil {
		return err
	}
	a := Adjust{Dice: int(args.Dice), TN: int(args.TN), Reason: strings.TrimSpace(args.Reason)}
	switch {
	case a.Dice < -3 || a.Dice > 3:
		return fray.Errorf(fray.EINVALID, "dice must be −3 to +3")
	case a.TN < -6 || a.TN > 6:
		return fray.Errorf(fray.EINVALID, "tn must be −6 to +6")
	case len(a.Reason) > 80:
		return fray.Errorf(fray.EINVALID, "the reason is longer than 80 characters")
	}
	if a.Reason == "" {
		a.Reason = "ruling"
	}
	text := fmt.Sprintf("The GM rules %s on %s's next check (%s).", adjustWords(a), st.NameOf(f.ID), a.Reason)
	if a.Dice == 0 && a.TN == 0 {
		// Nothing to adjust: the ruling clears any adjustment waiting.
		text = fmt.Sprintf("The GM rules no adjustment on %s's next check (%s).", st.NameOf(f.ID), a.Reason)
	}
	return tx.Emits(KindAdjusted, f.ID, text, Adjusted{Fighter: f.ID, Adjust: a})
}

func applyCellChanged(st *State, d CellChanged) error {
	st.Cells = slices.DeleteFunc(st.Cells, func(c Cell) bool { return c.X == d.Cell.X && c.Y == d.Cell.Y })
	if !d.Cell.Open() {
		st.Cells = append(st.Cells, d.Cell)
	}
	st.sortCells()
	return nil
}

func applyPlaced(st *State, d Placed) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	if f.X == d.X && f.Y == d.Y && f.Off == d.Off && f.Group == "" {
		return nil // left where it was: it keeps its aim
	}
	f.X, f.Y, f.Off, f.Group = d.X, d.Y, d.Off, ""
	f.Aim = nil
	st.tidyGroups()
	return nil
}

// adjustWords says what a ruling changes: "+1D and −2 to the skill".
func adjustWords(a Adjust) string {
	var parts []string
	if a.Dice != 0 {
		parts = append(parts, fmt.Sprintf("%+dD", a.Dice))
	}
	if a.TN != 0 {
		parts = append(parts, fmt.Sprintf("%+d to the skill", a.TN))
	}
	return strings.Join(parts, " and ")
}
