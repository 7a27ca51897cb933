// Package assets keeps a campaign's pictures: uploads checked and
// re-encoded by package images, stored content-addressed in PostgreSQL
// (store.PutAsset) within the campaign's quota, and read back by id. Who
// may fetch one is the server's question (the GM, its uploader, and a
// player the campaign's encounters show it to: history.PicturesSeen).
//
// Every picture a person sends counts against their account's upload
// limit, which lives in the database (store.AllowRate) and so binds every
// server instance: an importer that finds pictures inside a file (a map
// file's background, a character's portrait, a campaign archive's
// pictures) stores each with Upload — or UploadEmbedded for one carried
// as base64 or a data: URL — and puts the answer's URL in its document.
package assets

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
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
	AllowRate(ctx context.Context, key string, every time.Duration, burst int) (bool, error)
}

// DefaultQuota is a campaign's room for pictures unless the operator sets
// another (server flag -asset-quota, FRAY_ASSET_QUOTA).
const DefaultQuota = 200 << 20

// DefaultBurst and DefaultEvery are an account's upload limit unless the
// operator sets another (-upload-refill): a burst of 60 pictures (a
// campaign archive's worth), then one every 2 seconds.
const (
	DefaultBurst = 60
	DefaultEvery = 2 * time.Second
)

// Limits bound what a Service keeps and takes.
type Limits struct {
	// Quota bounds each campaign's pictures in bytes (0: DefaultQuota,
	// negative: no bound).
	Quota int64
	// Every and Burst are each account's upload limit: a burst of Burst
	// pictures, then one every Every (zero: DefaultBurst, DefaultEvery; a
	// negative Every: no limit).
	Every time.Duration
	Burst int
}

// Service keeps pictures.
type Service struct {
	db    Store
	quota int64
	every time.Duration
	burst int
}

// New returns a Service over db within l.
func New(db Store, l Limits) *Service {
	s := &Service{db: db, quota: l.Quota, every: l.Every, burst: l.Burst}
	if s.quota == 0 {
		s.quota = DefaultQuota
	}
	if s.quota < 0 {
		s.quota = 0
	}
	if s.every == 0 {
		s.every = DefaultEvery
	}
	if s.burst <= 0 {
		s.burst = DefaultBurst
	}
	return s
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

// Upload checks, re-encodes and stores a picture sent to campaign
// campaignID by user userID (images.Process: every refusal is EINVALID,
// ETOOLARGE or EBUSY with a message for that person). It first counts the
// picture against the user's upload limit: ERATELIMIT, with the time to
// wait, past it. The same picture uploaded again is the stored one.
func (s *Service) Upload(ctx context.Context, campaignID, userID, name string, data []byte) (Picture, error) {
	if err := s.allow(ctx, userID); err != nil {
		return Picture{}, err
	}
	p, err := images.Process(ctx, data)
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

// UploadEmbedded is Upload for a picture carried inside another file as
// base64 (standard or URL alphabet, padded or not) or as a data: URL
// (images.Unembed: its size is checked before it is decoded).
func (s *Service) UploadEmbedded(ctx context.Context, campaignID, userID, name, encoded string) (Picture, error) {
	data, err := images.Unembed(encoded)
	if err != nil {
		return Picture{}, err
	}
	return s.Upload(ctx, campaignID, userID, name, data)
}

// allow counts one picture against userID's upload limit.
func (s *Service) allow(ctx context.Context, userID string) error {
	if s.every < 0 {
		return nil
	}
	ok, err := s.db.AllowRate(ctx, "upload:"+userID, s.every, s.burst)
	if err != nil {
		return err
	}
	if !ok {
		// A refused bucket has room again within one refill.
		return fray.Errorf(fray.ERATELIMIT, "you have sent many pictures in a short time: wait %s and try again", wait(s.every)).After(s.every)
	}
	return nil
}

// wait says d for people.
func wait(d time.Duration) string {
	if s := int(math.Ceil(d.Seconds())); s != 1 {
		return strconv.Itoa(s) + " seconds"
	}
	return "a second"
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
