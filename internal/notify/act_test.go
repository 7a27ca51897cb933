package notify_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/notify"
)

// A Discord message carries its player's link after the text, however
// long the text (cut to make room, within Discord's 2,000 characters);
// the JSON body carries it as "act"; a notice without one carries none.
func TestWebhookBodiesCarryTheLink(t *testing.T) {
	link := "https://fray.example.com/act/eyJ1IjoidSJ9.c2ln"
	for _, text := range []string{"Soak?", strings.Repeat("a long line ", 400)} {
		m := notify.Message{Title: "Ambush", Text: text, Act: &notify.Act{URL: link}}
		raw, err := notify.DiscordBody(m)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Content string }
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(body.Content, "[Act now](<"+link+">)") || utf8.RuneCountInString(body.Content) > 2000 {
			t.Fatalf("discord content (%d characters) ends %q", utf8.RuneCountInString(body.Content), body.Content[max(0, len(body.Content)-80):])
		}
		raw, _ = notify.JSONBody(m)
		if !strings.Contains(string(raw), `"act":{"url":"`+link+`"}`) {
			t.Fatalf("json body: %s", raw)
		}
	}
	raw, _ := notify.DiscordBody(notify.Message{Title: "Ambush", Text: "The encounter begins."})
	if strings.Contains(string(raw), "Act now") {
		t.Fatalf("a notice without a link: %s", raw)
	}
}
