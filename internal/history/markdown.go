package history

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
)

// Markdown renders an export as a Markdown document: a summary, the
// sides and combatants, then every event by round with its dice.
func Markdown(doc Export) string {
	var b strings.Builder
	names := map[string]string{}
	for _, c := range doc.Combatants {
		names[c.ID] = c.Name
	}
	sideName := func(id string) string {
		for _, s := range doc.Sides {
			if s.ID == id {
				return s.Name
			}
		}
		return id
	}
	enc := doc.Encounter
	fmt.Fprintf(&b, "# %s\n\n", mdEscape(enc.Name))
	fmt.Fprintf(&b, "- **Ruleset:** %s\n", mdEscape(enc.Ruleset))
	fmt.Fprintf(&b, "- **Status:** %s\n", mdEscape(string(enc.Status)))
	if o := enc.Outcome; o != nil {
		text := "no winner"
		if o.Winner != "" {
			text = sideName(o.Winner) + " win"
		}
		if o.Summary != "" {
			text += " — " + o.Summary
		}
		fmt.Fprintf(&b, "- **Outcome:** %s\n", mdEscape(text))
	}
	fmt.Fprintf(&b, "- **Rounds:** %d · **events:** %d\n", enc.Round, enc.Seq)
	fmt.Fprintf(&b, "- **Created:** %s\n", enc.Created.Format("2006-01-02 15:04 MST"))
	if doc.Viewer.GM {
		b.WriteString("- **Report for:** the GM (everything, secret events included)\n")
	} else {
		var who []string
		for _, id := range doc.Viewer.Controls {
			who = append(who, names[id])
		}
		if len(who) == 0 {
			who = []string{"a spectator"}
		}
		fmt.Fprintf(&b, "- **Report for:** %s (what they may see)\n", mdEscape(strings.Join(who, ", ")))
	}
	fmt.Fprintf(&b, "- **Exported:** %s\n", doc.Exported.Format("2006-01-02 15:04 MST"))

	b.WriteString("\n## Sides\n\n")
	for _, s := range doc.Sides {
		var members []string
		for _, c := range doc.Combatants {
			if c.Side != s.ID {
				continue
			}
			m := c.Name
			var notes []string
			if c.PC {
				notes = append(notes, "PC")
			}
			if c.Hidden {
				notes = append(notes, "hidden")
			}
			if c.Out {
				notes = append(notes, "out")
			}
			if len(notes) > 0 {
				m += " (" + strings.Join(notes, ", ") + ")"
			}
			members = append(members, mdEscape(m))
		}
		if len(members) == 0 {
			members = []string{"—"}
		}
		fmt.Fprintf(&b, "- **%s:** %s\n", mdEscape(s.Name), strings.Join(members, ", "))
	}

	b.WriteString("\n## Log\n")
	if len(doc.Events) == 0 {
		b.WriteString("\nNothing has happened yet.\n")
	}
	undone := map[int64]bool{}
	for _, s := range doc.Undone {
		undone[s] = true
	}
	round := -1
	for _, ev := range doc.Events {
		if ev.Round != round {
			round = ev.Round
			if round == 0 {
				b.WriteString("\n### Before the first round\n\n")
			} else {
				fmt.Fprintf(&b, "\n### Round %d\n\n", round)
			}
		}
		text := ev.Text
		if text == "" {
			text = ev.Kind
		}
		line := fmt.Sprintf("`#%d` %s", ev.Seq, mdEscape(text))
		if ev.Secret {
			line += " *(secret)*"
		}
		if undone[ev.Seq] {
			line = "~~" + line + "~~ *(undone)*"
		}
		fmt.Fprintf(&b, "- %s\n", line)
		for _, r := range ev.Rolls {
			fmt.Fprintf(&b, "  - %s\n", mdRoll(r, names))
		}
	}
	return b.String()
}

// mdRoll writes a roll like "Fighting (Brak): d10 10+4 (aced), d6 3 (not
// kept) +1 = **15** (needs 4) — success", and a pick (a dealt card) by its
// label alone, "Deal: K♠ (Brak)", as the page does.
func mdRoll(r dice.Roll, names map[string]string) string {
	var b strings.Builder
	b.WriteString(mdEscape(r.Label))
	if r.Who != "" {
		who := r.Who
		if n, ok := names[who]; ok {
			who = n
		}
		b.WriteString(" (" + mdEscape(who) + ")")
	}
	if r.IsPick() {
		return b.String() // a dealt card, not dice to add up: its label says it ("Deal: K♠")
	}
	b.WriteString(":")
	for i, d := range r.Dice {
		if i > 0 {
			b.WriteString(",")
		}
		faces := make([]string, len(d.Faces))
		for j, f := range d.Faces {
			faces[j] = strconv.Itoa(f)
		}
		fmt.Fprintf(&b, " d%d %s", d.Sides, strings.Join(faces, "+"))
		if d.Aced() {
			b.WriteString(" (aced)")
		}
		if r.Kept > 0 && len(r.Dice) > 1 {
			if r.Kept == i+1 {
				b.WriteString(" (kept)")
			} else {
				b.WriteString(" (not kept)")
			}
		}
	}
	if r.Mod > 0 {
		fmt.Fprintf(&b, " +%d", r.Mod)
	} else if r.Mod < 0 {
		fmt.Fprintf(&b, " −%d", -r.Mod)
	}
	fmt.Fprintf(&b, " = **%d**", r.Total)
	if n := r.Needs(); n != "" {
		b.WriteString(" " + n)
	}
	if r.Result != "" {
		b.WriteString(" — " + mdEscape(r.Result))
	}
	return b.String()
}

// mdEscape keeps text from being read as Markdown markup.
func mdEscape(s string) string {
	s = strings.Join(strings.Fields(s), " ") // no line breaks inside a list item
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>#|~!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
