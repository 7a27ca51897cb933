package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/notify/notifytest"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/rules/kitskirmish"
	"github.com/fray-vtt/fray/internal/testdb"
)

// actLinkPattern finds a notice's link in a text.
var actLinkPattern = regexp.MustCompile(`/act/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)`)

// getPage requests path on srv as u — a browser's page (Accept: text/html),
// a form posted when form is not nil — without following redirects, and
// returns the status, the body and where it redirects.
func getPage(t *testing.T, srv *testServer, u *apiUser, method, path string, form url.Values) (int, string, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, srv.URL+path, body)
	req.Header.Set("Accept", "text/html")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Authorization", "Bearer "+u.Token)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw), res.Header.Get("Location")
}

// TestNoticeLinksActOnce: a player who chose push and e-mail, in a campaign
// with a JSON webhook, is asked to parry (kit-skirmish, which answers with
// two buttons). The push message — decrypted by the test's push service —
// carries the answers as buttons and the signed link, which the
// notification's button posts to: the parry is answered and the goblin's
// turn goes on; the link then refuses a second use and another player.
// The next question's e-mail (from an in-process SMTP server) carries its
// link: the decision page (no board, the clock's time left) answers it by
// its form. The next one's webhook body carries its link; the GM undoes
// the blow and strikes again, asking the same question anew: the old link
// is refused as out of date, and the new notice's link answers it. A link
// to a question its player answered on the table is refused. A turn
// notice's link opens the player's table.
func TestNoticeLinksActOnce(t *testing.T) {
	smtp := notifytest.NewSMTPServer(t)
	hooks := newHookReceiver(t)
	addr := freeAddr(t)
	srv := startClocked(t, testdb.URL(t), map[string]string{
		"FRAY_ADDR": addr, "FRAY_PUBLIC_URL": "http://" + addr, "FRAY_DICE_SEED": "3", "FRAY_LOGIN_REFILL": "1ms",
		"FRAY_NOTIFY_ALLOW_PRIVATE": "true", "FRAY_SMTP_URL": "smtp://" + smtp.Addr(), "FRAY_MAIL_FROM": "fray@example.com",
	})
	gm, sam, kim := srv.signup("gamemaster"), srv.signup("sam"), srv.signup("kim")
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", kitskirmish.Example, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	id := created.ID
	srv.join(gm, created.Campaign, sam, "ana")
	srv.join(gm, created.Campaign, kim, "bo")
	var hook struct{ Secret string }
	if code := srv.call(gm, "POST", "/api/campaigns/"+created.Campaign+"/webhooks", map[string]string{"url": hooks.srv.URL + "/fray", "format": "json"}, &hook); code != http.StatusCreated {
		t.Fatalf("webhook: %d", code)
	}
	phone := notifytest.NewBrowser(t, http.StatusCreated)
	p256dh, auth := phone.Keys()
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"PUT", "/api/notifications/email", map[string]string{"email": "sam@example.com"}},
		{"POST", "/api/push/subscriptions", map[string]any{"endpoint": phone.Srv.URL + "/sam", "keys": map[string]string{"p256dh": p256dh, "auth": auth}}},
		{"PUT", "/api/campaigns/" + created.Campaign + "/notifications", map[string]bool{"push": true, "email": true}},
	} {
		if code := srv.call(sam, c.method, c.path, c.body, nil); code/100 != 2 {
			t.Fatalf("%s %s: %d", c.method, c.path, code)
		}
	}
	if code := srv.call(gm, "PUT", "/api/encounters/"+id+"/deadline", map[string]any{"bank": "30m", "increment": "5m", "fallback": "next-turn"}, nil); code != http.StatusOK {
		t.Fatalf("clock: %d", code)
	}
	n := 0
	send := func(u *apiUser, cmd map[string]any) int {
		t.Helper()
		n++
		var e struct{ Code, Message string }
		code := srv.call(u, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": fmt.Sprint("c", n), "command": cmd}, &e)
		srv.tick()
		return code
	}
	send(gm, map[string]any{"kind": engine.KindStart})
	send(sam, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "ana"})
	send(kim, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "bo"})

	// ask strikes Ana with the goblin until the blow lands and Ana is asked
	// to parry, and returns the question.
	ask := func() engine.Decision {
		t.Helper()
		send(gm, map[string]any{"kind": kitskirmish.CmdHeal, "combatant": "ana"}) // so the blow never takes her out (refused when she is unhurt)
		return untilAnaIsAsked(t, func() engine.View { return srv.viewAs(gm, id) }, func(u *apiUser, cmd map[string]any) {
			if code := send(u, cmd); code != http.StatusOK {
				t.Fatalf("%v: %d", cmd, code)
			}
		}, gm, sam, kim)
	}
	// await returns the first text find finds a link in, about decision d.
	await := func(what string, find func() []string) string {
		t.Helper()
		deadline := patience.Deadline()
		for time.Now().Before(deadline) {
			for _, text := range find() {
				if m := actLinkPattern.FindStringSubmatch(text); m != nil {
					return m[1]
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no %s with a link arrived", what)
		return ""
	}
	seen := map[string]bool{}
	fresh := func(texts []string) []string {
		var out []string
		for _, s := range texts {
			if m := actLinkPattern.FindStringSubmatch(s); m != nil && !seen[m[1]] {
				out = append(out, s)
			}
		}
		return out
	}
	pushes := func() []string {
		var out []string
		for _, p := range phone.Payloads() {
			if p.Type == "decision" && len(p.Actions) == 2 {
				out = append(out, p.Act)
			}
		}
		return fresh(out)
	}
	mails := func() []string {
		_, raw := smtp.Messages()
		var out []string
		for _, m := range raw {
			if strings.Contains(m, "A decision waits for you") {
				out = append(out, strings.NewReplacer("=\r\n", "", "=\n", "").Replace(m))
			}
		}
		return fresh(out)
	}
	webhooks := func() []string {
		got, _ := hooks.requests()
		var out []string
		for _, r := range got {
			var m notify.Message
			if json.Unmarshal(r.body, &m) == nil && m.Type == "decision" && m.Act != nil {
				if !strings.HasPrefix(m.Act.URL, "http://"+addr+"/act/") {
					t.Errorf("a webhook's link is %q", m.Act.URL)
				}
				out = append(out, m.Act.URL)
			}
		}
		return fresh(out)
	}
	refused := func(u *apiUser, token string, code int, says string) {
		t.Helper()
		var e struct{ Code, Message string }
		got := srv.call(u, "POST", "/api/act/"+token, map[string]string{"choice": "take"}, &e)
		if got != code || !strings.Contains(e.Message, says) {
			t.Fatalf("%s following the link: %d %+v, want %d %q", u.Name, got, e, code, says)
		}
		if status, body, _ := getPage(t, srv.testServer, u, "GET", "/act/"+token, nil); status != code || !strings.Contains(body, `id="act-problem"`) {
			t.Fatalf("%s opening the link: %d, want %d and why", u.Name, status, code)
		}
	}

	// 1. The push notification's button.
	d := ask()
	token := await("push message", pushes)
	seen[token] = true
	for _, p := range phone.Payloads() {
		if p.Act == "/act/"+token && (p.Actions[0].Action != "parry" || p.Actions[1].Action != "take") {
			t.Fatalf("the buttons: %+v", p.Actions)
		}
	}
	refused(kim, token, http.StatusForbidden, "another account")
	before := srv.viewAs(gm, id).Seq
	var ok struct{ Answered string }
	if code := srv.call(sam, "POST", "/api/act/"+token, map[string]string{"choice": "take"}, &ok); code != http.StatusOK || !strings.Contains(ok.Answered, "Take the blow") {
		t.Fatalf("the button: %d %+v", code, ok)
	}
	if v := srv.viewAs(gm, id); v.Seq == before || len(v.Pending) != 0 || v.Current != "gob" {
		t.Fatalf("after the answer: seq %d (was %d), %d pending, %s acts", v.Seq, before, len(v.Pending), v.Current)
	}
	refused(sam, token, http.StatusConflict, "already used")
	refused(kim, token, http.StatusForbidden, "another account")

	// 2. The e-mail's link: the decision page and its form.
	d = ask()
	token = await("e-mail", mails)
	seen[token] = true
	status, body, _ := getPage(t, srv.testServer, sam, "GET", "/act/"+token, nil)
	if status != http.StatusOK || !strings.Contains(body, d.Prompt) || !strings.Contains(body, `id="clock"`) ||
		!strings.Contains(body, "left before your standing orders") || strings.Contains(body, "battlefield") || len(body) > 8000 {
		t.Fatalf("the decision page: %d, %d bytes:\n%s", status, len(body), body)
	}
	if status, body, _ = getPage(t, srv.testServer, sam, "POST", "/act/"+token, url.Values{"choice": {"parry"}}); status != http.StatusOK || !strings.Contains(body, `id="act-done"`) {
		t.Fatalf("the page's answer: %d\n%s", status, body)
	}
	if v := srv.viewAs(gm, id); len(v.Pending) != 0 {
		t.Fatalf("after the page's answer: %+v", v.Pending)
	}
	refused(sam, token, http.StatusConflict, "already used")

	// 3. The webhook's link, out of date once the GM undid the blow and
	// struck again: the same question, asked anew.
	d = ask()
	token = await("webhook", webhooks)
	seen[token] = true
	if code := send(gm, map[string]any{"kind": engine.KindRewind, "steps": 1}); code != http.StatusOK {
		t.Fatalf("rewind: %d", code)
	}
	refused(sam, token, http.StatusConflict, "out of date")
	again := ask()
	if again.ID != d.ID {
		t.Logf("asked again as %s (was %s)", again.ID, d.ID)
	}
	refused(sam, token, http.StatusConflict, "out of date")
	fresh2 := await("webhook for the question asked anew", webhooks)
	seen[fresh2] = true
	if code := srv.call(sam, "POST", "/api/act/"+fresh2, map[string]string{"choice": "take"}, &ok); code != http.StatusOK {
		t.Fatalf("the new link: %d", code)
	}

	// 4. A link whose decision its player answered on the table.
	d = ask()
	token = await("push message", pushes)
	seen[token] = true
	if code := send(sam, map[string]any{"kind": engine.KindAnswer, "decision": d.ID, "choice": "take"}); code != http.StatusOK {
		t.Fatalf("answer on the table: %d", code)
	}
	refused(sam, token, http.StatusUnprocessableEntity, "no longer waits")

	// A turn's link opens the table: the newest turn's notice (the goblin's
	// turns went round the table before).
	turns := func() []string {
		var out []string
		for _, p := range phone.Payloads() {
			if p.Type == "turn" && p.Act != "" {
				out = append(out, p.Act)
			}
		}
		return out
	}
	earlier := len(turns())
	send(gm, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "gob"})
	send(gm, map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": "sneak"})
	turn := await("turn notice", func() []string { return turns()[min(earlier, len(turns())):] })
	if status, _, loc := getPage(t, srv.testServer, sam, "GET", "/act/"+turn, nil); status != http.StatusSeeOther || !strings.HasPrefix(loc, "/encounters/"+id) {
		t.Fatalf("a turn's link: %d to %q", status, loc)
	}
}
