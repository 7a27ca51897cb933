package store_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/store"
)

// TestAssets: a picture is stored once per campaign, within the quota; it
// is found by id with the campaigns holding it; the campaign's notes are
// its own.
func TestAssets(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	gm := newUser(t, db, "gm")
	c1, _ := db.CreateCampaignFor(ctx, "One", gm.ID)
	c2, _ := db.CreateCampaignFor(ctx, "Two", gm.ID)
	pic := func(campaign string, c byte, size int) store.Asset {
		return store.Asset{CampaignID: campaign, ID: strings.Repeat(string(c), 64), UploadedBy: gm.ID, Name: "p.png",
			ContentType: "image/png", Width: 2, Height: 1, Data: bytes.Repeat([]byte{c}, size), ThumbType: "image/png", Thumb: []byte{c}}
	}
	if _, created, err := db.PutAsset(ctx, pic(c1.ID, 'a', 600), 1000); err != nil || !created {
		t.Fatalf("first: %v %v", created, err)
	}
	if _, created, err := db.PutAsset(ctx, pic(c1.ID, 'a', 600), 1000); err != nil || created {
		t.Fatalf("again: %v %v", created, err)
	}
	if _, _, err := db.PutAsset(ctx, pic(c1.ID, 'b', 600), 1000); fray.ErrorCode(err) != fray.ETOOLARGE {
		t.Fatalf("over the quota: %v", err)
	}
	if _, created, err := db.PutAsset(ctx, pic(c2.ID, 'a', 600), 0); err != nil || !created {
		t.Fatalf("another campaign, no quota: %v %v", created, err)
	}
	hs, err := db.AssetHolders(ctx, strings.Repeat("a", 64))
	if err != nil || len(hs) != 2 || hs[0].UploadedBy != gm.ID {
		t.Fatalf("holders %+v %v", hs, err)
	}
	ct, data, err := db.AssetData(ctx, c1.ID, strings.Repeat("a", 64), true)
	if err != nil || ct != "image/png" || !bytes.Equal(data, []byte{'a'}) {
		t.Fatalf("thumb %s %v %v", ct, data, err)
	}
	if _, _, err := db.AssetData(ctx, c1.ID, strings.Repeat("b", 64), false); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("refused picture stored: %v", err)
	}
	if as, err := db.CampaignAssets(ctx, c1.ID); err != nil || len(as) != 1 || as[0].Data != nil {
		t.Fatalf("list %+v %v", as, err)
	}
	if err := db.SetCampaignNotes(ctx, c1.ID, "the duke"); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.CampaignNotes(ctx, c1.ID); n != "the duke" {
		t.Errorf("notes %q", n)
	}
	if n, _ := db.CampaignNotes(ctx, c2.ID); n != "" {
		t.Errorf("the other campaign's notes %q", n)
	}
}

// TestAssetQuotaUnderConcurrentUploads: two uploads racing into one
// campaign never take it past its quota together — the second counts the
// bytes the first stored, not a snapshot from before it. The test holds the
// campaign's row until both uploads wait on it, so they start together.
func TestAssetQuotaUnderConcurrentUploads(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	gm := newUser(t, db, "gm")
	c, _ := db.CreateCampaignFor(ctx, "Race", gm.ID)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	hold, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hold.Exec(ctx, `SELECT 1 FROM campaigns WHERE id = $1::uuid FOR UPDATE`, c.ID); err != nil {
		t.Fatal(err)
	}
	const size, quota = 600, 1000 // room for one (a picture is its data and a 1-byte thumbnail)
	results := make(chan error, 2)
	for i := range 2 {
		go func() {
			a := store.Asset{CampaignID: c.ID, ID: fmt.Sprintf("%064x", i+1), UploadedBy: gm.ID, Name: "p.png",
				ContentType: "image/png", Width: 2, Height: 1, Data: bytes.Repeat([]byte{byte(i)}, size), ThumbType: "image/png", Thumb: []byte{byte(i)}}
			_, _, err := db.PutAsset(ctx, a, quota)
			results <- err
		}()
	}
	for waiting, deadline := 0, patience.Deadline(); waiting < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d uploads wait for the campaign's row, not 2", waiting)
		}
		if err := db.QueryRowForTest(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := hold.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var stored, refused int
	for range 2 {
		switch err := <-results; {
		case err == nil:
			stored++
		case fray.ErrorCode(err) == fray.ETOOLARGE:
			refused++
		default:
			t.Errorf("an upload failed otherwise than over the quota: %v", err)
		}
	}
	as, err := db.CampaignAssets(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored != 1 || refused != 1 || len(as) != 1 {
		t.Errorf("two uploads of %d bytes under a quota of %d: %d stored, %d refused, %d pictures held; want 1, 1, 1", size, quota, stored, refused, len(as))
	}
}
