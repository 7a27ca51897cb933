package main

import (
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/outbox"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// hookReceiver is a webhook receiver that keeps every request, and can be
// made to hold requests unanswered (a slow receiver: the server is
// mid-delivery when it is killed).
type hookReceiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	got     []hookRequest
	holding chan struct{} // closed: answer; open: hold
	held    int
}

type hookRequest struct {
	id, typ, sig string
	ts           int64
	body         []byte
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{holding: make(chan struct{})}
	close(h.holding)
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ts, _ := strconv.ParseInt(r.Header.Get(notify.HeaderTimestamp), 10, 64)
		h.mu.Lock()
		h.got = append(h.got, hookRequest{r.Header.Get(notify.HeaderDelivery), r.Header.Get(notify.HeaderType), r.Header.Get(notify.HeaderSignature), ts, body})
		hold := h.holding
		select {
		case <-hold:
		default:
			h.held++
		}
		h.mu.Unlock()
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(func() { h.release(); h.srv.Close() })
	return h
}

func (h *hookReceiver) hold() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.holding = make(chan struct{})
}

func (h *hookReceiver) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.holding:
	default:
		close(h.holding)
	}
}

func (h *hookReceiver) requests() ([]hookRequest, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hookRequest(nil), h.got...), h.held
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// A campaign's webhook gets exactly one delivery (by delivery id) per turn
// change, decision, start and end, though two server instances deliver
// the outbox and both are killed with SIGKILL while deliveries are in
// flight: each delivery is made again, with the same id, by whichever
// instance claims it after its lease ran out, and none is lost. Every
// delivery's signature verifies.
func TestWebhookDeliveriesSurviveKillsWithTwoInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("kills server processes")
	}
	dbURL := testdb.URL(t)
	rec := newHookReceiver(t)
	env := []string{"FRAY_NOTIFY_ALLOW_PRIVATE=true", "FRAY_NOTIFY_LEASE=3s", "FRAY_NOTIFY_BACKOFF=200ms"}
	servers := []*serverProcess{
		{t: t, addr: freeAddr(t), dbURL: dbURL, env: env},
		{t: t, addr: freeAddr(t), dbURL: dbURL, env: env},
	}
	for _, s := range servers {
		s.start()
		defer s.stop()
	}
	apis := []*testServer{
		{t: t, URL: "http://" + servers[0].addr, once: &sync.Once{}},
		{t: t, URL: "http://" + servers[1].addr, once: &sync.Once{}},
	}
	gm := apis[0].signup("gamemaster")
	id := apis[0].withUser(gm).importExample()
	var camps []struct{ ID string }
	apis[0].call(gm, "GET", "/api/campaigns", nil, &camps)
	var hook struct {
		ID, URL, Format, Secret string
	}
	if code := apis[1].call(gm, "POST", "/api/campaigns/"+camps[0].ID+"/webhooks", map[string]string{"url": rec.srv.URL + "/fray", "format": "json"}, &hook); code != http.StatusCreated || len(hook.Secret) < 32 {
		t.Fatalf("webhook: %d %+v", code, hook)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	step := 0
	play := func(api *testServer, n int) {
		t.Helper()
		for range n {
			v := api.viewAs(gm, id)
			if v.Status == engine.StatusFinished {
				return
			}
			cmd := contractPick(rng, v, nil)
			if cmd == nil {
				return
			}
			step++
			api.call(gm, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": fmt.Sprintf("k%d", step), "command": cmd}, nil)
		}
	}
	play(apis[0], 10)
	play(apis[1], 10)
	// The receiver stops answering; play on until deliveries hang, then
	// kill both servers mid-delivery.
	rec.hold()
	deadline := patience.Deadline()
	for {
		play(apis[0], 3)
		if _, held := rec.requests(); held >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no delivery was held")
		}
	}
	for _, s := range servers {
		s.kill()
	}
	rec.release()
	for _, s := range servers {
		s.start()
	}
	play(apis[1], 10)
	play(apis[0], 10)

	// What the log says the webhook must get: the whole table sees every
	// event of this example (no one is hidden).
	var log struct{ Events []engine.Event }
	apis[0].call(gm, "GET", "/api/encounters/"+id+"/events", nil, &log)
	want := map[int64]outbox.Type{}
	for _, n := range outbox.FromEvents(id, log.Events) {
		want[n.Seq] = n.Type
	}
	var byID map[string]hookRequest
	repeats := 0
	deadline = patience.Deadline()
	for {
		got, _ := rec.requests()
		byID, repeats = map[string]hookRequest{}, 0
		for _, r := range got {
			if prev, ok := byID[r.id]; ok {
				repeats++
				if string(prev.body) != string(r.body) {
					t.Fatalf("delivery %s repeated with another body", r.id)
				}
			}
			byID[r.id] = r
		}
		// The held deliveries come again once their leases run out: wait
		// for one of them too, not only for every id.
		if len(byID) >= len(want) && repeats > 0 {
			break
		}
		if time.Now().After(deadline) {
			if repeats == 0 {
				t.Fatal("no delivery was made again after the kills: the test did not kill mid-delivery")
			}
			t.Fatalf("%d deliveries of %d notices after 60 s", len(byID), len(want))
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(4 * time.Second) // a lease's length: nothing more may come
	got, _ := rec.requests()
	bySeq := map[int64]string{}
	for _, r := range got {
		var m notify.Message
		if err := json.Unmarshal(r.body, &m); err != nil {
			t.Fatal(err)
		}
		if !hmac.Equal([]byte(r.sig), []byte(notify.Sign(hook.Secret, r.ts, r.body))) {
			t.Fatalf("delivery %s: the signature does not verify", r.id)
		}
		if m.ID != r.id || string(m.Type) != r.typ || want[m.Seq] != m.Type {
			t.Fatalf("delivery %s: %+v, want a %q at seq %d", r.id, m, want[m.Seq], m.Seq)
		}
		if other, ok := bySeq[m.Seq]; ok && other != r.id {
			t.Fatalf("seq %d delivered twice: %s and %s", m.Seq, other, r.id)
		}
		bySeq[m.Seq] = r.id
	}
	if len(bySeq) != len(want) {
		t.Fatalf("%d notices delivered, want %d", len(bySeq), len(want))
	}
	t.Logf("%d notices, each delivered under one id; %d repeated after the kills", len(want), repeats)
}

// A server started without -notify-allow-private refuses webhooks on
// loopback and private addresses, by number or by a name that resolves
// there, and keeps none of them; a public address is taken.
func TestWebhookToPrivateAddressRefusedByDefault(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	for _, target := range []string{"http://127.0.0.1:9/hook", "http://localhost/hook", "https://10.1.2.3/hook", "http://[::1]/hook", "http://169.254.169.254/latest"} {
		var e struct{ Code, Message string }
		if code := srv.call(tb.gm, "POST", "/api/campaigns/"+tb.campaign+"/webhooks", map[string]string{"url": target, "format": "json"}, &e); code != http.StatusBadRequest || e.Code != "invalid" {
			t.Errorf("%s: %d %+v, want 400 invalid", target, code, e)
		}
	}
	var hooks []map[string]any
	if code := srv.call(tb.gm, "GET", "/api/campaigns/"+tb.campaign+"/webhooks", nil, &hooks); code != http.StatusOK || len(hooks) != 0 {
		t.Fatalf("after the refusals: %d %v", code, hooks)
	}
	var made struct{ ID, Secret string }
	if code := srv.call(tb.gm, "POST", "/api/campaigns/"+tb.campaign+"/webhooks", map[string]string{"url": "https://93.184.215.14/hook", "format": "discord"}, &made); code != http.StatusCreated || made.Secret == "" {
		t.Fatalf("a public address: %d %+v", code, made)
	}
	if code := srv.call(tb.player, "GET", "/api/campaigns/"+tb.campaign+"/webhooks", nil, nil); code != http.StatusForbidden {
		t.Fatalf("a player lists webhooks: %d", code)
	}
}
