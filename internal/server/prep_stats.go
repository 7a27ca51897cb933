package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/strictjson"
	"github.com/fray-vtt/fray/web"
)

// storeKind maps the URL's kind ("bestiary", "pcs") to the store's.
func storeKind(kind string) string {
	if kind == "pcs" {
		return store.KindCharacter
	}
	return store.KindBestiary
}

// derived lists a ruleset's derived values of stats, sorted by label, or
// the reason the stats are invalid.
func derived(rs engine.Ruleset, stats json.RawMessage) ([]engine.Choice, string) {
	d, ok := rs.(sheet.Deriver)
	if !ok {
		return nil, ""
	}
	m, err := d.Derive(stats)
	if err != nil {
		return nil, errMessage(err)
	}
	var out []engine.Choice
	for k, v := range m {
		out = append(out, engine.Choice{Value: k, Label: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Value < out[j].Value })
	return out, ""
}

func derivedLine(rs engine.Ruleset, stats json.RawMessage) string {
	ds, problem := derived(rs, stats)
	if problem != "" {
		return problem
	}
	var parts []string
	for _, d := range ds {
		parts = append(parts, d.Value+" "+d.Label)
	}
	return strings.Join(parts, " · ")
}

func schemaOf(rs engine.Ruleset) (sheet.Schema, error) {
	sc, ok := rs.(sheet.Schemaer)
	if !ok {
		return sheet.Schema{}, fray.Errorf(fray.EINVALID, "ruleset %s has no stat block editor", rs.ID())
	}
	return sc.Schema(), nil
}

func (s *Server) renderStat(w http.ResponseWriter, r *http.Request, p web.StatBlockProps, stats json.RawMessage, values map[string]string) {
	rs, err := s.rules.Get(p.Ruleset)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p.Schema, err = schemaOf(rs)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if values == nil {
		if values, p.ListRows, err = p.Schema.FormValues(stats); err != nil {
			writeError(w, r, err)
			return
		}
	} else {
		// Posted back after an error: keep every row the GM filled in.
		for k := range values {
			if strings.Count(k, ".") == 2 {
				p.ListRows++
			}
		}
	}
	p.Values = values
	if len(stats) > 0 {
		p.Derived, p.Problem = derived(rs, stats)
	}
	render(w, r, web.StatBlock(p))
}

func (s *Server) handleStatNew(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	rs := r.URL.Query().Get("ruleset")
	if rs == "" && len(s.rules.All()) > 0 {
		rs = s.rules.All()[0].ID()
	}
	s.renderStat(w, r, web.StatBlockProps{CampaignID: m.campaign, Kind: chi.URLParam(r, "kind"), Ruleset: rs}, nil, nil)
}

func (s *Server) handleStatPage(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	kind := chi.URLParam(r, "kind")
	b, err := s.prep().StatBlock(r.Context(), storeKind(kind), m.campaign, chi.URLParam(r, "entry"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.renderStat(w, r, web.StatBlockProps{CampaignID: m.campaign, Kind: kind, ID: b.ID, Name: b.Name, Ruleset: b.Ruleset,
		Notice: takeFlash(w, r, flashNotice), Error: takeFlash(w, r, flashError)}, b.Stats, nil)
}

// handleStatSave creates (no {entry}) or updates a stat block from the
// schema form. Invalid stats are refused with the form shown again.
func (s *Server) handleStatSave(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	kind, id := chi.URLParam(r, "kind"), chi.URLParam(r, "entry")
	ctx := r.Context()
	p := web.StatBlockProps{CampaignID: m.campaign, Kind: kind, ID: id, Name: strings.TrimSpace(r.PostFormValue("name")), Ruleset: r.PostFormValue("ruleset")}
	var oldStats json.RawMessage
	if id != "" {
		old, err := s.prep().StatBlock(ctx, storeKind(kind), m.campaign, id)
		if err != nil {
			writeError(w, r, err)
			return
		}
		p.Ruleset, oldStats = old.Ruleset, old.Stats
	}
	rs, err := s.rules.Get(p.Ruleset)
	if err != nil {
		writeError(w, r, err)
		return
	}
	schema, err := schemaOf(rs)
	if err != nil {
		writeError(w, r, err)
		return
	}
	values := map[string]string{}
	for k := range r.PostForm {
		values[k] = r.PostForm.Get(k)
	}
	stats, err := schema.ParseForm(r.PostForm)
	if err == nil {
		if d, ok := rs.(sheet.Deriver); ok {
			_, err = d.Derive(stats)
		}
	}
	if err == nil && p.Name == "" {
		err = fray.Errorf(fray.EINVALID, "a stat block needs a name")
	}
	if err == nil && id == "" {
		err = prep.CheckStatBlock("new", p.Name, stats)
	} else if err == nil {
		err = prep.CheckStatBlock(id, p.Name, stats)
	}
	if err == nil {
		if id == "" {
			used := map[string]bool{"new": true, "import": true}
			existing, lerr := s.prep().StatBlocks(ctx, storeKind(kind), m.campaign)
			if lerr != nil {
				writeError(w, r, lerr)
				return
			}
			for _, b := range existing {
				used[b.ID] = true
			}
			id = sheet.UniqueSlug(p.Name, used)
		}
		block := store.StatBlock{ID: id, CampaignID: m.campaign, Ruleset: rs.ID(), Name: p.Name, Stats: stats}
		if storeKind(kind) == store.KindCharacter {
			err = s.saveCharacterSheet(ctx, m, schema, block, p.ID == "", oldStats)
		} else {
			err = s.prep().SaveStatBlocks(ctx, storeKind(kind), p.ID == "", []store.StatBlock{block})
		}
	}
	if err != nil {
		p.Error = errMessage(err)
		w.WriteHeader(failStatus(r, err))
		s.renderStat(w, r, p, nil, values)
		return
	}
	setFlash(w, r, flashNotice, "Saved "+p.Name+".")
	http.Redirect(w, r, "/campaigns/"+url.PathEscape(m.campaign)+"/"+kind+"/"+url.PathEscape(id), http.StatusSeeOther)
}

func (s *Server) handleStatDelete(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.prep().DeleteStatBlock(r.Context(), storeKind(chi.URLParam(r, "kind")), m.campaign, chi.URLParam(r, "entry")); err != nil {
		campaignRedirect(w, r, m.campaign, "error", errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, "notice", "Deleted.")
}

// BestiaryEntry is one entry of a bestiary file.
type BestiaryEntry struct {
	ID      string          `json:"id"`
	Name    string          `json:"name"`
	Ruleset string          `json:"ruleset"`
	Stats   json.RawMessage `json:"stats"`
}

func (s *Server) handleExportBestiary(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	bs, err := s.prep().StatBlocks(r.Context(), store.KindBestiary, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := []BestiaryEntry{}
	for _, b := range bs {
		out = append(out, BestiaryEntry{ID: b.ID, Name: b.Name, Ruleset: b.Ruleset, Stats: b.Stats})
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="bestiary.json"`)
	_, _ = w.Write(append(data, '\n'))
}

// handleImportBestiary adds or replaces entries from a JSON array, all or
// none: a malformed file or any invalid entry stores nothing.
func (s *Server) handleImportBestiary(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	n, err := s.importBestiary(r, m.campaign)
	if err != nil {
		campaignRedirect(w, r, m.campaign, "error", "The bestiary was not imported: "+errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, "notice", "Imported "+strconv.Itoa(n)+" bestiary entries.")
}

func (s *Server) importBestiary(r *http.Request, campaign string) (int, error) {
	data, err := readJSONFile(r)
	if err != nil {
		return 0, err
	}
	var entries []BestiaryEntry
	if err := strictjson.DecodeWith(data, &entries, strictjson.Limits{MaxDepth: prep.MaxDepth}); err != nil {
		return 0, fray.Errorf(fray.EINVALID, "not a bestiary file (a JSON array of {id, name, ruleset, stats}): %s", fray.ErrorMessage(err))
	}
	if len(entries) > prep.MaxStatBlocks {
		return 0, fray.Errorf(fray.EINVALID, "a bestiary file holds at most %d entries, not %d", prep.MaxStatBlocks, len(entries))
	}
	var bs []store.StatBlock
	seen := map[string]bool{}
	for i, e := range entries {
		rs, err := s.rules.Get(e.Ruleset)
		if err != nil {
			return 0, fray.Errorf(fray.EINVALID, "entry %d: %s", i+1, errMessage(err))
		}
		if e.ID == "" {
			e.ID = sheet.Slug(e.Name)
		}
		if err := prep.CheckStatBlock(e.ID, e.Name, e.Stats); err != nil {
			return 0, fray.Errorf(fray.EINVALID, "entry %d: %s", i+1, fray.ErrorMessage(err))
		}
		if seen[e.ID] {
			return 0, fray.Errorf(fray.EINVALID, "entry %d: id %q is used twice", i+1, e.ID)
		}
		seen[e.ID] = true
		if d, ok := rs.(sheet.Deriver); ok {
			if _, err := d.Derive(e.Stats); err != nil {
				return 0, fray.Errorf(fray.EINVALID, "entry %d (%.40q): %s", i+1, e.Name, errMessage(err))
			}
		}
		bs = append(bs, store.StatBlock{ID: e.ID, CampaignID: campaign, Ruleset: rs.ID(), Name: e.Name, Stats: e.Stats})
	}
	if err := s.prep().SaveStatBlocks(r.Context(), store.KindBestiary, false, bs); err != nil {
		return 0, err
	}
	return len(bs), nil
}
