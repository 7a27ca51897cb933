package prep

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// StatBlock is one of campaignID's stat blocks of kind (store.KindBestiary
// or store.KindCharacter).
func (s *Service) StatBlock(ctx context.Context, kind, campaignID, id string) (store.StatBlock, error) {
	return s.db.StatBlock(ctx, kind, campaignID, id)
}

// DeleteStatBlock deletes one.
func (s *Service) DeleteStatBlock(ctx context.Context, kind, campaignID, id string) error {
	return s.db.DeleteStatBlock(ctx, kind, campaignID, id)
}

// StatSave is a stat block from the GM's stat editor.
type StatSave struct {
	Kind, CampaignID string
	// ID is the stat block's; empty makes a new one (its id made from its
	// name).
	ID            string
	Name, Ruleset string // Ruleset is a new one's: a stat block keeps its ruleset
	Form          url.Values
	// By is the GM saving; a player character's sheet keeps their name in
	// the revision it makes.
	ByID, ByName string
}

// SchemaOf is rs's stat block editor; a ruleset without one is EINVALID.
func SchemaOf(rs engine.Ruleset) (sheet.Schema, error) {
	sc, ok := rs.(sheet.Schemaer)
	if !ok {
		return sheet.Schema{}, fray.Errorf(fray.EINVALID, "ruleset %s has no stat block editor", rs.ID())
	}
	return sc.Schema(), nil
}

// SaveStatBlock creates or updates a stat block from the schema form and
// returns its id. Stats the ruleset refuses store nothing. A player
// character's sheet is saved as a revision that says what changed.
func (s *Service) SaveStatBlock(ctx context.Context, in StatSave) (string, error) {
	var oldStats json.RawMessage
	if in.ID != "" {
		old, err := s.db.StatBlock(ctx, in.Kind, in.CampaignID, in.ID)
		if err != nil {
			return "", err
		}
		in.Ruleset, oldStats = old.Ruleset, old.Stats
	}
	rs, err := s.rules.Get(in.Ruleset)
	if err != nil {
		return "", err
	}
	schema, err := SchemaOf(rs)
	if err != nil {
		return "", err
	}
	stats, err := schema.ParseForm(in.Form)
	if err != nil {
		return "", err
	}
	if d, ok := rs.(sheet.Deriver); ok {
		if _, err := d.Derive(stats); err != nil {
			return "", err
		}
	}
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return "", fray.Errorf(fray.EINVALID, "a stat block needs a name")
	}
	checkID := in.ID
	if checkID == "" {
		checkID = "new"
	}
	if err := CheckStatBlock(checkID, name, stats); err != nil {
		return "", err
	}
	id := in.ID
	if id == "" {
		used := map[string]bool{"new": true, "import": true, "paste": true}
		existing, err := s.db.StatBlocks(ctx, in.Kind, in.CampaignID)
		if err != nil {
			return "", err
		}
		for _, b := range existing {
			used[b.ID] = true
		}
		id = sheet.UniqueSlug(name, used)
	}
	block := store.StatBlock{ID: id, CampaignID: in.CampaignID, Ruleset: rs.ID(), Name: name, Stats: stats}
	if in.Kind != store.KindCharacter {
		return id, s.db.SaveStatBlocks(ctx, in.Kind, in.ID == "", []store.StatBlock{block})
	}
	save := store.CharacterSave{Block: block, Create: in.ID == "", Kind: store.RevisionEdited, UserID: in.ByID, UserName: in.ByName}
	if save.Create {
		save.Kind = store.RevisionCreated
	} else if changes, err := schema.Diff(oldStats, stats); err == nil {
		save.Changes = changes
	}
	_, err = s.db.SaveCharacter(ctx, save)
	return id, err
}

// BestiaryEntry is one entry of a bestiary file.
type BestiaryEntry struct {
	ID      string          `json:"id"`
	Name    string          `json:"name"`
	Ruleset string          `json:"ruleset"`
	Stats   json.RawMessage `json:"stats"`
	// Portrait is one of the campaign's pictures, by URL or asset id
	// (optional; an entry without one keeps the one it has).
	Portrait string `json:"portrait,omitempty"`
}

