package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/outbox"
	"github.com/fray-vtt/fray/internal/store"
)

// turnEvents makes n turn-started events numbered from first.
func turnEvents(first int64, n int) []engine.Event {
	evs := events(first, n)
	for i := range evs {
		evs[i].Kind = engine.KindTurnStarted
	}
	return evs
}

func countNotices(t *testing.T, db *store.DB, encounterID string) int {
	t.Helper()
	n := 0
	_, err := db.ExpandNotices(context.Background(), 100, func(_ context.Context, ws []store.WaitingNotice) ([]store.NewDelivery, error) {
		for _, w := range ws {
			if w.EncounterID == encounterID {
				n++
			}
		}
		return nil, errRollback
	})
	if err != nil && !strings.Contains(err.Error(), errRollback.Error()) {
		t.Fatal(err)
	}
	return n
}

var errRollback = &rollback{}

type rollback struct{}

func (*rollback) Error() string { return "roll back" }

// A command's notices are written in its own transaction, and only when
// its campaign has someone to tell; a command that is not written writes
// none.
func TestAppendWritesNoticesWithTheCommand(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	evs := turnEvents(1, 2)
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, CommandID: "a", Events: evs, Notices: outbox.FromEvents(e.ID, evs)}); err != nil {
		t.Fatal(err)
	}
	if n := countNotices(t, db, e.ID); n != 0 {
		t.Fatalf("%d notices written for a campaign with no one to tell", n)
	}
	if _, err := db.CreateWebhook(ctx, store.Webhook{CampaignID: e.CampaignID, URL: "https://example.com/hook", Format: "json", Secret: strings.Repeat("s", 32)}, ""); err != nil {
		t.Fatal(err)
	}
	evs = turnEvents(3, 2)
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 2, CommandID: "b", Events: evs, Notices: outbox.FromEvents(e.ID, evs)}); err != nil {
		t.Fatal(err)
	}
	// A stale command writes nothing, notices included.
	stale := turnEvents(2, 1)
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 1, CommandID: "c", Events: stale, Notices: outbox.FromEvents(e.ID, stale)}); err == nil {
		t.Fatal("a stale command was written")
	}
	if n := countNotices(t, db, e.ID); n != 2 {
		t.Fatalf("%d notices, want 2", n)
	}
	select {
	case <-db.NoticesWritten():
	default:
		t.Fatal("the worker was not woken")
	}
	// A notice naming a seq that is not one of the command's is refused.
	bad := []outbox.Notice{{EncounterID: e.ID, Seq: 9, Type: outbox.Turn}}
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, ExpectSeq: 4, CommandID: "d", Events: turnEvents(5, 1), Notices: bad}); err == nil {
		t.Fatal("a notice of another seq was accepted")
	}
}

