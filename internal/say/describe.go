package say

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// Inform answers the questions a player asks of the table rather than of
// the rules: "describe the board" (or "look", "where"), "whose turn" (or
// "status", "waiting"), "help" (or "what can I do"). It reports false for
// anything else. Like Parse, it reads nothing but the view.
func Inform(v engine.View, text string) (string, bool) {
	ws := words(text)
	for len(ws) > 0 && leading[ws[0].text] {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return "", false
	}
	switch ws[0].text {
	case "describe", "look", "where", "board", "map", "zones":
		return Describe(v), true
	case "status", "whose", "turn", "waiting", "wait", "who", "round":
		return Status(v), true
	case "help", "what", "commands", "options":
		return Help(v), true
	}
	return "", false
}

// Status says the round, who has the floor, what waits on the viewer and
// on whom the table waits.
func Status(v engine.View) string {
	names := sayNames(v)
	var b strings.Builder
	switch v.Status {
	case engine.StatusSetup:
		b.WriteString("The encounter has not started.")
	case engine.StatusPaused:
		b.WriteString("The encounter is paused.")
	case engine.StatusFinished:
		b.WriteString("The encounter is over.")
		if v.Outcome != nil && v.Outcome.Summary != "" {
			b.WriteString(" " + v.Outcome.Summary)
		}
	default:
		fmt.Fprintf(&b, "Round %d.", v.Round)
	}
	var acting []string
	for _, id := range v.Acting {
		n := names[id]
		if slices.Contains(v.Viewer.Controls, id) {
			n += " (you)"
		}
		acting = append(acting, n)
	}
	if len(acting) > 0 {
		if v.Phase != "" {
			b.WriteString(" " + v.Phase + ":")
		}
		b.WriteString(" Acting: " + andList(acting) + ".")
	}
	if a := v.Attention; a != nil && len(a.Turn) > 0 {
		var yours []string
		for _, id := range a.Turn {
			yours = append(yours, names[id])
		}
		b.WriteString(" Your turn: " + andList(yours) + ".")
	}
	for i, d := range v.Pending {
		fmt.Fprintf(&b, " Question %d waits on you: %s (%s).", i+1, d.Prompt, orList(labels(d.Options)))
	}
	if len(v.Waiting) > 0 {
		b.WriteString(" Waiting on " + andList(v.Waiting) + ".")
	}
	return strings.TrimSpace(b.String())
}

// Help lists what the viewer may say now, one line each, as the grammar
// reads it.
func Help(v engine.View) string {
	var lines []string
	for _, r := range Grammar(v) {
		lines = appendNew(lines, r.Words)
	}
	if len(lines) == 0 {
		return "There is nothing you may do now." + waitingOn(v) + " Say “describe the board” or “status” at any time."
	}
	return "You may say: " + strings.Join(lines, "; ") + ". Also “describe the board” and “status”."
}

// Rule is one pattern of what the viewer may say now: an action, or the
// answers to a question.
type Rule struct {
	// Kind is the action's kind, or the question's.
	Kind string `json:"kind"`
	// Words are the pattern: the action's words, then each field in angle
	// brackets (a target's or a place's alone, another after its label;
	// those with a default, which may go unsaid, in square brackets); or
	// a question's answers, one of which is said.
	Words  string `json:"words"`
	Answer bool   `json:"answer,omitempty"`
}

// Grammar is what the viewer may say now, one rule per action or
// question, generated from their declarations.
func Grammar(v engine.View) []Rule {
	var out []Rule
	for _, f := range forms(v) {
		if f.decision != nil && f.option.Value != f.decision.Options[0].Value {
			continue
		}
		var b strings.Builder
		r := Rule{}
		if f.decision != nil {
			r.Kind, r.Answer = f.decision.Kind, true
			b.WriteString(strings.ToLower(orList(labels(f.decision.Options))))
		} else {
			r.Kind = f.action.Kind
			b.WriteString(strings.ToLower(f.label))
		}
		for i := range f.fields {
			fd := &f.fields[i]
			name := strings.ToLower(fieldName(fd))
			var part string
			switch {
			case fd.Type == engine.FieldSelect && (fd.Target || fd.Place):
				part = "<" + name + ">"
			case fd.Type == engine.FieldCheckbox:
				part = "[" + name + "]"
			case fd.Type == engine.FieldString:
				part = name + " \"…\""
			default:
				part = name + " <" + name + ">"
			}
			if fd.Default != "" || (fd.Type == engine.FieldSelect && !fd.Target && !fd.Place) || fd.Type == engine.FieldNumber {
				if !strings.HasPrefix(part, "[") {
					part = "[" + part + "]"
				}
			}
			b.WriteString(" " + part)
		}
		r.Words = b.String()
		out = append(out, r)
	}
	return out
}

