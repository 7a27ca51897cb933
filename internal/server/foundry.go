package server

import (
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"path"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/characters"
	"github.com/fray-vtt/fray/internal/foundry"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/statblock"
	"github.com/fray-vtt/fray/web"
)

// handleFoundryImport takes actors exported from Foundry VTT into the
// bestiary or the player characters: POST
// /campaigns/{id}/{bestiary|pcs}/foundry (GMs; multipart: one or more
// "file", the "ruleset" whose mapping reads them, and "pictures" the
// actors' img paths name). Every actor of every file is read and checked
// first; one bad file or actor stores nothing and says which field. Then
// the portraits are kept (an inline one, or one uploaded alongside) and
// the entries stored through the bestiary's or characters' import, all
// or none. The page that answers lists, per actor, what was assumed and
// every field not mapped.
func (s *Server) handleFoundryImport(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	kind := chi.URLParam(r, "kind")
	fail := func(err error) {
		campaignRedirect(w, r, m.campaign, flashError, "Nothing was imported from Foundry: "+errMessage(err))
	}
	if err := r.ParseMultipartForm(maxUploadBytes); err != nil {
		fail(bodyError(err))
		return
	}
	defer func() { _ = r.MultipartForm.RemoveAll() }()
	rs, err := s.Rulesets.Get(r.PostForm.Get("ruleset"))
	if err != nil {
		fail(err)
		return
	}
	mapper, ok := rs.(foundry.Mapper)
	if !ok {
		fail(fray.Errorf(fray.EINVALID, "%s reads no Foundry system's actors", rs.ID()))
		return
	}
	schema, err := prep.SchemaOf(rs)
	if err != nil {
		fail(err)
		return
	}
	files := r.MultipartForm.File["file"]
	if len(files) == 0 {
		fail(fray.Errorf(fray.EINVALID, "choose one or more Foundry actor files"))
		return
	}
	type read struct {
		actor *foundry.Actor
		rep   statblock.Report
		stats json.RawMessage
		id    string
	}
	var all []read
	used := map[string]bool{"new": true, "import": true, "paste": true}
	for _, fh := range files {
		data, err := readPart(fh, foundry.MaxBytes, "Foundry file")
		if err != nil {
			fail(fmt.Errorf("%s: %w", fh.Filename, err))
			return
		}
		actors, err := foundry.Decode(data)
		if err != nil {
			fail(fray.Errorf(fray.ErrorCode(err), "%s: %s", fh.Filename, fray.ErrorMessage(err)))
			return
		}
		for i, a := range actors {
			where := fmt.Sprintf("%s, actor %d (%.40q)", fh.Filename, i+1, a.Name)
			if a.SystemID != "" && a.SystemID != mapper.FoundrySystem() {
				fail(fray.Errorf(fray.EINVALID, "%s: field _stats.systemId is %q; %s reads %q actors", where, a.SystemID, rs.ID(), mapper.FoundrySystem()))
				return
			}
			b := statblock.NewBuilder(a.Name)
			mapper.FromFoundry(a, b)
			rep := b.Report()
			stats, err := schema.ParseForm(rep.Values)
			if err != nil {
				fail(fray.Errorf(fray.EINVALID, "%s: %s", where, fray.ErrorMessage(err)))
				return
			}
			if len(all) >= prep.MaxStatBlocks {
				fail(fray.Errorf(fray.EINVALID, "at most %d actors at once", prep.MaxStatBlocks))
				return
			}
			all = append(all, read{actor: a, rep: rep, stats: stats, id: sheet.UniqueSlug(a.Name, used)})
			used[all[len(all)-1].id] = true
		}
	}
	pictures := map[string]*multipart.FileHeader{}
	for _, fh := range r.MultipartForm.File["pictures"] {
		pictures[path.Base(fh.Filename)] = fh
	}
	out := web.FoundryResultProps{CampaignID: m.campaign, Kind: kind, Ruleset: rs.ID()}
	var bestiary []prep.BestiaryEntry
	var chars []characters.Entry
	for _, rd := range all {
		portrait, note := s.foundryPortrait(r, m, rd.actor.Img, pictures)
		out.Actors = append(out.Actors, web.FoundryActor{ID: rd.id, Name: rd.actor.Name, Filled: len(rd.rep.Filled), Assumed: rd.rep.Assumed,
			Unmapped: rd.actor.Unmapped(), Portrait: note})
		bestiary = append(bestiary, prep.BestiaryEntry{ID: rd.id, Name: rd.actor.Name, Ruleset: rs.ID(), Stats: rd.stats, Portrait: portrait})
		chars = append(chars, characters.Entry{ID: rd.id, Name: rd.actor.Name, Ruleset: rs.ID(), Stats: rd.stats, Portrait: portrait})
	}
	if kind == "pcs" {
		data, _ := json.Marshal(chars)
		_, err = s.Characters.Import(r.Context(), m.campaign, characters.User{ID: m.user.ID, Name: m.user.Name}, data)
	} else {
		data, _ := json.Marshal(bestiary)
		_, err = s.StatBlocks.ImportBestiary(r.Context(), m.campaign, data)
	}
	if err != nil {
		fail(err)
		return
	}
	render(w, r, web.FoundryResult(out))
}

// readPart reads an uploaded part, at most max bytes.
func readPart(fh *multipart.FileHeader, max int64, what string) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "the %s could not be read", what)
	}
	defer f.Close()
	return intake.Read(f, max, what)
}

// foundryPortrait keeps an actor's portrait: inline (a data: URL), or
// the picture uploaded alongside under its img path's file name. It
// returns the picture's URL ("" when none was kept) and what happened,
// for the report.
func (s *Server) foundryPortrait(r *http.Request, m membership, img string, pictures map[string]*multipart.FileHeader) (string, string) {
	img = strings.TrimSpace(img)
	if img == "" {
		return "", "No portrait."
	}
	var data []byte
	var err error
	switch fh, alongside := pictures[path.Base(img)]; {
	case strings.HasPrefix(img, "data:"):
		data, err = images.Unembed(img)
	case alongside:
		data, err = readPart(fh, images.MaxBytes, "picture")
	default:
		return "", fmt.Sprintf("Portrait %.80q not kept: the file names it but does not carry it; upload it alongside.", img)
	}
	if err == nil {
		pic, err := s.Pictures.Upload(r.Context(), m.campaign, m.user.ID, path.Base(img), data)
		if err == nil {
			return pic.URL, "Portrait kept."
		}
		return "", "Portrait not kept: " + errMessage(err)
	}
	return "", "Portrait not kept: " + errMessage(err)
}
