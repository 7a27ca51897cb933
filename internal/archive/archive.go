// Package archive moves one campaign from a server to another: Write puts
// what store.ExportCampaign read into a single zip file, Read checks such
// a file whole — before anything is stored — and returns what
// store.ImportCampaign stores in one transaction.
//
// # The file
//
// A zip archive holding exactly these entries:
//
//	campaign.json                  the campaign, its characters and their revisions, the
//	                               bestiary, the drafts, the webhooks (without secrets)
//	encounters/<id>.json           one encounter with its whole log and hash chain
//	pictures.json                  the pictures' names and dates
//	pictures/<sha-256>.png|jpg     each picture as displayed (its name is its SHA-256)
//	pictures/<sha-256>.thumb.png|jpg   and its thumbnail
//	fray-campaign.json             the format, when and from which schema it was written, and
//	                               the SHA-256 of every other entry
//
// Nothing else is accepted: an entry with any other name (a path that
// climbs out, an absolute path, a second copy) is refused, so no name from
// the archive is ever used as a path. Reading is bounded — the file's size,
// the number of entries, each entry's size as declared and as read — and
// every JSON entry is read strictly (internal/strictjson). Every entry must
// match its SHA-256 in fray-campaign.json (a changed byte is refused, on
// top of zip's own CRC), every encounter's log must be gapless with its
// hash chain intact from the encounter's genesis, must fold onto its
// initial state under a ruleset this server has, and every picture must
// pass the picture checks of uploads (see checkPicture). Stat blocks,
// drafts and encounter setups pass prep's limits, as they do entering any
// other way, and the counts of every part are bounded.
//
// A campaign archive carries its encounters' dice secrets (an unfinished
// encounter rolls on from them): keep it as private as a backup.
package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/proof"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Format names this version of the file.
const Format = "fray-campaign 1"

// Bounds of an archive read.
const (
	// MaxBytes bounds the archive file.
	MaxBytes = 2 << 30
	// MaxEntries bounds its entries.
	MaxEntries = 20000
	// MaxJSONBytes bounds one JSON entry (an encounter's whole log).
	MaxJSONBytes = 256 << 20
	// MaxTotalBytes bounds all entries together, uncompressed.
	MaxTotalBytes = 4 << 30
)

const manifestName = "fray-campaign.json"

// Meta is the archive's description (fray-campaign.json).
type Meta struct {
	Format  string            `json:"format"`
	Created time.Time         `json:"created"`
	Schema  int               `json:"schema"`
	Entries map[string]string `json:"entries"` // name → SHA-256, hex
}

type pictureInfo struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

func extension(contentType string) string {
	if contentType == "image/jpeg" {
		return "jpg"
	}
	return "png"
}

// Write writes campaign a as an archive to w.
func Write(w io.Writer, a store.CampaignArchive, schema int) error {
	zw := zip.NewWriter(w)
	meta := Meta{Format: Format, Created: time.Now().UTC(), Schema: schema, Entries: map[string]string{}}
	put := func(name string, data []byte, method uint16) error {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: meta.Created})
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		meta.Entries[name] = hex.EncodeToString(sum[:])
		return nil
	}
	putJSON := func(name string, v any) error {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return put(name, data, zip.Deflate)
	}
	if err := putJSON("campaign.json", a); err != nil {
		return err
	}
	for _, e := range a.Encounters {
		if err := putJSON("encounters/"+e.ID+".json", e); err != nil {
			return err
		}
	}
	infos := make([]pictureInfo, len(a.Assets))
	for i, p := range a.Assets {
		infos[i] = pictureInfo{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt}
		// Pictures are compressed already.
		if err := put("pictures/"+p.ID+"."+extension(p.ContentType), p.Data, zip.Store); err != nil {
			return err
		}
		if err := put("pictures/"+p.ID+".thumb."+extension(p.ThumbType), p.Thumb, zip.Store); err != nil {
			return err
		}
	}
	if err := putJSON("pictures.json", infos); err != nil {
		return err
	}
	data, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	fw, err := zw.Create(manifestName)
	if err != nil {
		return err
	}
	if _, err := fw.Write(data); err != nil {
		return err
	}
	return zw.Close()
}

var (
	encounterEntry = regexp.MustCompile(`^encounters/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$`)
	pictureEntry   = regexp.MustCompile(`^pictures/([0-9a-f]{64})(\.thumb)?\.(png|jpg)$`)
)

