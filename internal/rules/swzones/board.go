package swzones

import (
	"maps"
	"slices"
	"strconv"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// The board: sw-zones draws its battlefield under the zones model of
// package board — zones with their cover, borders, melees as groups — and
// each fighter as a token with its wounds, conditions and, for those who
// may read it, its sheet. It is the ruleset's only projection: the page,
// the prep editor and bots read nothing else.

// Properties of a zone in the setup document ("props").
const (
	PropCover      = "cover"
	PropCoverArmor = "coverArmor"
)

// editor is the battlefield editor: zones with a cover level and the
// cover's Armour.
// A zone spans 6 squares of a battlemap: a range of 6" (a square is an
// inch) is one zone (see ranges.go).
var editor = board.Editor{Model: board.Zones, ZoneSpan: 6, Area: []board.Field{
	{Name: PropCover, Label: "Cover", Type: board.FieldSelect, Default: "", Options: []board.Option{
		{Value: "", Label: "None"}, {Value: "light", Label: "Light"}, {Value: "medium", Label: "Medium"},
		{Value: "heavy", Label: "Heavy"}, {Value: "near-total", Label: "Near-total"},
	}, Help: "Penalises shots at fighters in the zone (SWADE −2/−4/−6/−8)."},
	{Name: PropCoverArmor, Label: "Cover Armour", Type: board.FieldInt, Min: 0, Max: 30,
		Help: "A shot that misses only because of the cover hits it, and goes through when its damage beats this Armour. 0: it stops every shot."},
}}

// coverShade grades cover for the page's fill.
var coverShade = map[string]int{"light": 1, "medium": 2, "heavy": 3, "near-total": 3}

// zoneFeatures are the features of a zone with a cover level (or none)
// and a cover Armour, made once for every level and Armour a zone may have
// rather than once per zone and view. Views share them: nothing may change
// an area's Features in place.
var zoneFeatures = func() map[zoneCover][]string {
	out := map[zoneCover][]string{}
	for _, c := range append([]string{""}, slices.Collect(maps.Keys(coverShade))...) {
		for armor := 0; armor <= maxCoverArmor; armor++ {
			out[zoneCover{c, armor}] = slices.Clip(makeZoneFeatures(c, armor))
		}
	}
	return out
}()

type zoneCover struct {
	cover string
	armor int
}

// maxCoverArmor is the highest cover Armour the editor and the GM's
// set-cover command take.
const maxCoverArmor = 30

func makeZoneFeatures(cover string, armor int) []string {
	var out []string
	if cover != "" {
		out = append(out, capitalize(coverName(cover))+" cover")
	}
	if armor > 0 {
		out = append(out, "Cover Armour "+strconv.Itoa(armor))
	}
	return out
}

// project is sw-zones' one projection, what viewer v sees: the zones
// with their cover, borders and melees, and every fighter v may see. A
// hidden fighter appears nowhere for a viewer who may not see it; the
// sheet and the numbers that give the stat block away are only for the
// GM and the fighter's own player.
func project(st *State, v engine.Viewer) *board.Board {
	visible := func(id string) bool { return engine.Visible(st, v, id) }
	zm := &board.ZoneMap{Areas: make([]board.Area, 0, len(st.Zones)), Links: make([]board.Link, 0, len(st.Zones)),
		Groups: make([]board.Group, 0, len(st.Melees)), Places: make([]board.Placed, 0, len(st.Fighters))}
	for i, z := range st.Zones {
		a := board.Area{ID: z.ID, Name: z.Name, Description: z.Description, Shade: coverShade[z.Cover]}
		features, ok := zoneFeatures[zoneCover{z.Cover, z.CoverArmor}]
		if !ok {
			features = makeZoneFeatures(z.Cover, z.CoverArmor)
		}
		a.Features = features
		if z.X != nil && z.Y != nil {
			a.X, a.Y, a.W, a.H = z.X, z.Y, z.W, z.H
		}
		zm.Areas = append(zm.Areas, a)
		for _, n := range z.Adjacent {
			if j := slices.IndexFunc(st.Zones, func(o Zone) bool { return o.ID == n }); j > i {
				zm.Links = append(zm.Links, board.Link{A: z.ID, B: n})
			}
		}
	}
	for i, m := range st.Melees {
		g := board.Group{ID: m.ID, Area: m.Zone, Label: "Melee " + strconv.Itoa(i+1)}
		for _, id := range m.Members {
			if visible(id) {
				g.Members = append(g.Members, id)
			}
		}
		if len(g.Members) > 0 {
			zm.Groups = append(zm.Groups, g)
		}
	}
	tokens := engine.Tokens(st, v)
	b := &board.Board{Model: board.Zones, Zones: zm, Tokens: make([]board.Token, 0, len(tokens)), Facts: make([]board.Stat, 0, 3)}
	withStats := len(v.Controls) // the tokens whose numbers v reads
	if v.GM {
		withStats = len(tokens)
	}
	room := newTokenRoom(len(tokens), withStats)
	for _, t := range tokens {
		f := st.Fighters[t.ID]
		if f == nil {
			continue
		}
		zm.Places = append(zm.Places, board.Placed{Token: t.ID, Area: f.Zone, Group: f.Melee})
		b.Tokens = append(b.Tokens, token(st, v, t, f, room))
	}
	b.Facts = append(b.Facts, board.Stat{Label: "Deck", Value: strconv.Itoa(len(st.Deck.Remaining)) + " cards left"})
	if v.GM {
		b.Facts = append(b.Facts, board.Stat{Label: "GM Bennies", Value: strconv.Itoa(st.GMBennies)})
	}
	if n := len(st.Interrupts); n > 0 && visible(st.Interrupts[n-1].Combatant) {
		ir := st.Interrupts[n-1]
		text := st.NameOf(ir.Combatant) + " interrupts"
		if len(ir.Acting) > 0 && visible(ir.Acting[0]) {
			text += " " + st.NameOf(ir.Acting[0])
		}
		b.Facts = append(b.Facts, board.Stat{Label: "Interrupting", Value: text})
	}
	return b
}

// Room a token's lists start with; more takes an array of its own.
const (
	tokenConditions = 2
	tokenStats      = 6
)

// tokenRoom holds the arrays of a board's tokens, made once per board
// rather than a few per token: each token takes its own part, its
// capacity capped so that growing it never spills into the next one's.
type tokenRoom struct {
	conditions []board.Condition
	stats      []board.Stat
	meters     []board.Meter
}

// newTokenRoom makes room for n tokens, withStats of them with numbers.
func newTokenRoom(n, withStats int) *tokenRoom {
	return &tokenRoom{conditions: make([]board.Condition, n*tokenConditions), stats: make([]board.Stat, min(n, withStats)*tokenStats),
		meters: make([]board.Meter, 0, n)}
}

func (r *tokenRoom) takeConditions() []board.Condition { return take(&r.conditions, tokenConditions) }

func (r *tokenRoom) takeStats() []board.Stat { return take(&r.stats, tokenStats) }

// take returns an empty slice of capacity n cut from the front of room, or
// a new one once room is used up.
func take[T any](room *[]T, n int) []T {
	if len(*room) < n {
		return make([]T, 0, n)
	}
	out := (*room)[:0:n]
	*room = (*room)[n:]
	return out
}

func (r *tokenRoom) meter(m board.Meter) *board.Meter {
	if len(r.meters) == cap(r.meters) {
		return &m
	}
	r.meters = append(r.meters, m)
	return &r.meters[len(r.meters)-1]
}

// token adds what sw-zones knows of a fighter to the engine's token.
func token(st *State, v engine.Viewer, t board.Token, f *Fighter, room *tokenRoom) board.Token {
	visible := func(id string) bool { return id != "" && engine.Visible(st, v, id) }
	t.Initiative = f.Card
	if f.WildCard {
		t.Tags = append(t.Tags, "Wild Card")
	}
	if mw := f.MaxWounds(); mw > 0 {
		t.Health = room.meter(board.Meter{Label: "Wounds", Value: f.Wounds, Max: mw, Text: "Wounds " + strconv.Itoa(f.Wounds) + "/" + strconv.Itoa(mw)})
	} else if f.Wounds > 0 {
		t.Health = room.meter(board.Meter{Label: "Wounds", Value: f.Wounds, Max: 1, Text: "Wounded"})
	}
	t.Conditions = room.takeConditions()
	cond := func(id, label, icon, text string) {
		t.Conditions = append(t.Conditions, board.Condition{ID: id, Label: label, Icon: icons[icon], Text: text})
	}
	if f.Shaken {
		cond("shaken", "Shaken", "shaken", "Can only move until recovered (Spirit at the start of the turn, or a Benny).")
	}
	switch {
	case f.Status != "":
		icon := "dying"
		switch f.Status {
		case "stable":
			icon = "unconscious"
		case "bleeding out":
			icon = "bleeding"
		}
		cond("status", capitalize(f.Status), icon, "Incapacitated: "+f.Status+".")
	case f.Incapacitated:
		cond("incapacitated", "Incapacitated", "unconscious", "Out of the fight.")
	}
	if f.Prone {
		cond("prone", "Prone", "prone", "−2 Fighting and Parry; Medium cover against shots from other zones.")
	}
	if f.Hold {
		cond("hold", "On Hold", "hold", "May interrupt anyone's turn.")
	}
	if f.Ran {
		cond("running", "Running", "running", "Ran this turn: a penalty on other actions.")
	}
	if g := f.Grip; g != nil {
		text := capitalize(g.Level)
		if visible(g.By) {
			text += " by " + st.NameOf(g.By)
		}
		if g.Garrotte {
			text += " (garrotte)"
		}
		cond("grip", capitalize(g.Level), "grappled", text+".")
	}
	if visible(f.Drop) {
		cond("drop", "The Drop", "drop", "Has the Drop on "+st.NameOf(f.Drop)+": +4 to attack and damage.")
	}
	if !v.GM && !v.CanCommand(f.ID) {
		return t
	}
	t.Stats = append(room.takeStats(), t.Stats...)
	t.Stats = append(t.Stats,
		board.Stat{Label: "Parry", Value: strconv.Itoa(f.Parry() + f.Defend)},
		board.Stat{Label: "Toughness", Value: toughnessText(f)},
		board.Stat{Label: "Movement", Value: strconv.Itoa(f.MP)})
	if f.Bennies > 0 {
		t.Stats = append(t.Stats, board.Stat{Label: "Bennies", Value: strconv.Itoa(f.Bennies)})
	}
	if f.Actions > 0 {
		t.Stats = append(t.Stats, board.Stat{Label: "Actions taken", Value: strconv.Itoa(f.Actions)})
	}
	if f.Ran {
		if p := min(f.RunPenalty+f.Refund, 0); p != 0 {
			t.Stats = append(t.Stats, board.Stat{Label: "Running penalty", Value: strconv.Itoa(p)})
		}
	}
	t.Sheet = f.card().sheet
	return t
}

func toughnessText(f *Fighter) string {
	s := strconv.Itoa(f.Toughness())
	if f.Armor != 0 {
		s += " (" + strconv.Itoa(f.Armor) + ")"
	}
	return s
}
