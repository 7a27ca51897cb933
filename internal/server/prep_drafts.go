package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// draftOf loads the request's draft for one of its campaign's GMs; others
// are told it does not exist or is forbidden, as for campaigns.
func (s *Server) draftOf(w http.ResponseWriter, r *http.Request) (store.Draft, membership, bool) {
	if _, ok := s.requireUser(w, r); !ok {
		return store.Draft{}, membership{}, false
	}
	d, err := s.prep().Draft(r.Context(), chi.URLParam(r, "draft"))
	if err != nil {
		writeError(w, r, err)
		return store.Draft{}, membership{}, false
	}
	m, ok := s.gmOf(w, r, d.CampaignID)
	return d, m, ok
}

// draftRedirect goes back to the draft's page, leaving msg as its notice
// or error (key flashNotice or flashError).
func draftRedirect(w http.ResponseWriter, r *http.Request, id, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/drafts/"+url.PathEscape(id), http.StatusSeeOther)
}

func decodeDraft(d store.Draft) (engine.Setup, error) {
	var s engine.Setup
	if err := json.Unmarshal(d.Setup, &s); err != nil {
		return s, fray.Errorf(fray.EINVALID, "the draft is damaged: %v", err)
	}
	return s, nil
}

// draftData checks a draft's setup against the limits every
// encounter entering Fray keeps (prep.CheckSetup) and encodes it.
func (s *Server) draftData(setup engine.Setup) ([]byte, error) {
	if err := prep.CheckSetup(s.rules, setup); err != nil {
		return nil, err
	}
	data, err := json.Marshal(setup)
	if err != nil {
		return nil, err
	}
	if len(data) > prep.MaxSetupBytes {
		return nil, fray.Errorf(fray.ETOOLARGE, "the encounter would be larger than 1 MiB")
	}
	return data, nil
}

