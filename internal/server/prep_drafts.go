package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
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

func draftRedirect(w http.ResponseWriter, r *http.Request, id, key, msg string) {
	u := "/drafts/" + url.PathEscape(id)
	if msg != "" {
		u += "?" + url.Values{key: {msg}}.Encode()
	}
	http.Redirect(w, r, u, http.StatusSeeOther)
}

func decodeDraft(d store.Draft) (engine.Setup, error) {
	var s engine.Setup
	if err := json.Unmarshal(d.Setup, &s); err != nil {
		return s, fray.Errorf(fray.EINVALID, "the draft is damaged: %v", err)
	}
	return s, nil
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
	s.storeNewDraft(w, r, m.campaign, prep.NewDraftSetup(rs, name), "")
}

func (s *Server) storeNewDraft(w http.ResponseWriter, r *http.Request, campaign string, setup engine.Setup, notice string) {
	data, err := json.Marshal(setup)
	if err != nil {
		writeError(w, r, err)
		return
	}
	d, err := s.prep().CreateDraft(r.Context(), store.Draft{CampaignID: campaign, Name: setup.Name, Ruleset: setup.Ruleset, Setup: data})
	if err != nil {
		campaignRedirect(w, r, campaign, "error", errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, "notice", notice)
}

// readUpload reads a posted JSON file strictly as a setup document.
func readUpload(r *http.Request) (engine.Setup, error) {
	f, _, err := r.FormFile("file")
	if err != nil {
		if strings.Contains(err.Error(), "too large") {
			return engine.Setup{}, fray.Errorf(fray.ETOOLARGE, "the file is larger than 1 MiB")
		}
		return engine.Setup{}, fray.Errorf(fray.EINVALID, "choose an encounter file (JSON, at most 1 MiB)")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, prep.MaxSetupBytes+1))
	if err != nil {
		return engine.Setup{}, err
	}
	return prep.DecodeSetup(data)
}

