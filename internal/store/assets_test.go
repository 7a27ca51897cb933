package store_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
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