// Notices expand into deliveries once per target, however often they are
// expanded; deliveries are claimed by one worker at a time, and one whose
// worker died is claimed again after its lease, with the same id.
func TestOutboxDeliversOncePerTarget(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	hook, err := db.CreateWebhook(ctx, store.Webhook{CampaignID: e.CampaignID, URL: "https://example.com/hook", Format: "json", Secret: strings.Repeat("s", 32)}, "")
	if err != nil {
		t.Fatal(err)
	}
	evs := turnEvents(1, 3)
	if _, err := db.AppendCommand(ctx, store.Append{EncounterID: e.ID, CommandID: "a", Events: evs}); err != nil {
		t.Fatal(err)
	}
	if err := db.Enqueue(ctx, outbox.FromEvents(e.ID, evs)...); err != nil {
		t.Fatal(err)
	}
	// Two workers expand at once: each notice is expanded by one.
	var mu sync.Mutex
	seen := map[int64]int{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				n, err := db.ExpandNotices(ctx, 1, func(_ context.Context, ws []store.WaitingNotice) ([]store.NewDelivery, error) {
					var ds []store.NewDelivery
					for _, w := range ws {
						mu.Lock()
						seen[w.ID]++
						mu.Unlock()
						time.Sleep(20 * time.Millisecond)
						// The same target twice: one delivery.
						for range 2 {
							ds = append(ds, store.NewDelivery{NoticeID: w.ID, ID: store.NewID(), Channel: store.ChannelWebhook, Target: hook.ID, Type: w.Type, Payload: []byte(`{}`)})
						}
					}
					return ds, nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				if n == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	if len(seen) != 3 {
		t.Fatalf("expanded %v, want 3 notices", seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("notice %d expanded %d times", id, n)
		}
	}
	first, err := db.ClaimDeliveries(ctx, 10, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 3 {
		t.Fatalf("claimed %d deliveries, want 3", len(first))
	}
	for _, d := range first {
		if d.URL != hook.URL || d.Secret != hook.Secret || d.Attempt != 1 || d.Gone {
			t.Fatalf("delivery %+v", d)
		}
	}
	if again, _ := db.ClaimDeliveries(ctx, 10, time.Second); len(again) != 0 {
		t.Fatalf("claimed %d deliveries under lease", len(again))
	}
	// One is delivered, one fails for good, the third's worker "dies".
	if err := db.FinishDelivery(ctx, first[0].ID, 1, store.Outcome{Delivered: true}); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishDelivery(ctx, first[1].ID, 1, store.Outcome{Error: "410"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	again, err := db.ClaimDeliveries(ctx, 10, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 1 || again[0].ID != first[2].ID || again[0].Attempt != 2 {
		t.Fatalf("after the lease, claimed %+v, want %s again", again, first[2].ID)
	}
	// The dead worker's late answer changes nothing.
	if err := db.FinishDelivery(ctx, first[2].ID, 1, store.Outcome{Error: "late"}); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishDelivery(ctx, first[2].ID, 2, store.Outcome{RetryAfter: 10 * time.Millisecond, Error: "503"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	third, _ := db.ClaimDeliveries(ctx, 10, time.Second)
	if len(third) != 1 || third[0].Attempt != 3 {
		t.Fatalf("the retry: %+v", third)
	}
	// Removing the webhook removes what waits for it.
	if err := db.DeleteWebhook(ctx, e.CampaignID, hook.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishDelivery(ctx, third[0].ID, 3, store.Outcome{RetryAfter: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if left, _ := db.ClaimDeliveries(ctx, 10, time.Second); len(left) != 0 {
		t.Fatalf("deliveries to a removed webhook: %+v", left)
	}
	if n, err := db.DeleteOldNotices(ctx, time.Now().Add(time.Hour)); err != nil || n != 3 {
		t.Fatalf("deleted %d old notices (%v), want 3", n, err)
	}
}

// The audience of an encounter: webhooks, and the members who chose a
// channel, with their characters, address and browsers.
func TestNoticeAudience(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	gm, _ := db.CreateUser(ctx, "gm", "h")
	sam, _ := db.CreateUser(ctx, "sam", "h")
	c, err := db.CreateCampaignFor(ctx, "Moor", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetMember(ctx, c.ID, sam.ID, store.RolePlayer); err != nil {
		t.Fatal(err)
	}
	if err := db.AssignCharacter(ctx, c.ID, "ana", sam.ID); err != nil {
		t.Fatal(err)
	}
	e, err := db.CreateEncounter(ctx, store.Encounter{ID: store.NewID(), CampaignID: c.ID, Name: "Ambush", Ruleset: "sw-zones",
		Setup: []byte(`{}`), Initial: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetEmail(ctx, sam.ID, "sam@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddPushSubscription(ctx, store.PushSubscription{UserID: sam.ID, Endpoint: "https://push.example.com/1", P256dh: "k", Auth: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetNoticeSetting(ctx, c.ID, sam.ID, true, true); err != nil {
		t.Fatal(err)
	}
	if err := db.SetNoticeSetting(ctx, c.ID, store.NewID(), true, true); err == nil {
		t.Fatal("a stranger chose channels for the campaign")
	}
	a, err := db.NoticeAudience(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.CampaignName != "Moor" || a.EncounterName != "Ambush" || len(a.Webhooks) != 0 || len(a.Members) != 1 {
		t.Fatalf("audience %+v", a)
	}
	m := a.Members[0]
	if m.UserID != sam.ID || m.Role != store.RolePlayer || m.Email != "sam@example.com" || len(m.Push) != 1 || strings.Join(m.Characters, ",") != "ana" {
		t.Fatalf("member %+v", m)
	}
	ss, err := db.NoticeSettings(ctx, sam.ID)
	if err != nil || len(ss) != 1 || !ss[0].Push || !ss[0].Email {
		t.Fatalf("settings %+v, %v", ss, err)
	}
	// Leaving the campaign drops the choice.
	if err := db.RemoveMember(ctx, c.ID, sam.ID); err != nil {
		t.Fatal(err)
	}
	if a, _ := db.NoticeAudience(ctx, e.ID); len(a.Members) != 0 {
		t.Fatalf("a former member is still told: %+v", a.Members)
	}
	// The VAPID keys are made once.
	calls := 0
	mk := func() (string, string, error) { calls++; return "pub", "priv", nil }
	for range 2 {
		pub, priv, err := db.VAPIDKeys(ctx, mk)
		if err != nil || pub != "pub" || priv != "priv" {
			t.Fatalf("keys %q %q %v", pub, priv, err)
		}
	}
	if calls != 1 {
		t.Fatalf("keys made %d times", calls)
	}
}

// BenchmarkAppendNotices appends one command of 3 events, one of them a
// turn change, per op: without its notice (as before notices existed),
// with it in a campaign with no one to tell (the notice is not written),
// and with a webhook (the notice is written).
func BenchmarkAppendNotices(b *testing.B) {
	db, _ := open(b)
	ctx := context.Background()
	for _, c := range []struct {
		name              string
		notices, webhooks bool
	}{{"without", false, false}, {"unsubscribed", true, false}, {"subscribed", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			e := newEncounter(b, db)
			if c.webhooks {
				if _, err := db.CreateWebhook(ctx, store.Webhook{CampaignID: e.CampaignID, URL: "https://example.com/", Format: "json", Secret: strings.Repeat("s", 32)}, ""); err != nil {
					b.Fatal(err)
				}
			}
			var seq int64
			for i := 0; b.Loop(); i++ {
				evs := events(seq+1, 3)
				evs[2].Kind = engine.KindTurnStarted
				a := store.Append{EncounterID: e.ID, ExpectSeq: seq, CommandID: fmt.Sprintf("cmd-%d", i), Events: evs}
				if c.notices {
					a.Notices = outbox.FromEvents(e.ID, evs)
				}
				s, err := db.AppendCommand(ctx, a)
				if err != nil {
					b.Fatal(err)
				}
				seq = s.Seq
			}
		})
	}
}
