// Package assets keeps a campaign's pictures: uploads checked and
// re-encoded by package images, stored content-addressed in PostgreSQL
// (store.PutAsset) within the campaign's quota, and read back by id. Who
// may fetch one is the server's question (the GM, its uploader, and a
// player the campaign's encounters show it to: history.PicturesSeen).
package assets

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is what keeping pictures needs; *store.DB provides it. Each method
// is one statement.
type Store interface {
	PutAsset(ctx context.Context, a store.Asset, quota int64) (store.Asset, bool, error)
	AssetData(ctx context.Context, campaignID, id string, thumb bool) (string, []byte, error)
	CampaignAssets(ctx context.Context, campaignID string) ([]store.Asset, error)
	DeleteAsset(ctx context.Context, campaignID, id string) error
}

// DefaultQuota is a campaign's room for pictures unless the operator sets
// another (server flag -asset-quota, FRAY_ASSET_QUOTA).
const DefaultQuota = 200 << 20

// Service keeps pictures.
type Service struct {
	db    Store
	quota int64
}

// New returns a Service over db; quota bounds each campaign's pictures in
// bytes (0: DefaultQuota, negative: no bound).
func New(db Store, quota int64) *Service {
	if quota == 0 {
		quota = DefaultQuota
	}
	if quota < 0 {
		quota = 0
	}
	return &Service{db: db, quota: quota}
}

// Picture is a stored picture as the API describes it.
type Picture struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Thumb  string `json:"thumb"`
	Name   string `json:"name,omitempty"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

func pictureOf(id, name string, w, h int) Picture {
	url := engine.AssetPrefix + id
	return Picture{ID: id, URL: url, Thumb: url + "?size=thumb", Name: name, Width: w, Height: h}
}

// Upload checks, re-encodes and stores a file uploaded to campaign
// campaignID by user userID. The same picture uploaded again is the
// stored one.
func (s *Service) Upload(ctx context.Context, campaignID, userID, name string, data []byte) (Picture, error) {
	p, err := images.Process(data)
	if err != nil {
		return Picture{}, err
	}
	name = cleanName(name)
	a := store.Asset{CampaignID: campaignID, ID: p.ID(), UploadedBy: userID, Name: name,
		ContentType: p.Display.ContentType, Width: p.Display.Width, Height: p.Display.Height, Data: p.Display.Data,
		ThumbType: p.Thumb.ContentType, Thumb: p.Thumb.Data}
	if _, _, err := s.db.PutAsset(ctx, a, s.quota); err != nil {
		return Picture{}, err
	}
	return pictureOf(a.ID, name, a.Width, a.Height), nil
}

// List returns a campaign's pictures, newest first.
func (s *Service) List(ctx context.Context, campaignID string) ([]Picture, error) {
	as, err := s.db.CampaignAssets(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	out := make([]Picture, 0, len(as))
	for _, a := range as {
		out = append(out, pictureOf(a.ID, a.Name, a.Width, a.Height))
	}
	return out, nil
}

// Delete removes a picture the campaign no longer uses anywhere (see
// store.DeleteAsset); id is the asset's id or its URL.
func (s *Service) Delete(ctx context.Context, campaignID, id string) error {
	return s.db.DeleteAsset(ctx, campaignID, strings.TrimPrefix(id, engine.AssetPrefix))
}

// Data returns one size of a campaign's picture.
func (s *Service) Data(ctx context.Context, campaignID, id string, thumb bool) (string, []byte, error) {
	return s.db.AssetData(ctx, campaignID, id, thumb)
}

// cleanName keeps a file name's last path element, without control
// characters, at most 200 characters.
func cleanName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, strings.ToValidUTF8(name, ""))
	if utf8.RuneCountInString(name) > 200 {
		name = string([]rune(name)[:200])
	}
	return name
}
