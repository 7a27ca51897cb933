package notify_test

import (
	"context"
	"io"
	"mime/quotedprintable"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/notify/notifytest"
	"github.com/fray-vtt/fray/internal/patience"
)

// A player who chose push and e-mail for the campaign gets their turns and
// their decisions, and the encounter's start and end, in their browser —
// encrypted for it alone, from a server that signs with its VAPID key — and
// by e-mail; a browser the push service says is gone is forgotten.
func TestPushAndEmailReachThePlayer(t *testing.T) {
	tb := newTable(t, "sw-zones-")
	ctx := context.Background()
	smtp := notifytest.NewSMTPServer(t)
	mailer, err := notify.NewSMTP("smtp://"+smtp.Addr(), "Fray <fray@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	pub, priv, err := notify.GenerateVAPIDKeys()
	if err != nil {
		t.Fatal(err)
	}
	svc := notify.NewService(tb.db, notify.ServiceConfig{Guard: notify.Guard{AllowPrivate: true}, EmailOffered: true, PushKey: pub})
	phone, gone := notifytest.NewBrowser(t, http.StatusCreated), notifytest.NewBrowser(t, http.StatusGone)
	for _, b := range []*notifytest.Browser{phone, gone} {
		p256dh, auth := b.Keys()
		if err := svc.Subscribe(ctx, tb.sam.ID, b.Srv.URL+"/push/abc", p256dh, auth); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.SetChannels(ctx, tb.sam.ID, tb.campaign, true, true); err == nil {
		t.Fatal("e-mail chosen without an address")
	}
	if err := svc.SetEmail(ctx, tb.sam.ID, "not an address"); err == nil {
		t.Fatal("a bad address was kept")
	}
	if err := svc.SetEmail(ctx, tb.sam.ID, "sam@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetChannels(ctx, tb.sam.ID, tb.campaign, true, true); err != nil {
		t.Fatal(err)
	}
	tb.playSome(t, 60, 3)
	want := tb.mine(t)
	if len(want) < 2 {
		t.Fatalf("only %d notices for the player", len(want))
	}
	w := notify.NewWorker(notify.WorkerConfig{Store: tb.db, Rulesets: tb.rules, Guard: notify.Guard{AllowPrivate: true},
		Mailer: mailer, Push: &notify.Pusher{PublicKey: pub, PrivateKey: priv, Contact: "mailto:ops@example.com"},
		PublicURL: "https://fray.example.com"})
	deadline := patience.Deadline()
	for {
		w.Step(ctx)
		msgs, _ := smtp.Messages()
		if len(phone.Payloads()) >= len(want) && len(msgs) >= len(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("push %d, e-mail %d, want %d", len(phone.Payloads()), len(msgs), len(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
	seen := map[int64]bool{}
	for _, p := range phone.Payloads() {
		if want[p.Seq] == "" || string(want[p.Seq]) != p.Type || seen[p.Seq] {
			t.Fatalf("push %+v; want %v", p, want)
		}
		seen[p.Seq] = true
		if !strings.Contains(p.Title, tb.enc.Name) || p.Body == "" || p.URL != "/encounters/"+tb.enc.ID {
			t.Fatalf("push payload %+v", p)
		}
	}
	msgs, _ := smtp.Messages()
	for _, m := range msgs {
		if m.Header.Get("To") != "<sam@example.com>" && m.Header.Get("To") != "sam@example.com" || !strings.HasPrefix(m.Header.Get("Subject"), "Fray: ") ||
			!strings.HasSuffix(m.Header.Get("Message-Id"), "@fray>") {
			t.Fatalf("e-mail headers %v", m.Header)
		}
		var r io.Reader = m.Body
		if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			r = quotedprintable.NewReader(r)
		}
		body, _ := io.ReadAll(r)
		if !strings.Contains(string(body), "https://fray.example.com/encounters/"+tb.enc.ID) {
			t.Fatalf("e-mail body %s", body)
		}
	}
	if len(msgs) != len(want) {
		t.Fatalf("%d e-mails, want %d", len(msgs), len(want))
	}
	// The gone browser was forgotten after its first answers (the
	// deliveries claimed with the first were tried at once).
	subs, _ := tb.db.PushSubscriptions(ctx, tb.sam.ID)
	if len(subs) != 1 || !strings.HasPrefix(subs[0].Endpoint, phone.Srv.URL) || gone.Requests() == 0 || gone.Requests() > len(want) {
		t.Fatalf("subscriptions %+v after %d requests to the gone one", subs, gone.Requests())
	}
}
