package d20tactical

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// View is the d20-tactical part of an engine.View: what the viewer may
// know of each fighter. The battlefield itself is the Board.
type View struct {
	Fighters map[string]FighterView `json:"fighters"` // visible combatants by id
	// Surprise: surprise rounds left.
	Surprise int `json:"surprise,omitempty"`
}

// FighterView is what a viewer sees of one fighter. Everyone sees its
// square, posture and state; Full is set for the GM and the fighter's own
// player, and only then are the numbers of its sheet filled in.
type FighterView struct {
	ID         string   `json:"id"`
	X          int      `json:"x"`
	Y          int      `json:"y"`
	Posture    string   `json:"posture"`
	Status     string   `json:"status"` // "", disabled, dying, stable, dead
	Init       int      `json:"init"`
	FlatFooted bool     `json:"flatFooted,omitempty"`
	Charging   bool     `json:"charging,omitempty"`
	Dropped    bool     `json:"dropped,omitempty"`
	Hurt       []string `json:"hurt,omitempty"` // arms and legs hit
	Groin      bool     `json:"groin,omitempty"`
	Cover      *Cover   `json:"cover,omitempty"` // the GM's ruling

	Full       bool         `json:"full"`
	HP         int          `json:"hp,omitempty"`
	MaxHP      int          `json:"maxHP,omitempty"`
	LifePoints int          `json:"lifePoints,omitempty"`
	ArmorLeft  int          `json:"armorLeft,omitempty"`
	ArmorMax   int          `json:"armorMax,omitempty"`
	Defense    int          `json:"defense,omitempty"`
	Dodge      int          `json:"dodge,omitempty"`
	Speed      int          `json:"speed,omitempty"`
	Saves      *Saves       `json:"saves,omitempty"` // with ability modifiers
	Budget     *Budget      `json:"budget,omitempty"`
	Ready      *Ready       `json:"ready,omitempty"`
	Winded     int          `json:"windedTill,omitempty"`
	Weapons    []WeaponView `json:"weapons,omitempty"`
}

// WeaponView is one weapon on a sheet.
type WeaponView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Damage string `json:"damage"`
	Range  int    `json:"range,omitempty"`
	Modes  string `json:"modes,omitempty"`
	Ammo   int    `json:"ammo,omitempty"`
	Clip   int    `json:"clip,omitempty"`
	Jammed bool   `json:"jammed,omitempty"`
	Ruined bool   `json:"ruined,omitempty"`
}

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

// Project implements engine.Ruleset.
func (Ruleset) Project(s engine.State, v engine.Viewer) any {
	st := s.(*State)
	view := View{Fighters: map[string]FighterView{}, Surprise: st.Surprise}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if f == nil || !engine.Visible(st, v, c.ID) {
			continue
		}
		fv := FighterView{ID: f.ID, X: f.X, Y: f.Y, Posture: f.Posture, Status: status(f), Init: f.Init, FlatFooted: f.FlatFooted,
			Charging: f.Charging, Dropped: f.Dropped, Groin: f.Groin, Cover: f.Cover}
		for _, h := range f.Hurt {
			fv.Hurt = append(fv.Hurt, h.Location)
		}
		if v.GM || v.CanCommand(c.ID) {
			fv.Full = true
			fv.HP, fv.MaxHP, fv.LifePoints, fv.ArmorLeft = f.HP, f.Sheet.HP, f.LifePoints, f.ArmorLeft
			if f.Sheet.Armor != nil {
				fv.ArmorMax = f.Sheet.Armor.Points
			}
			fv.Defense, fv.Dodge, fv.Speed = f.Defense(), f.Sheet.Dodge, f.Speed()
			fv.Saves = &Saves{Fort: f.Fort(), Ref: f.Ref(), Will: f.Will()}
			b := f.Budget
			fv.Budget, fv.Ready, fv.Winded = &b, f.Ready, f.WindedTill
			for _, w := range f.Weapons {
				fv.Weapons = append(fv.Weapons, WeaponView{ID: w.ID, Name: w.Name, Damage: w.Damage, Range: w.Range, Modes: modes(w),
					Ammo: w.Ammo, Clip: w.Clip, Jammed: w.Jammed, Ruined: w.Ruined})
			}
		}
		view.Fighters[c.ID] = fv
	}
	return view
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

// Board implements engine.Boarder: the grid, its obstacles and every
// combatant v may see in its square and posture.
func (Ruleset) Board(s engine.State, v engine.Viewer) *board.Board {
	st := s.(*State)
	g := &board.GridMap{Width: st.Grid.Width, Height: st.Grid.Height, Scale: "5 ft", Places: []board.Placed{}}
	for _, t := range st.Grid.Cells {
		g.Cells = append(g.Cells, boardCell(t))
	}
	bd := &board.Board{Model: board.Grid, Grid: g}
	for _, tok := range engine.Tokens(st, v) {
		f := st.Fighters[tok.ID]
		full := v.GM || v.CanCommand(tok.ID)
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
		add("disabled", "Disabled", "wounded", "0 hit points: one move or standard action a turn; a standard action costs a hit point.")
	}
	if f.FlatFooted {
		add("flat-footed", "Flat-footed", "unaware", "No Dexterity bonus to Defense, no attacks of opportunity until its first turn.")
	}
	if f.Charging {
		add("charging", "Charging", "running", fmt.Sprintf("%+d Defense until their next turn.", optInt(&st.Base, OptChargeDefense)))
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

// Editor implements engine.Boarder: a grid of 5-ft squares whose squares
// take walls, pits, obstacles, materials and difficult terrain, and whose
// combatants start in a posture, perhaps surprised.
func (Ruleset) Editor() board.Editor {
	return board.Editor{Model: board.Grid, Area: cellProps, Start: startProps, MaxWidth: MaxWidth, MaxHeight: MaxHeight, Scale: "5 ft"}
}
