package say

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// Spoken is an event as a screen reader reads it out: its log line, then
// each roll in words — who rolled for what, each die and its faces (an
// exploding die's every face, a die not kept said so), each modifier,
// the total, what it was against and the result: "Fighting (Ana): a d8
// rolled 8, aced, then 5; a d6 rolled 2, not kept; wounds minus 1; total
// 12, at least 4: success." names maps combatant ids to the names the
// viewer knows; ev is an event as the viewer may see it.
func Spoken(ev engine.Event, names map[string]string) string {
	text := strings.TrimSpace(ev.Text)
	if text == "" {
		text = strings.ReplaceAll(ev.Kind, "-", " ")
	}
	if !strings.HasSuffix(text, ".") && !strings.HasSuffix(text, "!") && !strings.HasSuffix(text, "?") {
		text += "."
	}
	parts := []string{text}
	for _, r := range ev.Rolls {
		parts = append(parts, spokenRoll(r, names))
	}
	return strings.Join(parts, " ")
}

func spokenRoll(r dice.Roll, names map[string]string) string {
	var b strings.Builder
	b.WriteString(r.Label)
	if r.Who != "" {
		if n := names[r.Who]; n != "" {
			b.WriteString(" (" + n + ")")
		}
	}
	if r.IsPick() {
		return b.String() + "."
	}
	b.WriteString(":")
	var dice []string
	for i, d := range r.Dice {
		s := "a d" + strconv.Itoa(d.Sides)
		if d.Role != "" {
			s += " (" + d.Role + ")"
		}
		for j, f := range d.Faces {
			switch {
			case j == 0:
				s += " rolled " + strconv.Itoa(f)
			default:
				s += ", aced, then " + strconv.Itoa(f)
			}
		}
		if d.Dropped || (r.Kept > 0 && len(r.Dice) > 1 && r.Kept != i+1) {
			s += ", not kept"
		}
		dice = append(dice, s)
	}
	if len(dice) > 0 {
		b.WriteString(" " + strings.Join(dice, "; "))
	}
	for _, m := range r.Mods {
		fmt.Fprintf(&b, "; %s %s%s", strings.ToLower(m.Label), signedWords(m.Value), m.Unit)
	}
	if len(r.Mods) == 0 && r.Mod != 0 {
		b.WriteString("; " + signedWords(r.Mod))
	}
	fmt.Fprintf(&b, "; total %d", r.Total)
	if v := r.Needs(); v != "" {
		v = strings.NewReplacer("(", "", ")", "", "≤", "at most", "–", " to ").Replace(v)
		b.WriteString(", " + v)
	}
	if r.Result != "" {
		b.WriteString(": " + r.Result)
	}
	return b.String() + "."
}

// signedWords says a modifier: "plus 2", "minus 1".
func signedWords(n int) string {
	if n < 0 {
		return "minus " + strconv.Itoa(-n)
	}
	return "plus " + strconv.Itoa(n)
}

// Concerns lists whom an event is about: its actor, those it involves and
// those who rolled for it — what "only what concerns me" filters on.
func Concerns(ev engine.Event) []string {
	var out []string
	add := func(id string) {
		if id != "" {
			out = appendNew(out, id)
		}
	}
	add(ev.Actor)
	for _, id := range ev.Involves {
		add(id)
	}
	for _, r := range ev.Rolls {
		add(r.Who)
	}
	return out
}