// PortraitURL reads a portrait given by a picture's URL or its asset id
// (the SHA-256 in hex); "" is none.
func PortraitURL(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p != "" && !strings.HasPrefix(p, engine.AssetPrefix) {
		p = engine.AssetPrefix + p
	}
	if err := engine.CheckAsset("a portrait", p); err != nil {
		return "", err
	}
	return p, nil
}

// SetPortrait sets (or, with "", clears) the portrait of one of
// campaignID's bestiary entries or characters: a picture of the campaign,
// by URL or asset id.
func (s *Service) SetPortrait(ctx context.Context, kind, campaignID, id, portrait string) error {
	p, err := PortraitURL(portrait)
	if err != nil {
		return err
	}
	return s.db.SetPortrait(ctx, kind, campaignID, id, p)
}

// Bestiary is campaignID's bestiary file.
func (s *Service) Bestiary(ctx context.Context, campaignID string) ([]BestiaryEntry, error) {
	bs, err := s.db.StatBlocks(ctx, store.KindBestiary, campaignID)
	if err != nil {
		return nil, err
	}
	out := []BestiaryEntry{}
	for _, b := range bs {
		out = append(out, BestiaryEntry{ID: b.ID, Name: b.Name, Ruleset: b.Ruleset, Stats: b.Stats, Portrait: b.Portrait})
	}
	return out, nil
}

// ImportBestiary adds or replaces the entries of a bestiary file (a JSON
// array of BestiaryEntry) in campaignID, all or none: a malformed file or
// any invalid entry stores nothing. It says how many it stored.
func (s *Service) ImportBestiary(ctx context.Context, campaignID string, data []byte) (int, error) {
	var entries []BestiaryEntry
	if err := strictjson.DecodeWith(data, &entries, strictjson.Limits{MaxDepth: MaxDepth, File: "bestiary file"}); err != nil {
		if fray.ErrorCode(err) == fray.EBUSY {
			return 0, err
		}
		return 0, fray.Errorf(fray.EINVALID, "not a bestiary file (a JSON array of {id, name, ruleset, stats}): %s", fray.ErrorMessage(err))
	}
	if len(entries) > MaxStatBlocks {
		return 0, fray.Errorf(fray.EINVALID, "a bestiary file holds at most %d entries, not %d", MaxStatBlocks, len(entries))
	}
	var bs []store.StatBlock
	seen := map[string]bool{}
	for i, e := range entries {
		rs, err := s.rules.Get(e.Ruleset)
		if err != nil {
			return 0, fray.Errorf(fray.EINVALID, "entry %d: %s", i+1, fray.ErrorMessage(err))
		}
		if e.ID == "" {
			e.ID = sheet.Slug(e.Name)
		}
		if err := CheckStatBlock(e.ID, e.Name, e.Stats); err != nil {
			return 0, fray.Errorf(fray.EINVALID, "entry %d: %s", i+1, fray.ErrorMessage(err))
		}
		if seen[e.ID] {
			return 0, fray.Errorf(fray.EINVALID, "entry %d: id %q is used twice", i+1, e.ID)
		}
		seen[e.ID] = true
		if d, ok := rs.(sheet.Deriver); ok {
			if _, err := d.Derive(e.Stats); err != nil {
				return 0, fray.Errorf(fray.EINVALID, "entry %d (%.40q): %s", i+1, e.Name, fray.ErrorMessage(err))
			}
		}
		portrait, err := PortraitURL(e.Portrait)
		if err != nil {
			return 0, fray.Errorf(fray.EINVALID, "entry %d: %s", i+1, fray.ErrorMessage(err))
		}
		bs = append(bs, store.StatBlock{ID: e.ID, CampaignID: campaignID, Ruleset: rs.ID(), Name: e.Name, Stats: e.Stats, Portrait: portrait})
	}
	if err := s.db.SaveStatBlocks(ctx, store.KindBestiary, false, bs); err != nil {
		return 0, err
	}
	return len(bs), nil
}
