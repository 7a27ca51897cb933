package board

import (
	"slices"
	"strconv"
)

// Preview draws a setup's battlefield as a board, for the prep editor: the
// areas or cells with their properties in words, the starting melees,
// engagements and distances, and the tokens at their starts. Whatever bf
// holds, the board keeps within the limits (clampBattlefield), so drawing
// it is bounded.
func Preview(e Editor, bf Battlefield, tokens []Token, starts map[string]Start) *Board {
	bf = clampBattlefield(bf)
	model := bf.Model
	if model == "" {
		model = e.Model
	}
	b := &Board{Model: model, Tokens: tokens}
	defer b.Finish()
	for i := range tokens {
		if s := startPose(e.Start, starts[tokens[i].ID].Props); s != nil {
			tokens[i].Pose = s
		}
	}
	switch model {
	case Zones:
		zm := &ZoneMap{Areas: []Area{}, Links: []Link{}, Groups: []Group{}, Places: []Placed{}}
		for i, z := range bf.Zones {
			zm.Areas = append(zm.Areas, Area{ID: z.ID, Name: z.Name, Description: z.Description, X: z.X, Y: z.Y, W: z.W, H: z.H,
				Features: Features(e.Area, z.Props), Shade: shade(z.Props)})
			for _, n := range z.Adjacent {
				j := slices.IndexFunc(bf.Zones, func(o ZoneSetup) bool { return o.ID == n })
				if j < 0 {
					continue
				}
				if j > i || !slices.Contains(bf.Zones[j].Adjacent, z.ID) {
					zm.Links = append(zm.Links, Link{A: z.ID, B: n})
				}
			}
		}
		for i, m := range bf.Melees {
			zm.Groups = append(zm.Groups, Group{ID: m.ID, Area: m.Zone, Members: m.Members, Label: "Melee " + strconv.Itoa(i+1)})
		}
		for _, t := range tokens {
			st := starts[t.ID]
			if st.Zone == "" {
				continue
			}
			p := Placed{Token: t.ID, Area: st.Zone}
			for _, m := range bf.Melees {
				if slices.Contains(m.Members, t.ID) {
					p.Group = m.ID
				}
			}
			zm.Places = append(zm.Places, p)
		}
		b.Zones = zm
	case Grid:
		g := &GridMap{Width: max(bf.Width, 1), Height: max(bf.Height, 1), Scale: e.Scale, Places: []Placed{}}
		for _, c := range bf.Cells {
			g.Cells = append(g.Cells, Cell{X: c.X, Y: c.Y, Features: Features(e.Area, c.Props), Shade: max(1, shade(c.Props))})
		}
		// The walls between squares as the encounter will keep them; a
		// draft's that the grid refuses (creating says why) are not drawn.
		if w, err := NewWalls(g.Width, g.Height, bf.Edges); err == nil && len(w.Edges) > 0 {
			g.Edges = w.Edges
		}
		for _, t := range tokens {
			st := starts[t.ID]
			if st.X == nil || st.Y == nil {
				continue
			}
			g.Places = append(g.Places, Placed{Token: t.ID, X: *st.X, Y: *st.Y, Group: st.Group})
		}
		b.Grid = g
	case Pairs:
		pm := &PairMap{Apart: []string{}}
		engaged := map[string]bool{}
		for _, p := range bf.Pairs {
			d := p.Distance
			if d == "" && len(e.Distances) > 0 {
				d = e.Distances[0]
			}
			pm.Engagements = append(pm.Engagements, Engagement{A: p.A, B: p.B, Distance: d})
			engaged[p.A], engaged[p.B] = true, true
		}
		for _, t := range tokens {
			if !engaged[t.ID] {
				pm.Apart = append(pm.Apart, t.ID)
			}
		}
		b.Pairs = pm
	case Ladder:
		lm := &LadderMap{}
		for _, d := range e.Distances {
			lm.Rungs = append(lm.Rungs, Rung{Name: d})
		}
		for _, d := range bf.Distances {
			lm.Gaps = append(lm.Gaps, SideGap{A: d.A, B: d.B, Rung: max(0, slices.Index(e.Distances, d.Rung))})
		}
		b.Ladder = lm
	}
	return b
}

// Features words an area's or a cell's properties as the editor labels
// them: "Cover: Light", "Cover Armour: 10", "Difficult terrain".
func Features(fields []Field, p Props) []string {
	var out []string
	for _, f := range fields {
		v, ok := p[f.Name]
		if !ok {
			continue
		}
		switch f.Type {
		case FieldBool:
			if b, _ := v.(bool); b {
				out = append(out, f.Label)
			}
		case FieldSelect:
			if s := p.String(f.Name); s != "" {
				out = append(out, f.Label+": "+f.OptionLabel(s))
			}
		default:
			if s := p.String(f.Name); s != "" && s != "0" {
				out = append(out, f.Label+": "+s)
			}
		}
	}
	return out
}

// startPose is the pose a start's properties put a token in: the
// Pose of the option chosen for a select that declares them.
func startPose(fields []Field, p Props) *Pose {
	for _, f := range fields {
		if f.Type != FieldSelect {
			continue
		}
		v, ok := p[f.Name]
		if !ok {
			v = f.Default
		}
		s, _ := v.(string)
		for _, o := range f.Options {
			if o.Value == s && o.Pose != nil {
				st := *o.Pose
				return &st
			}
		}
	}
	return nil
}

// shade grades how many properties an area has, for the preview's fill.
func shade(p Props) int { return min(len(p), 3) }

// clampBattlefield cuts bf down to the limits (MaxGridSide, MaxZones, …):
// a grid no larger than MaxGridSide squares a side with only the cells
// inside it, and at most so many zones, borders, melees, engagements and
// distances.
func clampBattlefield(bf Battlefield) Battlefield {
	bf.Width, bf.Height = min(max(bf.Width, 0), MaxGridSide), min(max(bf.Height, 0), MaxGridSide)
	bf.Cells = slices.DeleteFunc(slices.Clone(bf.Cells), func(c CellSetup) bool {
		return c.X < 0 || c.Y < 0 || c.X >= bf.Width || c.Y >= bf.Height
	})
	if len(bf.Zones) > MaxZones {
		bf.Zones = bf.Zones[:MaxZones]
	}
	for i := range bf.Zones {
		if len(bf.Zones[i].Adjacent) > MaxZones {
			bf.Zones = slices.Clone(bf.Zones)
			bf.Zones[i].Adjacent = bf.Zones[i].Adjacent[:MaxZones]
		}
	}
	bf.Melees = bf.Melees[:min(len(bf.Melees), MaxGroups)]
	bf.Pairs = bf.Pairs[:min(len(bf.Pairs), MaxPairs)]
	bf.Distances = bf.Distances[:min(len(bf.Distances), MaxDistances)]
	return bf
}
