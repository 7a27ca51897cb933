package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// A bestiary entry and a character keep a portrait; a save of their stats
// leaves it alone; anything but a picture's URL is refused and changes
// nothing.
func TestStatBlockPortraits(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	c, _ := db.CreateCampaign(ctx, "C")
	pic := "/assets/" + strings.Repeat("ab", 32)
	if _, _, err := db.PutAsset(ctx, store.Asset{CampaignID: c.ID, ID: strings.Repeat("ab", 32), Name: "p.png",
		ContentType: "image/png", Width: 1, Height: 1, Data: []byte{1}, ThumbType: "image/png", Thumb: []byte{1}}, 0); err != nil {
		t.Fatal(err)
	}
	other := "/assets/" + strings.Repeat("ef", 32) // no picture of this campaign
	orc := store.StatBlock{ID: "orc", CampaignID: c.ID, Ruleset: "sw-zones", Name: "Orc", Stats: []byte(`{}`)}
	if err := db.SaveStatBlocks(ctx, store.KindBestiary, true, []store.StatBlock{orc}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveCharacter(ctx, store.CharacterSave{Block: character(c.ID, `{}`), Create: true, Kind: store.RevisionCreated}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct{ kind, id string }{{store.KindBestiary, "orc"}, {store.KindCharacter, "brak"}} {
		if err := db.SetPortrait(ctx, k.kind, c.ID, k.id, pic); err != nil {
			t.Fatal(err)
		}
		wantCode(t, db.SetPortrait(ctx, k.kind, c.ID, k.id, "javascript:alert(1)"), fray.EINVALID)
		wantCode(t, db.SetPortrait(ctx, k.kind, c.ID, k.id, other), fray.EINVALID)
		wantCode(t, db.SetPortrait(ctx, k.kind, c.ID, "nobody", pic), fray.ENOTFOUND)
		b, err := db.StatBlock(ctx, k.kind, c.ID, k.id)
		if err != nil || b.Portrait != pic {
			t.Fatalf("%s %s: portrait %q %v", k.kind, k.id, b.Portrait, err)
		}
		bs, err := db.StatBlocks(ctx, k.kind, c.ID)
		if err != nil || len(bs) != 1 || bs[0].Portrait != pic {
			t.Fatalf("%s list: %+v %v", k.kind, bs, err)
		}
	}
	orc.Stats = []byte(`{"x":1}`)
	if err := db.SaveStatBlocks(ctx, store.KindBestiary, false, []store.StatBlock{orc}); err != nil {
		t.Fatal(err)
	}
	if b, _ := db.StatBlock(ctx, store.KindBestiary, c.ID, "orc"); b.Portrait != pic {
		t.Error("saving the stats dropped the portrait")
	}
	if cs, _ := db.Characters(ctx, c.ID); len(cs) != 1 || cs[0].Portrait != pic {
		t.Errorf("characters: %+v", cs)
	}
	// A bestiary file's entry may name its portrait; a picture of no
	// campaign of this one stores nothing.
	wolf := store.StatBlock{ID: "wolf", CampaignID: c.ID, Ruleset: "sw-zones", Name: "Wolf", Stats: []byte(`{}`), Portrait: other}
	wantCode(t, db.SaveStatBlocks(ctx, store.KindBestiary, false, []store.StatBlock{wolf}), fray.EINVALID)
	if _, err := db.StatBlock(ctx, store.KindBestiary, c.ID, "wolf"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Error("a refused entry was stored")
	}
	wolf.Portrait = pic
	if err := db.SaveStatBlocks(ctx, store.KindBestiary, false, []store.StatBlock{wolf}); err != nil {
		t.Fatal(err)
	}
	if b, _ := db.StatBlock(ctx, store.KindBestiary, c.ID, "wolf"); b.Portrait != pic {
		t.Errorf("imported portrait %q", b.Portrait)
	}
}
