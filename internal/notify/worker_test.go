package notify_test

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/outbox"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// table is a campaign with a GM, a player who owns one character, and an
// encounter of the first example of a ruleset, played by a play service.
type table struct {
	db       *store.DB
	rules    *engine.Registry
	play     *play.Service
	gm, sam  store.User
	campaign string
	enc      store.Encounter
	pc       string
}

func newTable(t *testing.T, prefix string) *table {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	tb := &table{db: db, rules: rules.Registry()}
	tb.gm, _ = db.CreateUser(ctx, "gm", "h")
	tb.sam, _ = db.CreateUser(ctx, "sam", "h")
	c, err := db.CreateCampaignFor(ctx, "Moor", tb.gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	tb.campaign = c.ID
	if err := db.SetMember(ctx, c.ID, tb.sam.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(exs, func(e prep.Example) bool { return strings.HasPrefix(e.Name, prefix) })
	if tb.enc, err = prep.Import(ctx, db, tb.rules, c.ID, exs[i].Data); err != nil {
		t.Fatal(err)
	}
	tb.play = play.New(play.Config{Store: db, Rulesets: tb.rules})
	t.Cleanup(tb.play.Close)
	_, st, err := tb.play.Current(ctx, tb.enc.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, cb := range st.Core().Combatants {
		if !cb.Hidden {
			tb.pc = cb.ID
			break
		}
	}
	if err := db.AssignCharacter(ctx, c.ID, tb.pc, tb.sam.ID); err != nil {
		t.Fatal(err)
	}
	return tb
}

// playSome plays n commands as the GM, as a client that knows no rules:
// it starts the encounter, then answers a waiting decision or takes an
// offered action at random (refusals are fine).
func (tb *table) playSome(t *testing.T, n int, seed uint64) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, seed))
	skip := map[string]bool{engine.KindPause: true, engine.KindEnd: true, engine.KindRewind: true, engine.KindRevealEvent: true, engine.KindReveal: true}
	for i := range n {
		rs, st, err := tb.play.Current(ctx, tb.enc.ID)
		if err != nil {
			t.Fatal(err)
		}
		v := engine.Project(rs, st, engine.GMViewer())
		var cmd engine.Command
		if len(v.Pending) > 0 {
			d := v.Pending[rng.IntN(len(v.Pending))]
			args := map[string]any{"decision": d.ID, "choice": d.Options[rng.IntN(len(d.Options))].Value}
			if len(d.Fields) > 0 {
				args["values"] = enginetest.Values(rng, d.Fields)
			}
			cmd = engine.NewCommand(engine.KindAnswer, "", args)
		} else {
			var acts []engine.Action
			for _, a := range v.Actions {
				if !skip[a.Kind] {
					acts = append(acts, a)
				}
			}
			if len(acts) == 0 {
				return
			}
			a := acts[rng.IntN(len(acts))]
			cmd = engine.NewCommand(a.Kind, a.Actor, enginetest.Values(rng, a.Fields))
		}
		_, _ = tb.play.Submit(ctx, tb.enc.ID, play.Sender{User: tb.gm.ID, Viewer: engine.GMViewer()}, fmt.Sprintf("c%d-%d", seed, i), cmd)
	}
}

// expected returns, per seq, the notices the encounter's log causes that
// viewer v may see.
func (tb *table) expected(t *testing.T, v engine.Viewer) map[int64]outbox.Type {
	t.Helper()
	ctx := context.Background()
	rs, st, err := tb.play.Current(ctx, tb.enc.ID)
	if err != nil {
		t.Fatal(err)
	}
	_ = rs
	evs, err := tb.db.Events(ctx, tb.enc.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]outbox.Type{}
	for _, n := range outbox.FromEvents(tb.enc.ID, evs) {
		if _, ok := engine.VisibleEvent(st, v, evs[n.Seq-1]); ok {
			out[n.Seq] = n.Type
		}
	}
	return out
}

// receiver is a webhook endpoint that keeps what it is sent.
type receiver struct {
	mu     sync.Mutex
	got    []received
	status func(n int) int // the answer to the nth request (from 1); nil: 204
	srv    *httptest.Server
}

type received struct {
	header http.Header
	body   []byte
	code   int // what the receiver answered
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		n := len(r.got) + 1
		code := http.StatusNoContent
		if r.status != nil {
			code = r.status(n)
		}
		r.got = append(r.got, received{req.Header.Clone(), body, code})
		r.mu.Unlock()
		w.WriteHeader(code)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) all() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// A campaign's webhooks get one delivery per notice the public may see —
