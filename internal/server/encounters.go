package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
)

// Encounters makes encounters: from setup documents, the shipped examples
// and other encounters; *prep.Service is one.
type Encounters interface {
	// Prepare validates a setup document, storing nothing; Save stores it.
	Prepare(data []byte) (prep.Prepared, error)
	Save(ctx context.Context, campaignID string, p prep.Prepared) (store.Encounter, error)
	Import(ctx context.Context, campaignID string, data []byte) (store.Encounter, error)
	Examples() ([]prep.Example, error)
	AddExample(ctx context.Context, campaignID, name string) (store.Encounter, error)
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	// Duplicate copies an encounter's setup into a new draft.
	Duplicate(ctx context.Context, e store.Encounter) (store.Draft, error)
}

// defaultCampaign holds encounters imported without naming a campaign.
const defaultCampaign = "Imported encounters"

// handleAddExample adds one of the shipped example encounters:
// POST /campaigns/{id}/encounters/example (example; GMs).
func (s *Server) handleAddExample(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	e, err := s.Encounters.AddExample(r.Context(), m.campaign, r.PostFormValue("example"))
	if err != nil {
		campaignRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Added "+e.Name+".")
}

// handleImportFile imports an uploaded encounter file; a bad file stores
// nothing: POST /campaigns/{id}/encounters/import (multipart file; GMs).
func (s *Server) handleImportFile(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	e, ok := importUpload(w, r, m.campaign, "The file was not imported", func(data []byte) (store.Encounter, error) {
		return s.Encounters.Import(r.Context(), m.campaign, data)
	})
	if !ok {
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Imported "+e.Name+".")
}

// handleImportEncounter creates an encounter from a setup document (the
// format of examples/encounters) in a campaign the caller runs:
// POST /api/campaigns/{id}/encounters, or POST /api/encounters?campaign=ID;
// without a campaign, a new one with the caller as GM. An invalid document
// stores nothing.
func (s *Server) handleImportEncounter(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	campaignID := chi.URLParam(r, "id")
	if campaignID == "" {
		campaignID = r.URL.Query().Get("campaign")
	}
	if campaignID != "" {
		if _, ok := s.gmOf(w, r, campaignID); !ok {
			return
		}
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, prep.MaxSetupBytes+1))
	if err != nil {
		writeError(w, r, fray.Errorf(fray.ETOOLARGE, "request body is too large"))
		return
	}
	if len(data) > prep.MaxSetupBytes {
		writeError(w, r, fray.Errorf(fray.ETOOLARGE, "encounter file is larger than %d bytes", prep.MaxSetupBytes))
		return
	}
	prepared, err := s.Encounters.Prepare(data)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if campaignID == "" {
		c, err := s.Campaigns.Create(r.Context(), defaultCampaign, u.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		campaignID = c.ID
	}
	e, err := s.Encounters.Save(r.Context(), campaignID, prepared)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": e.ID, "campaign": e.CampaignID, "name": e.Name, "ruleset": e.Ruleset, "status": e.Status,
		"url": "/encounters/" + e.ID,
	})
}

// encounterForGM loads the request's encounter row for one of its GMs.
func (s *Server) encounterForGM(w http.ResponseWriter, r *http.Request) (store.Encounter, bool) {
	if _, ok := requireUser(w, r); !ok {
		return store.Encounter{}, false
	}
	e, err := s.Encounters.Encounter(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		writeError(w, r, err)
		return e, false
	}
	_, ok := s.gmOf(w, r, e.CampaignID)
	return e, ok
}

// handleEncounterSetup downloads an encounter's setup document:
// GET /encounters/{id}/setup.json (GMs).
func (s *Server) handleEncounterSetup(w http.ResponseWriter, r *http.Request) {
	e, ok := s.encounterForGM(w, r)
	if !ok {
		return
	}
	writeSetupFile(w, e.Name, e.Setup)
}

// handleDuplicateEncounter copies an encounter's setup into a new draft:
// POST /encounters/{id}/duplicate (GMs).
func (s *Server) handleDuplicateEncounter(w http.ResponseWriter, r *http.Request) {
	e, ok := s.encounterForGM(w, r)
	if !ok {
		return
	}
	d, err := s.Encounters.Duplicate(r.Context(), e)
	if err != nil {
		campaignRedirect(w, r, e.CampaignID, flashError, "No draft was made: "+errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, flashNotice, "Duplicated "+e.Name+" as a draft.")
}

// writeSetupFile downloads a setup document, indented.
func writeSetupFile(w http.ResponseWriter, name string, setup []byte) {
	var v any
	if err := json.Unmarshal(setup, &v); err == nil {
		if b, err := json.MarshalIndent(v, "", "  "); err == nil {
			setup = b
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="`+sheet.Slug(name)+`.json"`)
	_, _ = w.Write(append(setup, '\n'))
}

// importUpload reads the JSON file a GM uploaded from campaign's page and
// hands it to importFile. A file that cannot be read, or that importFile
// refuses, sends the GM back to the campaign page with notImported and the
// reason, and ok is false.
func importUpload[T any](w http.ResponseWriter, r *http.Request, campaign, notImported string, importFile func(data []byte) (T, error)) (out T, ok bool) {
	data, err := readJSONFile(r)
	if err == nil {
		out, err = importFile(data)
	}
	if err != nil {
		campaignRedirect(w, r, campaign, flashError, notImported+": "+errMessage(err))
		return out, false
	}
	return out, true
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

// draftRedirect goes to a draft's page, leaving msg as its notice or error
// (key flashNotice or flashError).
func draftRedirect(w http.ResponseWriter, r *http.Request, id, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/drafts/"+url.PathEscape(id), http.StatusSeeOther)
}