// refuse is the error of a refused archive: EINVALID, saying that nothing
// was stored.
func refuse(format string, args ...any) error {
	return fray.Errorf(fray.EINVALID, "the campaign archive is refused, nothing was imported: "+format, args...)
}

// refused is err, from reading the archive's zip, saying that nothing was
// stored; its code is kept (an archive too large is ETOOLARGE).
func refused(err error) error {
	return fray.Errorf(fray.ErrorCode(err), "%s; nothing was imported", fray.ErrorMessage(err))
}

// Read checks the archive in r (size bytes) whole and returns the campaign
// it holds, ready for store.ImportCampaign. Any fault refuses the whole
// archive with a message that says what is wrong.
func Read(ctx context.Context, r io.ReaderAt, size int64, rulesets *engine.Registry) (store.CampaignArchive, Meta, error) {
	var a store.CampaignArchive
	if size > MaxBytes {
		return a, Meta{}, fray.Errorf(fray.ETOOLARGE, "the campaign archive is refused, nothing was imported: it is larger than %d bytes", MaxBytes)
	}
	// The one bounded path every archive takes: entries counted and
	// their declared sizes checked before anything is decompressed, names
	// that are plain relative paths, reads that stop at the declared size.
	z, err := intake.UnzipAt(r, size, intake.ZipLimits{What: "campaign archive", MaxFiles: MaxEntries, MaxFileBytes: max(MaxJSONBytes, images.MaxBytes), MaxTotalBytes: MaxTotalBytes})
	if err != nil {
		return a, Meta{}, refused(err)
	}
	files := map[string]intake.File{}
	for _, f := range z.Files {
		name := f.Name
		if name != manifestName && name != "campaign.json" && name != "pictures.json" && !encounterEntry.MatchString(name) && !pictureEntry.MatchString(name) {
			return a, Meta{}, refuse("it holds an entry named %q, which a campaign archive does not have", name)
		}
		if limit := entryLimit(name); f.Size > limit {
			return a, Meta{}, refuse("%s is %d bytes; at most %d are read", name, f.Size, limit)
		}
		files[name] = f
	}
	// read returns an entry's bytes and checks them against the manifest
	// (meta nil: the manifest itself).
	read := func(name string, meta *Meta) ([]byte, error) {
		f, ok := files[name]
		if !ok {
			return nil, refuse("it has no %s", name)
		}
		data, err := f.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, refused(err)
		}
		if meta != nil {
			sum := sha256.Sum256(data)
			if meta.Entries[name] != hex.EncodeToString(sum[:]) {
				return nil, refuse("%s was changed: it does not match the checksum the archive was written with", name)
			}
		}
		return data, nil
	}
	raw, err := read(manifestName, nil)
	if err != nil {
		return a, Meta{}, err
	}
	var meta Meta
	if err := strictjson.DecodeWith(raw, &meta, strictjson.Limits{MaxBytes: 4 << 20}); err != nil {
		return a, Meta{}, refuse("%s: %v", manifestName, err)
	}
	if meta.Format != Format {
		return a, Meta{}, refuse("it is in the format %q; this server reads %q", meta.Format, Format)
	}
	if meta.Schema > store.LatestSchema() {
		return a, Meta{}, refuse("it was written by a newer Fray (schema %d; this one knows up to %d)", meta.Schema, store.LatestSchema())
	}
	for name := range files {
		if _, ok := meta.Entries[name]; !ok && name != manifestName {
			return a, meta, refuse("%s is not listed in %s", name, manifestName)
		}
	}
	for name := range meta.Entries {
		if _, ok := files[name]; !ok {
			return a, meta, refuse("%s is listed but missing (was the archive cut short?)", name)
		}
	}

	raw, err = read("campaign.json", &meta)
	if err != nil {
		return a, meta, err
	}
	if err := strictjson.DecodeWith(raw, &a, strictjson.Limits{}); err != nil {
		return a, meta, refuse("campaign.json: %v", err)
	}
	if err := checkCampaign(a, rulesets); err != nil {
		return a, meta, refuse("campaign.json: %v", err)
	}
	raw, err = read("pictures.json", &meta)
	if err != nil {
		return a, meta, err
	}
	var infos []pictureInfo
	if err := strictjson.DecodeWith(raw, &infos, strictjson.Limits{}); err != nil {
		return a, meta, refuse("pictures.json: %v", err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return a, meta, err
		}
		m := encounterEntry.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		raw, err := read(name, &meta)
		if err != nil {
			return a, meta, err
		}
		var e store.ArchivedEncounter
		if err := strictjson.DecodeWith(raw, &e, strictjson.Limits{}); err != nil {
			return a, meta, refuse("%s: %v", name, err)
		}
		if e.ID != m[1] {
			return a, meta, refuse("%s holds encounter %q", name, e.ID)
		}
		if err := checkEncounter(e, rulesets); err != nil {
			return a, meta, refuse("encounter %q (%s): %v", e.Name, e.ID, err)
		}
		a.Encounters = append(a.Encounters, e)
		if len(a.Encounters) > MaxEncounters {
			return a, meta, refuse("more than %d encounters", MaxEncounters)
		}
	}
	seen := map[string]bool{}
	for _, info := range infos {
		if seen[info.ID] {
			return a, meta, refuse("pictures.json lists %s twice", info.ID)
		}
		seen[info.ID] = true
		p := store.Asset{ID: info.ID, Name: info.Name, CreatedAt: info.CreatedAt}
		for _, thumb := range []bool{false, true} {
			name := ""
			for _, ext := range []string{"png", "jpg"} {
				n := "pictures/" + info.ID + map[bool]string{true: ".thumb"}[thumb] + "." + ext
				if _, ok := files[n]; ok {
					name = n
				}
			}
			if name == "" {
				return a, meta, refuse("picture %s has no file", info.ID)
			}
			data, err := read(name, &meta)
			if err != nil {
				return a, meta, err
			}
			contentType, w, h, err := checkPicture(ctx, data)
			if err != nil {
				return a, meta, refuse("%s: %v", name, err)
			}
			if !strings.HasSuffix(name, "."+extension(contentType)) {
				return a, meta, refuse("%s is not the kind of picture its name says", name)
			}
			if thumb {
				p.Thumb, p.ThumbType = data, contentType
			} else {
				p.Data, p.ContentType, p.Width, p.Height = data, contentType, w, h
			}
		}
		if sum := sha256.Sum256(p.Data); hex.EncodeToString(sum[:]) != p.ID {
			return a, meta, refuse("picture %s is not the picture its name (its SHA-256) says", p.ID)
		}
		a.Assets = append(a.Assets, p)
	}
	for name := range files {
		if m := pictureEntry.FindStringSubmatch(name); m != nil && !seen[m[1]] {
			return a, meta, refuse("%s is not listed in pictures.json", name)
		}
	}
	return a, meta, nil
}