func (s *Server) handleNewDraft(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	rs, err := s.rules.Get(r.PostFormValue("ruleset"))
	if err != nil {
		campaignRedirect(w, r, m.campaign, "error", errMessage(err))
		return
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if name == "" {
		name = "New encounter"
	}
	s.storeNewDraft(w, r, m.campaign, prep.NewDraftSetup(rs, name), "Started the draft "+name+": add sides, combatants and the battlefield, then create the encounter.")
}

func (s *Server) storeNewDraft(w http.ResponseWriter, r *http.Request, campaign string, setup engine.Setup, notice string) {
	data, err := s.draftData(setup)
	if err != nil {
		campaignRedirect(w, r, campaign, "error", "No draft was made: "+errMessage(err))
		return
	}
	d, err := s.prep().CreateDraft(r.Context(), store.Draft{CampaignID: campaign, Name: setup.Name, Ruleset: setup.Ruleset, Setup: data})
	if err != nil {
		campaignRedirect(w, r, campaign, "error", errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, "notice", notice)
}

// importedSetup reads the posted "file" as a setup document, checked
// against every limit (prep.ReadSetup); the draft may still be incomplete.
func (s *Server) importedSetup(r *http.Request) (engine.Setup, error) {
	data, err := readJSONFile(r)
	if err != nil {
		return engine.Setup{}, err
	}
	setup, err := prep.ReadSetup(s.rules, data)
	if err != nil {
		return setup, err
	}
	if strings.TrimSpace(setup.Name) == "" {
		return setup, fray.Errorf(fray.EINVALID, "the encounter has no name")
	}
	return setup, nil
}

// handleImportDraft stores an uploaded setup as a new draft; a malformed or
// oversized file stores nothing. The draft may still be incomplete.
func (s *Server) handleImportDraft(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	setup, err := s.importedSetup(r)
	if err != nil {
		campaignRedirect(w, r, m.campaign, "error", "The file was not imported: "+errMessage(err))
		return
	}
	s.storeNewDraft(w, r, m.campaign, setup, "Imported "+setup.Name+" as a draft.")
}

func (s *Server) handleDraftReplace(w http.ResponseWriter, r *http.Request) {
	d, _, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	setup, err := s.importedSetup(r)
	if err == nil {
		var data []byte
		if data, err = s.draftData(setup); err == nil {
			err = s.prep().UpdateDraft(r.Context(), d.ID, setup.Name, data)
		}
	}
	if err != nil {
		draftRedirect(w, r, d.ID, "error", "The file was not imported: "+errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, "notice", "Draft replaced from the file.")
}

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

func (s *Server) handleDraftExport(w http.ResponseWriter, r *http.Request) {
	d, _, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	writeSetupFile(w, d.Name, d.Setup)
}

// encounterForGM loads the request's encounter row for one of its GMs.
func (s *Server) encounterForGM(w http.ResponseWriter, r *http.Request) (store.Encounter, bool) {
	if _, ok := s.requireUser(w, r); !ok {
		return store.Encounter{}, false
	}
	e, err := s.prep().Encounter(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		writeError(w, r, err)
		return e, false
	}
	_, ok := s.gmOf(w, r, e.CampaignID)
	return e, ok
}

func (s *Server) handleEncounterSetup(w http.ResponseWriter, r *http.Request) {
	e, ok := s.encounterForGM(w, r)
	if !ok {
		return
	}
	writeSetupFile(w, e.Name, e.Setup)
}

// handleDuplicateEncounter copies an encounter's setup into a new draft.
func (s *Server) handleDuplicateEncounter(w http.ResponseWriter, r *http.Request) {
	e, ok := s.encounterForGM(w, r)
	if !ok {
		return
	}
	setup, err := prep.ReadSetup(s.rules, e.Setup)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.storeNewDraft(w, r, e.CampaignID, setup, "Duplicated "+e.Name+" as a draft.")
}

func (s *Server) handleDraftDelete(w http.ResponseWriter, r *http.Request) {
	d, _, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	if err := s.prep().DeleteDraft(r.Context(), d.ID); err != nil {
		writeError(w, r, err)
		return
	}
	campaignRedirect(w, r, d.CampaignID, "notice", "Draft deleted.")
}

// handleDraftCreate turns a valid draft into an encounter in status setup.
func (s *Server) handleDraftCreate(w http.ResponseWriter, r *http.Request) {
	d, _, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	p, err := prep.Prepare(s.rules, d.Setup)
	if err != nil {
		draftRedirect(w, r, d.ID, "error", "Not created: "+errMessage(err))
		return
	}
	e, err := prep.Save(r.Context(), s.store, d.CampaignID, p)
	if err != nil {
		draftRedirect(w, r, d.ID, "error", "Not created: "+errMessage(err))
		return
	}
	setFlash(w, r, flashNotice, "Created "+e.Name+". Start it when your players are here.")
	http.Redirect(w, r, "/encounters/"+url.PathEscape(e.ID), http.StatusSeeOther)
}

// prepProps is the preparation part of a campaign page.
func (s *Server) prepProps(r *http.Request, m membership, encs []store.Encounter) (*web.PrepProps, error) {
	ctx := r.Context()
	p := &web.PrepProps{CampaignID: m.campaign, IsGM: m.gm()}
	for _, rs := range s.rules.All() {
		if _, ok := rs.(sheet.Schemaer); ok {
			p.Rulesets = append(p.Rulesets, engine.Choice{Value: rs.ID(), Label: rs.Title()})
		}
	}
	for _, e := range encs {
		sum := web.EncounterSummary{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status}
		switch engine.Status(e.Status) {
		case engine.StatusSetup:
			p.Ready = append(p.Ready, sum)
		case engine.StatusFinished:
			p.Finished = append(p.Finished, sum)
		default:
			p.Running = append(p.Running, sum)
		}
	}
	ps, ok := s.store.(PrepStore)
	if !ok {
		return nil, nil
	}
	if m.gm() {
		ds, err := ps.Drafts(ctx, m.campaign)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			p.Drafts = append(p.Drafts, web.DraftSummary{ID: d.ID, Name: d.Name, Ruleset: d.Ruleset})
		}
	}
	visible, err := s.visibleCharacters(ctx, m)
	if err != nil {
		return nil, err
	}
	_, pages := s.store.(CharacterStore)
	for kind, dst := range map[string]*[]web.StatSummary{store.KindBestiary: &p.Bestiary, store.KindCharacter: &p.Characters} {
		if kind == store.KindBestiary && !m.gm() {
			continue
		}
		bs, err := ps.StatBlocks(ctx, kind, m.campaign)
		if err != nil {
			return nil, err
		}
		for _, b := range bs {
			sum := web.StatSummary{ID: b.ID, Name: b.Name, Ruleset: b.Ruleset}
			if kind == store.KindCharacter && pages && (visible == nil || visible[b.ID]) {
				sum.Page = web.CharacterURL(m.campaign, b.ID)
			}
			if rs, err := s.rules.Get(b.Ruleset); err == nil && m.gm() {
				sum.Derived = derivedLine(rs, b.Stats)
			}
			*dst = append(*dst, sum)
		}
	}
	return p, nil
}