func (s *Server) importedSetup(r *http.Request) (engine.Setup, error) {
	setup, err := readUpload(r)
	if err != nil {
		return setup, err
	}
	if _, err := s.rules.Get(setup.Ruleset); err != nil {
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
		data, _ = json.Marshal(setup)
		err = s.prep().UpdateDraft(r.Context(), d.ID, setup.Name, data)
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
	w.Header().Set("Content-Disposition", `attachment; filename="`+engine.Slug(name)+`.json"`)
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
	setup, err := prep.DecodeSetup(e.Setup)
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
	http.Redirect(w, r, "/encounters/"+url.PathEscape(e.ID), http.StatusSeeOther)
}

func (s *Server) handleDraftPage(w http.ResponseWriter, r *http.Request) {
	d, m, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	setup, err := decodeDraft(d)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.DraftProps{ID: d.ID, CampaignID: d.CampaignID, Name: setup.Name, Ruleset: rs.ID(), RulesetTitle: rs.Title(),
		Sides: setup.Sides, Zoned: prep.ZonesOf(rs), Notice: r.URL.Query().Get("notice"), Error: r.URL.Query().Get("error")}
	for _, o := range rs.Options() {
		v := o.Default
		if x, ok := setup.Options[o.Name]; ok {
			v = x
		}
		p.Options = append(p.Options, web.OptionView{OptionSpec: o, Value: v})
	}
	// The check sees the player characters as creating the encounter will:
	// with their sheets' latest revisions.
	checked := setup
	checked.Combatants = slices.Clone(setup.Combatants)
	if cs, ok := s.store.(prep.CharacterStore); ok {
		if _, err := prep.TakeCharacters(ctx, cs, d.CampaignID, &checked); err != nil {
			writeError(w, r, err)
			return
		}
	}
	if err := prep.Check(s.rules, checked); err != nil {
		p.Problem = errMessage(err)
	}
	zoneNames := map[string]string{}
	if p.Zoned {
		p.Covers = []engine.Choice{{Value: "", Label: "None"}, {Value: "light", Label: "Light (−2)"}, {Value: "medium", Label: "Medium (−4)"}, {Value: "heavy", Label: "Heavy (−6)"}, {Value: "total", Label: "Total (−8)"}}
		b, err := prep.ReadBattlefield(setup)
		if err != nil {
			p.Problem = errMessage(err)
		}
		for _, z := range b.Zones {
			zoneNames[z.ID] = z.Name
		}
		for _, z := range b.Zones {
			row := web.ZoneRow{ID: z.ID, Name: z.Name, Description: z.Description, Cover: z.Cover, CoverArmor: z.CoverArmor}
			for _, a := range adjacentOf(b, z.ID) {
				row.Adjacent = append(row.Adjacent, engine.Choice{Value: a, Label: cmp(zoneNames[a], a)})
			}
			p.Zones = append(p.Zones, row)
		}
		names := map[string]string{}
		for _, c := range setup.Combatants {
			names[c.ID] = c.Name
		}
		for _, ml := range b.Melees {
			row := web.MeleeRow{ID: ml.ID, Zone: cmp(zoneNames[ml.Zone], ml.Zone)}
			for _, id := range ml.Members {
				row.Members = append(row.Members, cmp(names[id], id))
			}
			p.Melees = append(p.Melees, row)
		}
	}
	for _, c := range setup.Combatants {
		p.Combatants = append(p.Combatants, web.CombatantRow{ID: c.ID, Name: c.Name, Side: c.Side, Zone: prep.StartZone(c), PC: c.PC, Hidden: c.Hidden})
	}
	for kind, dst := range map[string]*[]engine.Choice{store.KindBestiary: &p.Bestiary, store.KindCharacter: &p.Characters} {
		bs, err := s.prep().StatBlocks(ctx, kind, m.campaign)
		if err != nil {
			writeError(w, r, err)
			return
		}
		for _, b := range bs {
			if b.Ruleset == rs.ID() {
				*dst = append(*dst, engine.Choice{Value: b.ID, Label: b.Name})
			}
		}
	}
	render(w, r, web.Draft(p))
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// adjacentOf lists the zones bordering id, in either direction.
func adjacentOf(b prep.Battlefield, id string) []string {
	var out []string
	for _, z := range b.Zones {
		if z.ID == id {
			for _, a := range z.Adjacent {
				if !slices.Contains(out, a) {
					out = append(out, a)
				}
			}
		} else if slices.Contains(z.Adjacent, id) && !slices.Contains(out, z.ID) {
			out = append(out, z.ID)
		}
	}
	return out
}

// handleDraftEdit applies one editor form to the draft and redirects back.
// Edits that leave the draft invalid are stored: the page shows why.
func (s *Server) handleDraftEdit(w http.ResponseWriter, r *http.Request) {
	d, m, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	setup, err := decodeDraft(d)
	if err == nil {
		err = r.ParseForm()
	}
	if err == nil {
		err = s.applyEdit(r, m, &setup)
	}
	if err == nil {
		var data []byte
		if data, err = json.Marshal(setup); err == nil {
			err = s.prep().UpdateDraft(r.Context(), d.ID, setup.Name, data)
		}
	}
	if err != nil {
		draftRedirect(w, r, d.ID, "error", errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, "", "")
}

func bad(format string, args ...any) error { return fray.Errorf(fray.EINVALID, format, args...) }

func (s *Server) applyEdit(r *http.Request, m membership, setup *engine.Setup) error {
	f := r.PostForm
	val := func(k string) string { return strings.TrimSpace(f.Get(k)) }
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		return err
	}
	sideIDs := map[string]bool{}
	for _, sd := range setup.Sides {
		sideIDs[sd.ID] = true
	}
	b, err := prep.ReadBattlefield(*setup)
	if err != nil {
		return err
	}
	zone := func(id string) (*prep.Zone, error) {
		for i := range b.Zones {
			if b.Zones[i].ID == id {
				return &b.Zones[i], nil
			}
		}
		return nil, bad("no zone %q", id)
	}
	writeZones := prep.ZonesOf(rs)
	switch op := val("op"); op {
	case "settings":
		if val("name") == "" {
			return bad("the encounter needs a name")
		}
		setup.Name = val("name")
		opts := map[string]string{}
		for _, o := range rs.Options() {
			if v := f.Get("option." + o.Name); v != "" && v != o.Default {
				opts[o.Name] = v
			}
		}
		setup.Options = opts
	case "side-add":
		if val("name") == "" {
			return bad("a side needs a name")
		}
		setup.Sides = append(setup.Sides, engine.Side{ID: engine.UniqueSlug(val("name"), sideIDs), Name: val("name")})
	case "side-rename":
		for i := range setup.Sides {
			if setup.Sides[i].ID == val("side") && val("name") != "" {
				setup.Sides[i].Name = val("name")
			}
		}
	case "side-remove":
		setup.Sides = slices.DeleteFunc(setup.Sides, func(sd engine.Side) bool { return sd.ID == val("side") })
	case "zone-add":
		if val("name") == "" {
			return bad("a zone needs a name")
		}
		used := map[string]bool{}
		for _, z := range b.Zones {
			used[z.ID] = true
		}
		z := prep.Zone{ID: engine.UniqueSlug(val("name"), used), Name: val("name"), Description: val("description"), Cover: val("cover"), Adjacent: []string{}}
		if a := val("coverArmor"); a != "" {
			n, err := strconv.Atoi(a)
			if err != nil || n < 0 || n > 20 {
				return bad("cover armor must be a number 0–20")
			}
			z.CoverArmor = n
		}
		b.Zones = append(b.Zones, z)
	case "zone-remove":
		id := val("zone")
		b.Zones = slices.DeleteFunc(b.Zones, func(z prep.Zone) bool { return z.ID == id })
		for i := range b.Zones {
			b.Zones[i].Adjacent = slices.DeleteFunc(b.Zones[i].Adjacent, func(a string) bool { return a == id })
		}
		b.Melees = slices.DeleteFunc(b.Melees, func(ml prep.Melee) bool { return ml.Zone == id })
		for i := range setup.Combatants {
			if prep.StartZone(setup.Combatants[i]) == id {
				prep.SetStartZone(&setup.Combatants[i], "")
			}
		}
	case "connect", "disconnect":
		za, err := zone(val("a"))
		if err != nil {
			return err
		}
		zb, err := zone(val("b"))
		if err != nil {
			return err
		}
		if za.ID == zb.ID {
			return bad("a zone cannot border itself")
		}
		za.Adjacent = slices.DeleteFunc(za.Adjacent, func(a string) bool { return a == zb.ID })
		zb.Adjacent = slices.DeleteFunc(zb.Adjacent, func(a string) bool { return a == za.ID })
		if op == "connect" {
			za.Adjacent = append(za.Adjacent, zb.ID)
		}
	case "melee-add":
		members := f["members"]
		if len(members) < 2 {
			return bad("a melee needs at least two members")
		}
		zones := map[string]bool{}
		for _, c := range setup.Combatants {
			if slices.Contains(members, c.ID) {
				zones[prep.StartZone(c)] = true
			}
		}
		if len(zones) != 1 || zones[""] {
			return bad("the members of a melee must all start in the same zone")
		}
		used := map[string]bool{}
		for _, ml := range b.Melees {
			used[ml.ID] = true
			members = slices.DeleteFunc(members, func(id string) bool { return slices.Contains(ml.Members, id) })
		}
		var z string
		for k := range zones {
			z = k
		}
		b.Melees = append(b.Melees, prep.Melee{ID: engine.UniqueSlug("m", used), Zone: z, Members: members})
	case "melee-remove":
		b.Melees = slices.DeleteFunc(b.Melees, func(ml prep.Melee) bool { return ml.ID == val("melee") })
	case "add-bestiary", "add-character":
		kind, key := store.KindBestiary, "entry"
		if op == "add-character" {
			kind, key = store.KindCharacter, "character"
		}
		blk, err := s.prep().StatBlock(r.Context(), kind, m.campaign, val(key))
		if err != nil {
			return err
		}
		n := 1
		if c := val("count"); c != "" {
			if n, err = strconv.Atoi(c); err != nil {
				return bad("how many must be a number")
			}
		}
		if err := prep.AddCopies(setup, blk.Name, blk.Stats, n, val("side"), val("zone"), f.Get("hidden") != "", kind == store.KindCharacter, blk.ID); err != nil {
			return err
		}
		return s.finishEdit(setup, b, writeZones)
	case "combatant-update":
		for i := range setup.Combatants {
			c := &setup.Combatants[i]
			if c.ID != val("combatant") {
				continue
			}
			c.Side, c.Hidden = val("side"), f.Get("hidden") != ""
			if writeZones && val("zone") != prep.StartZone(*c) {
				prep.SetStartZone(c, val("zone"))
				for j := range b.Melees {
					b.Melees[j].Members = slices.DeleteFunc(b.Melees[j].Members, func(id string) bool { return id == c.ID })
				}
				b.Melees = slices.DeleteFunc(b.Melees, func(ml prep.Melee) bool { return len(ml.Members) < 2 })
			}
		}
	case "combatant-remove":
		prep.RemoveCombatant(setup, val("combatant"))
		if b, err = prep.ReadBattlefield(*setup); err != nil {
			return err
		}
	default:
		return bad("unknown edit %q", op)
	}
	return s.finishEdit(setup, b, writeZones)
}

func (s *Server) finishEdit(setup *engine.Setup, b prep.Battlefield, zones bool) error {
	if zones {
		prep.WriteBattlefield(setup, b)
	}
	if data, err := json.Marshal(setup); err == nil && len(data) > prep.MaxSetupBytes {
		return fray.Errorf(fray.ETOOLARGE, "the encounter would be larger than 1 MiB")
	}
	return nil
}

// prepProps is the preparation part of a campaign page.
func (s *Server) prepProps(r *http.Request, m membership, encs []store.Encounter) (*web.PrepProps, error) {
	ctx := r.Context()
	p := &web.PrepProps{CampaignID: m.campaign, IsGM: m.gm()}
	for _, rs := range s.rules.All() {
		if _, ok := rs.(engine.Schemaer); ok {
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