// by delivery id, however often a failed one is tried — in both formats;
// the JSON one's signature verifies, the Discord one keeps Discord's
// limits and allows no mention.
func TestWebhooksGetEveryPublicNoticeOnce(t *testing.T) {
	tb := newTable(t, "sw-zones-")
	ctx := context.Background()
	jsonHook, discordHook := newReceiver(t), newReceiver(t)
	// The JSON receiver fails every third request: those are tried again.
	jsonHook.status = func(n int) int {
		if n%3 == 0 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}
	svc := notify.NewService(tb.db, notify.ServiceConfig{Guard: notify.Guard{AllowPrivate: true}})
	jh, err := svc.CreateWebhook(ctx, tb.campaign, tb.gm.ID, jsonHook.srv.URL+"/hook", notify.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateWebhook(ctx, tb.campaign, tb.gm.ID, discordHook.srv.URL+"/discord", notify.FormatDiscord); err != nil {
		t.Fatal(err)
	}
	tb.playSome(t, 40, 1)
	w := notify.NewWorker(notify.WorkerConfig{Store: tb.db, Rulesets: tb.rules, Guard: notify.Guard{AllowPrivate: true},
		Backoff: 10 * time.Millisecond, PublicURL: "https://fray.example.com"})
	deadline := patience.Deadline()
	want := tb.expected(t, engine.PlayerViewer())
	if len(want) < 3 {
		t.Fatalf("the fight caused only %d public notices", len(want))
	}
	for {
		w.Step(ctx)
		// Every notice taken by both (a refused delivery counts once it
		// has been tried again and taken).
		if len(accepted(t, discordHook.all())) >= len(want) && len(accepted(t, jsonHook.all())) >= len(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("json got %d, discord %d deliveries, want %d", len(distinct(t, jsonHook.all())), len(distinct(t, discordHook.all())), len(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// JSON: one delivery id per notice, signed; a retry repeats id and body.
	bySeq := map[int64]string{}
	for id, r := range distinct(t, jsonHook.all()) {
		var m notify.Message
		if err := json.Unmarshal(r.body, &m); err != nil {
			t.Fatal(err)
		}
		ts, err := strconv.ParseInt(r.header.Get(notify.HeaderTimestamp), 10, 64)
		if err != nil || time.Since(time.Unix(ts, 0)) > time.Minute {
			t.Fatalf("timestamp %q", r.header.Get(notify.HeaderTimestamp))
		}
		if sig := r.header.Get(notify.HeaderSignature); !hmac.Equal([]byte(sig), []byte(notify.Sign(jh.Secret, ts, r.body))) {
			t.Fatalf("signature %q does not verify", sig)
		}
		if notify.Sign(jh.Secret+"x", ts, r.body) == r.header.Get(notify.HeaderSignature) {
			t.Fatal("any secret verifies")
		}
		if m.ID != id || string(m.Type) != r.header.Get(notify.HeaderType) || want[m.Seq] != m.Type {
			t.Fatalf("delivery %s: %+v, want type %q at seq %d", id, m, want[m.Seq], m.Seq)
		}
		if prev, dup := bySeq[m.Seq]; dup {
			t.Fatalf("seq %d delivered as %s and %s", m.Seq, prev, id)
		}
		bySeq[m.Seq] = id
		if m.Encounter.Name != tb.enc.Name || m.Campaign.Name != "Moor" || m.Text == "" || !strings.HasPrefix(m.Encounter.URL, "https://fray.example.com/encounters/") {
			t.Fatalf("message %+v", m)
		}
	}
	if len(bySeq) != len(want) {
		t.Fatalf("json: %d notices delivered, want %d", len(bySeq), len(want))
	}
	if len(jsonHook.all()) == len(bySeq) {
		t.Fatal("no delivery was tried again")
	}
	// Discord: within Discord's limits, no mentions, id and type in the footer.
	for id, r := range distinct(t, discordHook.all()) {
		var d struct {
			Content string `json:"content"`
			Embeds  []struct {
				Title       string `json:"title"`
				Description string `json:"description"`
				Footer      struct {
					Text string `json:"text"`
				} `json:"footer"`
				Timestamp string `json:"timestamp"`
			} `json:"embeds"`
			AllowedMentions struct {
				Parse []string `json:"parse"`
			} `json:"allowed_mentions"`
		}
		if err := json.Unmarshal(r.body, &d); err != nil {
			t.Fatal(err)
		}
		if d.Content == "" || utf8.RuneCountInString(d.Content) > 2000 || len(d.Embeds) != 1 || d.AllowedMentions.Parse == nil || len(d.AllowedMentions.Parse) != 0 {
			t.Fatalf("discord body %s", r.body)
		}
		e := d.Embeds[0]
		if utf8.RuneCountInString(e.Title) > 256 || utf8.RuneCountInString(e.Description) > 4096 || !strings.Contains(e.Footer.Text, id) {
			t.Fatalf("discord embed %+v", e)
		}
		if _, err := time.Parse(time.RFC3339, e.Timestamp); err != nil {
			t.Fatalf("discord timestamp %q", e.Timestamp)
		}
	}
}

// distinct groups what a receiver got by delivery id, checking that every
// repeat of an id is the same body.
// accepted are the distinct deliveries the receiver answered with 2xx.
func accepted(t *testing.T, rs []received) map[string]received {
	t.Helper()
	out := distinct(t, rs)
	for id := range out {
		if !slices.ContainsFunc(rs, func(r received) bool { return r.header.Get(notify.HeaderDelivery) == id && r.code < 300 }) {
			delete(out, id)
		}
	}
	return out
}

func distinct(t *testing.T, rs []received) map[string]received {
	t.Helper()
	out := map[string]received{}
	for _, r := range rs {
		id := r.header.Get(notify.HeaderDelivery)
		if id == "" {
			t.Fatalf("a delivery without an id: %s", r.body)
		}
		if prev, ok := out[id]; ok && string(prev.body) != string(r.body) {
			t.Fatalf("delivery %s repeated with another body:\n%s\n%s", id, prev.body, r.body)
		}
		out[id] = r
	}
	return out
}

// By default no webhook may point at a loopback or private address: it is
// refused when it is set, and a target that resolves there later is
// refused when it is dialled.
func TestPrivateTargetsAreRefusedByDefault(t *testing.T) {
	tb := newTable(t, "sw-zones-")
	ctx := context.Background()
	hook := newReceiver(t)
	strict := notify.NewService(tb.db, notify.ServiceConfig{})
	for _, u := range []string{hook.srv.URL, "http://localhost:9/x", "http://10.1.2.3/x", "http://[::1]/x", "http://169.254.169.254/latest",
		"http://0.0.0.0/", "http://[::ffff:127.0.0.1]/", "http://100.64.0.1/", "ftp://example.com/", "https://user:pw@example.com/", "/relative"} {
		if _, err := strict.CreateWebhook(ctx, tb.campaign, tb.gm.ID, u, notify.FormatJSON); err == nil {
			t.Errorf("webhook %s accepted", u)
		}
	}
	// Set while the operator allowed it; delivered by a worker that does not.
	lax := notify.NewService(tb.db, notify.ServiceConfig{Guard: notify.Guard{AllowPrivate: true}})
	if _, err := lax.CreateWebhook(ctx, tb.campaign, tb.gm.ID, hook.srv.URL, notify.FormatJSON); err != nil {
		t.Fatal(err)
	}
	tb.playSome(t, 5, 2)
	w := notify.NewWorker(notify.WorkerConfig{Store: tb.db, Rulesets: tb.rules, Backoff: time.Millisecond})
	w.Step(ctx)
	if got := hook.all(); len(got) != 0 {
		t.Fatalf("a private address was sent %d requests", len(got))
	}
	// The refusal is final: nothing is left to try.
	stats, err := tb.db.WebhookStats(ctx, tb.campaign)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stats {
		if s.Failed == 0 || s.Pending != 0 || s.Delivered != 0 || !strings.Contains(s.LastError, "not a public address") {
			t.Fatalf("deliveries to a private address: %+v", s)
		}
	}
}

// mine returns, per seq, the notices for the player: their character's
// turns and decisions, and the encounter's start and end.
func (tb *table) mine(t *testing.T) map[int64]outbox.Type {
	t.Helper()
	ctx := context.Background()
	_, st, err := tb.play.Current(ctx, tb.enc.ID)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := tb.db.Events(ctx, tb.enc.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]outbox.Type{}
	for _, n := range outbox.FromEvents(tb.enc.ID, evs) {
		ev := evs[n.Seq-1]
		if _, ok := engine.VisibleEvent(st, engine.PlayerViewer(tb.pc), ev); !ok {
			continue
		}
		switch n.Type {
		case outbox.Turn:
			var d engine.TurnStarted
			_ = ev.Decode(&d)
			if d.Combatant != tb.pc && !slices.Contains(d.Acting, tb.pc) {
				continue
			}
		case outbox.Decision:
			var d engine.DecisionOpened
			_ = ev.Decode(&d)
			if d.Decision.For != tb.pc {
				continue
			}
		}
		out[n.Seq] = n.Type
	}
	return out
}
