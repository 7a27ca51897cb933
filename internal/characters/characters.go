// Package characters keeps a campaign's characters: stat blocks that
// outlive encounters, versioned — every change (the GM's editor, an
// encounter's carry-over, an import) is a revision that says what changed —
// and readable by the campaign's GMs and the player who owns each. Their
// file format (Entry, a JSON array) moves them with their history between
// campaigns and servers.
package characters

import (
	"context"
	"encoding/json"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Store is what characters need; *store.DB provides it.
type Store interface {
	Characters(ctx context.Context, campaignID string) ([]store.Character, error)
	Character(ctx context.Context, campaignID, id string) (store.Character, error)
	Revisions(ctx context.Context, campaignID, characterID string) ([]store.Revision, error)
	ImportCharacters(ctx context.Context, campaignID string, cs []store.CharacterImport) error
	CharacterOwners(ctx context.Context, campaignID string) (map[string]string, error)
	Members(ctx context.Context, campaignID string) ([]store.Member, error)
}

// Service reads and imports characters.
type Service struct {
	db    Store
	rules *engine.Registry
}

// New returns a Service over db for the rulesets of rules.
func New(db Store, rules *engine.Registry) *Service { return &Service{db: db, rules: rules} }

// Reader is who reads a campaign's characters: one of its GMs, who may
// read them all, or a player, who may read their own (Characters).
type Reader struct {
	GM         bool
	Characters []string
}

func (r Reader) may(id string) bool {
	if r.GM {
		return true
	}
	for _, c := range r.Characters {
		if c == id {
			return true
		}
	}
	return false
}

// Character is campaignID's character id for r; one r may not read is
// ENOTFOUND, exactly as one that does not exist, so players cannot learn
// about others' characters.
func (s *Service) Character(ctx context.Context, campaignID, id string, r Reader) (store.Character, error) {
	if !r.may(id) {
		return store.Character{}, fray.Errorf(fray.ENOTFOUND, "character %q not found", id)
	}
	return s.db.Character(ctx, campaignID, id)
}

// Visible lists the campaign's characters r may read, with their current
// stats.
func (s *Service) Visible(ctx context.Context, campaignID string, r Reader) ([]store.Character, error) {
	all, err := s.db.Characters(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, c := range all {
		if r.may(c.ID) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Revisions lists a character's revisions, newest first.
func (s *Service) Revisions(ctx context.Context, campaignID, characterID string) ([]store.Revision, error) {
	return s.db.Revisions(ctx, campaignID, characterID)
}

// Owner is the name of the member who owns a character; "" for nobody.
func (s *Service) Owner(ctx context.Context, campaignID, characterID string) (string, error) {
	owners, err := s.db.CharacterOwners(ctx, campaignID)
	if err != nil || owners[characterID] == "" {
		return "", err
	}
	members, err := s.db.Members(ctx, campaignID)
	if err != nil {
		return "", err
	}
	for _, m := range members {
		if m.UserID == owners[characterID] {
			return m.Name, nil
		}
	}
	return "", nil
}

// Entry is a character in the API and in characters files.
type Entry struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Ruleset   string          `json:"ruleset"`
	Revision  int             `json:"revision,omitempty"`
	Stats     json.RawMessage `json:"stats"`
	Portrait  string          `json:"portrait,omitempty"` // its picture's URL; an import keeps it where the campaign holds that picture
	Revisions []RevisionEntry `json:"revisions,omitempty"`
}

// RevisionEntry is one revision of a character.
type RevisionEntry struct {
	Revision      int             `json:"revision"`
	Kind          string          `json:"kind"`
	Name          string          `json:"name,omitempty"`
	Stats         json.RawMessage `json:"stats"`
	Changes       []sheet.Change  `json:"changes"`
	EncounterID   string          `json:"encounterId,omitempty"`
	EncounterName string          `json:"encounterName,omitempty"`
	By            string          `json:"by,omitempty"`
	At            time.Time       `json:"at"`
}

// EntryOf is c as an Entry, without revisions.
func EntryOf(c store.Character) Entry {
	return Entry{ID: c.ID, Name: c.Name, Ruleset: c.Ruleset, Revision: c.Revision, Stats: c.Stats, Portrait: c.Portrait}
}

// RevisionOf is v as a RevisionEntry.
func RevisionOf(v store.Revision) RevisionEntry {
	changes := v.Changes
	if changes == nil {
		changes = []sheet.Change{}
	}
	return RevisionEntry{Revision: v.Revision, Kind: v.Kind, Name: v.Name, Stats: v.Stats, Changes: changes,
		EncounterID: v.EncounterID, EncounterName: v.EncounterName, By: v.UserName, At: v.CreatedAt.UTC()}
}

// Export is a campaign's characters file: every character with its whole
// history, oldest revision first. It imports into any campaign (Import).
func (s *Service) Export(ctx context.Context, campaignID string) ([]Entry, error) {
	chars, err := s.db.Characters(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for _, c := range chars {
		revs, err := s.db.Revisions(ctx, campaignID, c.ID)
		if err != nil {
			return nil, err
		}
		e := EntryOf(c)
		e.Revisions = []RevisionEntry{}
		for i := len(revs) - 1; i >= 0; i-- {
			e.Revisions = append(e.Revisions, RevisionOf(revs[i]))
		}
		out = append(out, e)
	}
	return out, nil
}

// User is who imports: their id and name go into the revision the import
// makes.
type User struct{ ID, Name string }

// Import adds the characters of a characters file (Export's format;
// revisions optional) to campaignID, all or none, and says how many.
func (s *Service) Import(ctx context.Context, campaignID string, by User, data []byte) (int, error) {
	var entries []Entry
	if err := strictjson.DecodeWith(data, &entries, strictjson.Limits{MaxDepth: prep.MaxDepth, File: "characters file"}); err != nil {
		if fray.ErrorCode(err) == fray.EBUSY {
			return 0, err
		}
		return 0, fray.Errorf(fray.EINVALID, "not a characters file (a JSON array of {id, name, ruleset, stats, revisions}): %s", fray.ErrorMessage(err))
	}
	if len(entries) > prep.MaxStatBlocks {
		return 0, fray.Errorf(fray.EINVALID, "a characters file holds at most %d characters, not %d", prep.MaxStatBlocks, len(entries))
	}
	var imports []store.CharacterImport
	seen := map[string]bool{}
	for i, e := range entries {
		ci, err := s.check(e, by)
		if err != nil {
			return 0, fray.Errorf(fray.ErrorCode(err), "character %d (%.40q): %s", i+1, e.Name, fray.ErrorMessage(err))
		}
		if seen[ci.Block.ID] {
			return 0, fray.Errorf(fray.EINVALID, "character %d: id %q is used twice", i+1, ci.Block.ID)
		}
		seen[ci.Block.ID] = true
		imports = append(imports, ci)
	}
	if err := s.db.ImportCharacters(ctx, campaignID, imports); err != nil {
		return 0, err
	}
	return len(imports), nil
}

// check checks one character of a file: its stats as the ruleset
// validates a sheet, its revisions numbered upwards with known kinds; the
// import itself becomes its newest revision.
func (s *Service) check(e Entry, by User) (store.CharacterImport, error) {
	rs, err := s.rules.Get(e.Ruleset)
	if err != nil {
		return store.CharacterImport{}, err
	}
	if e.ID == "" {
		e.ID = sheet.Slug(e.Name)
	}
	if err := prep.CheckStatBlock(e.ID, e.Name, e.Stats); err != nil {
		return store.CharacterImport{}, err
	}
	if len(e.Revisions) > prep.MaxRevisions {
		return store.CharacterImport{}, fray.Errorf(fray.EINVALID, "at most %d revisions, not %d", prep.MaxRevisions, len(e.Revisions))
	}
	if d, ok := rs.(sheet.Deriver); ok {
		if _, err := d.Derive(e.Stats); err != nil {
			return store.CharacterImport{}, err
		}
	}
	if err := engine.CheckAsset("the portrait", e.Portrait); err != nil {
		return store.CharacterImport{}, err
	}
	ci := store.CharacterImport{Block: store.StatBlock{ID: e.ID, Ruleset: rs.ID(), Name: e.Name, Stats: e.Stats, Portrait: e.Portrait}}
	last := 0
	var lastStats json.RawMessage
	for _, v := range e.Revisions {
		if v.Revision <= last {
			return ci, fray.Errorf(fray.EINVALID, "revisions must be numbered upwards from 1 (revision %d after %d)", v.Revision, last)
		}
		switch v.Kind {
		case store.RevisionCreated, store.RevisionEdited, store.RevisionCarried, store.RevisionImported:
		default:
			return ci, fray.Errorf(fray.EINVALID, "revision %d: unknown kind %q", v.Revision, v.Kind)
		}
		if err := prep.CheckStats(v.Stats); err != nil {
			return ci, fray.Errorf(fray.EINVALID, "revision %d: %s", v.Revision, fray.ErrorMessage(err))
		}
		if err := prep.CheckRevisionText(v.Name, v.EncounterName, v.By, v.Changes); err != nil {
			return ci, fray.Errorf(fray.EINVALID, "revision %d: %s", v.Revision, fray.ErrorMessage(err))
		}
		ci.Revisions = append(ci.Revisions, store.Revision{Revision: v.Revision, Name: v.Name, Stats: v.Stats, Kind: v.Kind,
			Changes: v.Changes, EncounterName: v.EncounterName, UserName: v.By, CreatedAt: v.At})
		last, lastStats = v.Revision, v.Stats
	}
	var changes []sheet.Change
	if sc, ok := rs.(sheet.Schemaer); ok && lastStats != nil {
		changes, _ = sc.Schema().Diff(lastStats, e.Stats)
	}
	ci.Import = store.Revision{Revision: last + 1, Name: e.Name, Stats: e.Stats, Kind: store.RevisionImported,
		Changes: changes, UserID: by.ID, UserName: by.Name}
	return ci, nil
}