// Describe says the battlefield as the viewer sees it: each zone or
// square with who is there and how far from the viewer's own combatant,
// the engagements, the distances between sides, and the board's notes.
func Describe(v engine.View) string {
	bd := v.Board
	if bd == nil {
		return "There is no board in this encounter."
	}
	tokens := map[string]board.Token{}
	for _, t := range bd.Tokens {
		tokens[t.ID] = t
	}
	me := ""
	for _, id := range v.Viewer.Controls {
		if _, ok := tokens[id]; ok {
			me = id
			break
		}
	}
	names := sayNames(v)
	who := func(id string) string {
		t, ok := tokens[id]
		if !ok {
			return ""
		}
		n := names[id]
		if n == "" {
			n = t.Name
		}
		if id == me {
			n += " (you)"
		}
		var state []string
		if t.Out {
			state = append(state, "out")
		} else if t.Down {
			state = append(state, "down")
		}
		if t.Health != nil && t.Health.Text != "" {
			state = append(state, t.Health.Text)
		}
		for _, c := range t.Conditions {
			state = append(state, c.Label)
		}
		if len(state) > 0 {
			n += " (" + strings.Join(state, ", ") + ")"
		}
		return n
	}
	var lines []string
	switch {
	case bd.Zones != nil:
		lines = describeZones(bd.Zones, bd.Tokens, me, who)
	case bd.Grid != nil:
		lines = describeGrid(bd.Grid, bd.Tokens, me, who)
	case bd.Pairs != nil:
		for _, e := range bd.Pairs.Engagements {
			line := who(e.A) + " and " + who(e.B) + ": " + e.Distance
			if e.Note != "" {
				line += " (" + e.Note + ")"
			}
			lines = append(lines, line+".")
		}
		if len(bd.Pairs.Apart) > 0 {
			var apart []string
			for _, id := range bd.Pairs.Apart {
				apart = append(apart, who(id))
			}
			lines = append(lines, "Engaged with no one: "+andList(apart)+".")
		}
	case bd.Ladder != nil:
		sides := map[string]string{}
		for _, s := range v.Sides {
			sides[s.ID] = s.Name
		}
		for _, g := range bd.Ladder.Gaps {
			rung := strconv.Itoa(g.Rung)
			if g.Rung >= 0 && g.Rung < len(bd.Ladder.Rungs) {
				rung = bd.Ladder.Rungs[g.Rung].Name
			}
			line := sides[g.A] + " and " + sides[g.B] + ": " + rung
			if g.Note != "" {
				line += " (" + g.Note + ")"
			}
			lines = append(lines, line+".")
		}
		for _, s := range v.Sides {
			var in []string
			for _, t := range bd.Tokens {
				if t.Side == s.ID {
					in = append(in, who(t.ID))
				}
			}
			if len(in) > 0 {
				lines = append(lines, s.Name+": "+andList(in)+".")
			}
		}
	}
	for _, n := range bd.Notes {
		lines = append(lines, n)
	}
	if len(lines) == 0 {
		return "The board shows no one."
	}
	return strings.Join(lines, " ")
}

