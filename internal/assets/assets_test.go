package assets_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/assets"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images/imagestest"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

func pngOf(t *testing.T, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	img.Set(0, 0, color.NRGBA{1, 2, 3, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestUploadEmbedded: a picture an importer finds inside a file, as a data:
// URL or plain base64, takes the upload's path — checked, re-encoded,
// stored in the campaign, counted against the account's limit — and a
// bomb inside a file is refused as an uploaded one is.
func TestUploadEmbedded(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	gm, err := db.CreateUser(ctx, "gamemaster", "x")
	if err != nil {
		t.Fatal(err)
	}
	camp, err := db.CreateCampaignFor(ctx, "Maps", gm.ID)
	if err != nil {
		t.Fatal(err)
	}
	svc := assets.New(db, assets.Limits{Every: time.Hour, Burst: 3})
	raw := pngOf(t, 40, 30)
	p, err := svc.UploadEmbedded(ctx, camp.ID, gm.ID, "background", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(raw))
	if err != nil || p.Width != 40 || p.Height != 30 || p.URL == "" {
		t.Fatalf("data URL: %+v %v", p, err)
	}
	if ct, data, err := svc.Data(ctx, camp.ID, p.ID, false); err != nil || ct != "image/png" || bytes.Equal(data, raw) {
		t.Errorf("stored: %s, %d bytes, %v (the upload's bytes must not survive)", ct, len(data), err)
	}
	bomb := base64.StdEncoding.EncodeToString(imagestest.PNG(4096, 4096, 16, 6, false))
	if _, err := svc.UploadEmbedded(ctx, camp.ID, gm.ID, "bomb", bomb); fray.ErrorCode(err) != fray.ETOOLARGE {
		t.Errorf("a bomb inside a file: %v", err)
	}
	if _, err := svc.UploadEmbedded(ctx, camp.ID, gm.ID, "again", base64.RawURLEncoding.EncodeToString(raw)); err != nil {
		t.Errorf("plain base64: %v", err)
	}
	// Three pictures sent (the bomb counts): the fourth waits an hour.
	_, err = svc.UploadEmbedded(ctx, camp.ID, gm.ID, "more", base64.StdEncoding.EncodeToString(raw))
	if fray.ErrorCode(err) != fray.ERATELIMIT || fray.RetryAfter(err) != time.Hour {
		t.Errorf("past the limit: %v (retry after %v)", err, fray.RetryAfter(err))
	}
	if ps, err := svc.List(ctx, camp.ID); err != nil || len(ps) != 1 {
		t.Errorf("the campaign holds %d pictures (%v), want the one", len(ps), err)
	}
}
