package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestNotifications(t *testing.T) {
	w := newWorld(t, nil)
	body := text(t, w.do(t, req{method: "GET", path: "/account/notifications", as: "pl", html: true}))
	for _, want := range []string{`data-push-key="BPubKey"`, `/static/push.js`, `id="email-form"`, `action="/account/notifications/camp"`, `checked id="push-camp"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	res := w.do(t, req{method: "POST", path: "/account/notifications/camp", form: url.Values{"email": {"on"}}, as: "pl"})
	if res.StatusCode != 303 || !w.calls.has("SetChannels pl camp push=false email=true") {
		t.Fatalf("channels: %d %v", res.StatusCode, w.calls.log)
	}
	res = w.do(t, req{method: "POST", path: "/account/notifications/email", form: url.Values{"email": {"not an address"}}, as: "pl"})
	if res.StatusCode != 303 || !strings.Contains(flashOf(t, res, flashError), "not an e-mail address") {
		t.Fatalf("a bad address: %d %q", res.StatusCode, flashOf(t, res, flashError))
	}

	res = w.do(t, req{method: "GET", path: "/api/notifications", as: "pl"})
	var got noticeSettingsJSON
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || !got.EmailOffered || got.PushKey != "BPubKey" || len(got.Campaigns) != 1 || !got.Campaigns[0].Push {
		t.Fatalf("API settings: %+v %v", got, err)
	}
	for path, bad := range map[string]string{
		"/api/notifications/email":          `{"email":"nope"}`,
		"/api/campaigns/camp/notifications": `{"push":"yes"}`,
	} {
		if res := w.do(t, req{method: "PUT", path: path, json: bad, as: "pl"}); res.StatusCode != 400 {
			t.Errorf("PUT %s %s: %d", path, bad, res.StatusCode)
		}
	}
	if res := w.do(t, req{method: "POST", path: "/api/push/subscriptions", json: `{"endpoint":"https://push.example.com/x","keys":{"p256dh":"k","auth":"a"},"extra":1}`, as: "pl"}); res.StatusCode != 400 {
		t.Fatalf("a subscription with an unknown field: %d", res.StatusCode)
	}
}

func TestServiceWorker(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "GET", path: "/sw.js"})
	body := text(t, res)
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Type"), "javascript") || !strings.Contains(body, "showNotification") {
		t.Fatalf("/sw.js: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
}
