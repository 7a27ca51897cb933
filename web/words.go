package web

import (
	"strings"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/say"
)

// sayURL is the command line's form action: the page's act URL with /say
// for /act, its query (a GM's ?as=) kept.
func sayURL(act string) templ.SafeURL {
	path, query, _ := strings.Cut(act, "?")
	out := strings.TrimSuffix(path, "/act") + "/say"
	if query != "" {
		out += "?" + query
	}
	return templ.SafeURL(out)
}

// spokenAttrs are a log entry's words for the announcements: the event
// read out (say.Spoken) and whom it concerns.
func spokenAttrs(ev engine.Event, names map[string]string) attrs {
	return attrs{"data-spoken", say.Spoken(ev, names), "data-concerns", strings.Join(say.Concerns(ev), " ")}
}

// chatSpokenAttrs are a chat message's: who said what to whom.
func chatSpokenAttrs(ev engine.Event, names map[string]string) attrs {
	c := chatOf(ev)
	text := c.Text
	if ev.Kind == engine.KindFreeRolled {
		text = freeRollText(c)
	}
	line := c.From
	if c.To != "" {
		line += " (" + whisperLabel(c, names) + ")"
	}
	ev.Text = line + ": " + text
	return spokenAttrs(ev, names)
}
