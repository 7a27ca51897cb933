package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// handleExportCharacters downloads a campaign's characters with their
// whole history, oldest revision first: GET /campaigns/{id}/characters.json
// (GMs). The file imports into any campaign (handleImportCharacters).
func (s *Server) handleExportCharacters(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	ctx := r.Context()
	chars, err := s.characters().Characters(ctx, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := []characterJSON{}
	for _, c := range chars {
		revs, err := s.characters().Revisions(ctx, m.campaign, c.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		cj := characterJSON{ID: c.ID, Name: c.Name, Ruleset: c.Ruleset, Revision: c.Revision, Stats: c.Stats, Revisions: []revisionJSON{}}
		for i := len(revs) - 1; i >= 0; i-- {
			cj.Revisions = append(cj.Revisions, revisionOut(revs[i]))
		}
		out = append(out, cj)
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="characters.json"`)
	_, _ = w.Write(append(data, '\n'))
}

// handleImportCharacters adds the characters of a characters file (the
// export's format; revisions optional) to the campaign, all or none: POST
// /campaigns/{id}/characters/import (GMs, multipart "file").
func (s *Server) handleImportCharacters(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	n, err := s.importCharacters(r, m)
	if err != nil {
		campaignRedirect(w, r, m.campaign, "error", "The characters were not imported: "+errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, "notice", "Imported "+strconv.Itoa(n)+" characters with their history.")
}

func (s *Server) importCharacters(r *http.Request, m membership) (int, error) {
	data, err := readJSONFile(r)
	if err != nil {
		return 0, err
	}
	var entries []characterJSON
	if err := strictjson.DecodeWith(data, &entries, strictjson.Limits{MaxDepth: prep.MaxDepth}); err != nil {
		return 0, fray.Errorf(fray.EINVALID, "not a characters file (a JSON array of {id, name, ruleset, stats, revisions}): %s", fray.ErrorMessage(err))
	}
	if len(entries) > prep.MaxStatBlocks {
		return 0, fray.Errorf(fray.EINVALID, "a characters file holds at most %d characters, not %d", prep.MaxStatBlocks, len(entries))
	}
	var imports []store.CharacterImport
	seen := map[string]bool{}
	for i, e := range entries {
		ci, err := s.characterImport(e, m)
		if err != nil {
			return 0, fray.Errorf(errCode(err), "character %d (%.40q): %s", i+1, e.Name, errMessage(err))
		}
		if seen[ci.Block.ID] {
			return 0, fray.Errorf(fray.EINVALID, "character %d: id %q is used twice", i+1, ci.Block.ID)
		}
		seen[ci.Block.ID] = true
		imports = append(imports, ci)
	}
	if err := s.characters().ImportCharacters(r.Context(), m.campaign, imports); err != nil {
		return 0, err
	}
	return len(imports), nil
}

// characterImport checks one character of a file: its stats as the
// ruleset validates a sheet, its revisions numbered upwards with known
// kinds; the import itself becomes its newest revision.
func (s *Server) characterImport(e characterJSON, m membership) (store.CharacterImport, error) {
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
	ci := store.CharacterImport{Block: store.StatBlock{ID: e.ID, Ruleset: rs.ID(), Name: e.Name, Stats: e.Stats}}
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
		Changes: changes, UserID: m.user.ID, UserName: m.user.Name}
	return ci, nil
}

// readJSONFile reads the form's "file", at most prep.MaxSetupBytes.
func readJSONFile(r *http.Request) ([]byte, error) {
	f, _, err := r.FormFile("file")
	if err != nil {
		if strings.Contains(err.Error(), "too large") {
			return nil, fray.Errorf(fray.ETOOLARGE, "the file is larger than 1 MiB")
		}
		return nil, fray.Errorf(fray.EINVALID, "choose a file (JSON, at most 1 MiB)")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, prep.MaxSetupBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > prep.MaxSetupBytes {
		return nil, fray.Errorf(fray.ETOOLARGE, "the file is larger than 1 MiB")
	}
	return data, nil
}