// entryLimit is the most an entry of the archive named name may hold.
func entryLimit(name string) int64 {
	if pictureEntry.MatchString(name) {
		return images.MaxBytes
	}
	return MaxJSONBytes
}

// checkPicture checks a picture from an archive as an upload is checked —
// the one place pictures from an archive are decoded, bounded in bytes and
// pixels (images.Process refuses bombs, markup and polyglots) — and
// returns its type and size. The bytes kept are the archive's own (their
// SHA-256 is the picture's id, which the campaign's pages and encounters
// name), so a picture that passes is one this server's own path made.
func checkPicture(ctx context.Context, data []byte) (contentType string, width, height int, err error) {
	format, err := images.Sniff(data)
	if err != nil {
		return "", 0, 0, err
	}
	switch format {
	case images.PNG:
		contentType = "image/png"
	case images.JPEG:
		contentType = "image/jpeg"
	default:
		return "", 0, 0, errors.New("a stored picture is a PNG or a JPEG")
	}
	p, err := images.Process(ctx, data)
	if err != nil {
		return "", 0, 0, err
	}
	return contentType, p.Display.Width, p.Display.Height, nil
}

// Bounds of a campaign's parts beyond prep's own (prep.MaxStatBlocks
// characters and bestiary entries, prep.MaxRevisions revisions a
// character).
const (
	MaxDrafts     = 1000
	MaxEncounters = 5000
)

