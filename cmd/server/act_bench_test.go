package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/rules/kitskirmish"
	"github.com/fray-vtt/fray/internal/testdb"
	"github.com/fray-vtt/fray/web"
)

// BenchmarkDecisionPage times, over HTTP, a player opening the page a
// notice's link leads to — the decision page, its link checked — and the
// same player opening the encounter's table, with the same question
// waiting for them; each reports what its page weighs with what it loads
// (stylesheet and scripts) as "page-B" and "with-assets-B".
func BenchmarkDecisionPage(b *testing.B) {
	dbURL := testdb.URL(b)
	base := benchServer(b, dbURL, [2]string{"FRAY_LOGIN_REFILL", "1ns"}, [2]string{"FRAY_DICE_SEED", "3"})
	var gm, sam struct{ ID, Token string }
	benchDo(b, base, "", "POST", "/api/signup", `{"name":"gamemaster","password":"`+testPassword+`"}`, &gm)
	benchDo(b, base, "", "POST", "/api/signup", `{"name":"sam","password":"`+testPassword+`"}`, &sam)
	var created struct{ ID, Campaign string }
	benchDo(b, base, gm.Token, "POST", "/api/encounters", string(kitskirmish.Example), &created)
	var inv struct{ URL string }
	benchDo(b, base, gm.Token, "POST", "/api/campaigns/"+created.Campaign+"/invites", "", &inv)
	benchDo(b, base, sam.Token, "POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], "", nil)
	benchDo(b, base, gm.Token, "PUT", "/api/campaigns/"+created.Campaign+"/characters/ana", `{"user":"`+sam.ID+`"}`, nil)
	benchDo(b, base, gm.Token, "PUT", "/api/encounters/"+created.ID+"/deadline", `{"bank":"3h","increment":"30m","fallback":"next-turn"}`, nil)
	n := 0
	command := func(token, cmd string) {
		n++
		benchDo(b, base, token, "POST", "/api/encounters/"+created.ID+"/commands", fmt.Sprintf(`{"id":"c%d","command":%s}`, n, cmd), nil)
	}
	command(gm.Token, `{"kind":"start"}`)
	command(gm.Token, `{"kind":"end-turn","actor":"ana"}`)
	command(gm.Token, `{"kind":"end-turn","actor":"bo"}`)
	var v engine.View
	for range 30 {
		benchDo(b, base, sam.Token, "GET", "/api/encounters/"+created.ID, "", &v)
		if len(v.Pending) > 0 {
			break
		}
		command(gm.Token, `{"kind":"strike","actor":"gob","target":"ana"}`)
	}
	if len(v.Pending) == 0 {
		b.Fatal("the goblin never hit")
	}
	var log struct{ Events []engine.Event }
	benchDo(b, base, gm.Token, "GET", "/api/encounters/"+created.ID+"/events", "", &log)
	var opened int64
	for _, ev := range log.Events {
		if ev.Kind == engine.KindDecisionOpened {
			opened = ev.Seq
		}
	}
	token := serverSigner(b, dbURL).Sign(links.Link{User: sam.ID, Encounter: created.ID, Decision: v.Pending[0].ID, Seq: opened, Expires: time.Now().Add(time.Hour).Unix()})
	for _, page := range []struct {
		name, path string
		static     []string
	}{
		{"decision page", "/act/" + token, []string{"act.css", "clock.js"}},
		{"table", "/encounters/" + created.ID, []string{"app.css", "app.js", "clock.js"}},
	} {
		b.Run(page.name, func(b *testing.B) {
			var size int
			for b.Loop() {
				size = getHTML(b, base, sam.Token, page.path)
			}
			all := size
			for _, name := range page.static {
				data, err := web.Static.ReadFile("static/" + name)
				if err != nil {
					b.Fatal(err)
				}
				all += len(data)
			}
			b.ReportMetric(float64(size), "page-B")
			b.ReportMetric(float64(all), "with-assets-B")
		})
	}
}

// getHTML gets a page as a browser would (Accept: text/html) and returns
// its size.
func getHTML(b *testing.B, base, token, path string) int {
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("%s: %d %s", path, resp.StatusCode, data)
	}
	return len(data)
}