// describeZones says each zone with who is there (and in which melee),
// nearest the viewer first, with its distance in zones.
func describeZones(z *board.ZoneMap, tokens []board.Token, me string, who func(string) string) []string {
	area := map[string]string{}
	for _, p := range z.Places {
		if !p.Off {
			area[p.Token] = p.Area
		}
	}
	// Zones apart from the viewer's, across the borders.
	far := map[string]int{}
	if a, ok := area[me]; ok {
		far[a] = 0
		queue := []string{a}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			for _, l := range z.Links {
				for _, next := range []string{l.A, l.B} {
					other := l.A
					if next == l.A {
						other = l.B
					}
					if other != cur {
						continue
					}
					if _, seen := far[next]; !seen {
						far[next] = far[cur] + 1
						queue = append(queue, next)
					}
				}
			}
		}
	}
	areas := slices.Clone(z.Areas)
	slices.SortStableFunc(areas, func(a, b board.Area) int {
		da, oka := far[a.ID]
		db, okb := far[b.ID]
		switch {
		case oka && okb:
			return da - db
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	var lines []string
	for _, a := range areas {
		line := a.Name
		if d, ok := far[a.ID]; ok {
			switch d {
			case 0:
				line += " (where you are)"
			case 1:
				line += " (next to yours)"
			default:
				line += fmt.Sprintf(" (%d zones away)", d)
			}
		}
		var in []string
		grouped := map[string]bool{}
		for _, g := range z.Groups {
			if g.Area != a.ID || len(g.Members) < 2 {
				continue
			}
			var ms []string
			for _, m := range g.Members {
				if n := who(m); n != "" {
					ms = append(ms, n)
					grouped[m] = true
				}
			}
			label := "in a melee"
			if g.Label != "" {
				label = g.Label
			}
			in = append(in, andList(ms)+" "+label)
		}
		for _, p := range z.Places {
			if p.Area == a.ID && !p.Off && !grouped[p.Token] {
				if n := who(p.Token); n != "" {
					in = append(in, n)
				}
			}
		}
		if len(in) == 0 {
			line += ": no one"
		} else {
			line += ": " + strings.Join(in, "; ")
		}
		if len(a.Features) > 0 {
			line += " — " + strings.Join(a.Features, ", ")
		}
		lines = append(lines, line+".")
	}
	var off []string
	for _, t := range tokens {
		if _, ok := area[t.ID]; !ok {
			if n := who(t.ID); n != "" {
				off = append(off, n)
			}
		}
	}
	if len(off) > 0 {
		lines = append(lines, "Off the board: "+andList(off)+".")
	}
	return lines
}

// describeGrid says where each combatant stands, nearest the viewer first,
// with the distance in the grid's scale (squares counted as the board
// counts them: diagonals as one), then who is off the map.
func describeGrid(g *board.GridMap, tokens []board.Token, me string, who func(string) string) []string {
	scale, unit := 1, "squares"
	if f := strings.Fields(g.Scale); len(f) == 2 {
		if n, err := strconv.Atoi(f[0]); err == nil {
			scale, unit = n, f[1]
		}
	}
	var mine *board.Placed
	for i := range g.Places {
		if g.Places[i].Token == me && !g.Places[i].Off {
			mine = &g.Places[i]
		}
	}
	places := slices.Clone(g.Places)
	dist := func(p board.Placed) int {
		if mine == nil {
			return 0
		}
		return max(abs(p.X-mine.X), abs(p.Y-mine.Y))
	}
	slices.SortStableFunc(places, func(a, b board.Placed) int { return dist(a) - dist(b) })
	var lines []string
	placed := map[string]bool{}
	var off []string
	for _, p := range places {
		n := who(p.Token)
		if n == "" {
			continue
		}
		placed[p.Token] = true
		if p.Off {
			off = append(off, n)
			continue
		}
		line := n + " at " + board.SquareName(p.X, p.Y)
		if mine != nil && p.Token != me {
			line += fmt.Sprintf(", %d %s from you", dist(p)*scale, unit)
		}
		lines = append(lines, line+".")
	}
	for _, t := range tokens {
		if !placed[t.ID] {
			if n := who(t.ID); n != "" {
				off = append(off, n)
			}
		}
	}
	if len(off) > 0 {
		lines = append(lines, "Off the map: "+andList(off)+".")
	}
	// The doors, as the board draws them: the walls between squares are
	// on the map, but a door changes which way is open.
	for _, e := range g.Edges {
		if e.Kind != board.EdgeDoor {
			continue
		}
		ax, ay, bx, by := e.Squares()
		state := "closed"
		if e.Open {
			state = "open"
		}
		if ax < 0 || ay < 0 {
			lines = append(lines, "A door on the edge of "+board.SquareName(bx, by)+": "+state+".")
			continue
		}
		lines = append(lines, "The door between "+board.SquareName(ax, ay)+" and "+board.SquareName(bx, by)+": "+state+".")
	}
	return lines
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// andList writes "A", "A and B", "A, B and C".
func andList(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