// checkCampaign holds campaign.json to the limits of everything that
// enters a campaign another way: stat blocks and drafts through prep's
// checks, counts bounded.
func checkCampaign(a store.CampaignArchive, rulesets *engine.Registry) error {
	switch {
	case a.Name == "" || len(a.Name) > 200:
		return errors.New("the campaign needs a name of 1–200 characters")
	case len(a.Webhooks) > store.MaxWebhooks:
		return fmt.Errorf("%d webhooks; a campaign has at most %d", len(a.Webhooks), store.MaxWebhooks)
	case len(a.Characters) > prep.MaxStatBlocks || len(a.Bestiary) > prep.MaxStatBlocks:
		return fmt.Errorf("more than %d characters or bestiary entries", prep.MaxStatBlocks)
	case len(a.Drafts) > MaxDrafts:
		return fmt.Errorf("more than %d drafts", MaxDrafts)
	case len(a.Revisions) > prep.MaxRevisions*max(1, len(a.Characters)):
		return fmt.Errorf("more than %d revisions a character", prep.MaxRevisions)
	}
	for _, w := range a.Webhooks {
		if w.Format != "json" && w.Format != "discord" {
			return fmt.Errorf("a webhook of format %q", w.Format)
		}
	}
	for kind, bs := range map[string][]store.ArchivedStatBlock{"character": a.Characters, "bestiary entry": a.Bestiary} {
		for _, b := range bs {
			if err := prep.CheckStatBlock(b.ID, b.Name, b.Stats); err != nil {
				return fmt.Errorf("%s %q: %v", kind, b.ID, err)
			}
			if _, err := rulesets.Get(b.Ruleset); err != nil {
				return fmt.Errorf("%s %q: its ruleset %q is not on this server", kind, b.ID, b.Ruleset)
			}
		}
	}
	for _, v := range a.Revisions {
		if err := prep.CheckStats(v.Stats); err != nil {
			return fmt.Errorf("revision %d of %q: %v", v.Revision, v.CharacterID, err)
		}
	}
	for _, d := range a.Drafts {
		if len(d.Setup) > prep.MaxSetupBytes {
			return fmt.Errorf("draft %q is larger than %d bytes", d.Name, prep.MaxSetupBytes)
		}
		if _, err := prep.ReadSetup(rulesets, d.Setup); err != nil {
			return fmt.Errorf("draft %q: %v", d.Name, err)
		}
	}
	return nil
}

// checkEncounter checks an encounter's log: gapless from 1, each event's
// digest and link recomputed from its salt and body from the encounter's
// genesis, the columns kept beside each body equal to it, and the whole
// log folded onto its initial state under its ruleset. (The setup and the
// initial state are not in the chain: a forger who rewrites them and the
// checksums gets past the fold only with a state the log still folds
// onto.)
func checkEncounter(e store.ArchivedEncounter, rulesets *engine.Registry) error {
	if _, err := rulesets.Get(e.Ruleset); err != nil {
		return fmt.Errorf("its ruleset %q is not on this server", e.Ruleset)
	}
	if len(e.Setup) > prep.MaxSetupBytes {
		return fmt.Errorf("its setup is larger than %d bytes", prep.MaxSetupBytes)
	}
	if _, err := prep.ReadSetup(rulesets, e.Setup); err != nil {
		return fmt.Errorf("its setup: %v", err)
	}
	if e.DiceSecret != nil && len(e.DiceSecret) != 32 {
		return errors.New("its dice secret is not 32 bytes")
	}
	prev := proof.Genesis(e.ID)
	events := make([]engine.Event, len(e.Events))
	for i, v := range e.Events {
		if v.Seq != int64(i)+1 {
			return fmt.Errorf("its log has event %d where %d should be", v.Seq, i+1)
		}
		if len(v.Salt) != proof.SaltSize || len(v.Digest) != 32 || len(v.Link) != 32 {
			return fmt.Errorf("event %d is not chained", v.Seq)
		}
		d, err := proof.Digest(proof.Salt(v.Salt), v.Body)
		if err != nil {
			return fmt.Errorf("event %d: %v", v.Seq, err)
		}
		if !bytes.Equal(d[:], v.Digest) {
			return fmt.Errorf("event %d does not match its digest: the history was changed", v.Seq)
		}
		prev = proof.Link(prev, v.Seq, d)
		if !bytes.Equal(prev[:], v.Link) {
			return fmt.Errorf("event %d does not match its link: the history was changed", v.Seq)
		}
		if err := json.Unmarshal(v.Body, &events[i]); err != nil {
			return fmt.Errorf("event %d: %v", v.Seq, err)
		}
		// The columns beside the body are copies of it, for queries: the
		// chain covers only the body, so the copies must say the same.
		ev := events[i]
		if ev.Seq != v.Seq || ev.Kind != v.Kind || ev.Round != v.Round || ev.Actor != deref(v.Actor) || (v.Actor != nil && *v.Actor == "") {
			return fmt.Errorf("event %d: its kind, round or actor differ from its body: the history was changed", v.Seq)
		}
	}
	if _, _, err := play.Fold(rulesets, store.Live{ID: e.ID, Ruleset: e.Ruleset, Snapshot: e.InitialState, Events: events}); err != nil {
		return fmt.Errorf("its log does not fold onto its initial state: %v", err)
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
