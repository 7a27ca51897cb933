package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/assets"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/statblock"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// StatBlocks are a campaign's bestiary and player characters' sheets as
// the GM's stat editor keeps them; *prep.Service is one.
type StatBlocks interface {
	StatBlock(ctx context.Context, kind, campaignID, id string) (store.StatBlock, error)
	// SaveStatBlock creates or updates one and returns its id.
	SaveStatBlock(ctx context.Context, in prep.StatSave) (string, error)
	DeleteStatBlock(ctx context.Context, kind, campaignID, id string) error
	// SetPortrait sets one's portrait: a picture of the campaign by URL
	// or asset id, "" for none.
	SetPortrait(ctx context.Context, kind, campaignID, id, portrait string) error
	Bestiary(ctx context.Context, campaignID string) ([]prep.BestiaryEntry, error)
	ImportBestiary(ctx context.Context, campaignID string, data []byte) (int, error)
}

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

// renderStat renders the stat editor for p with stats, or with the values
// a refused form posted.
func (s *Server) renderStat(w http.ResponseWriter, r *http.Request, p web.StatBlockProps, stats json.RawMessage, values map[string]string) {
	rs, err := s.Rulesets.Get(p.Ruleset)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p.Schema, err = prep.SchemaOf(rs)
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
		// Posted back after an error, or read from a pasted block: keep
		// every row filled in.
		for k := range values {
			if parts := strings.Split(k, "."); len(parts) == 3 {
				if n, err := strconv.Atoi(parts[1]); err == nil && n < 100 {
					p.ListRows = max(p.ListRows, n+1)
				}
			}
		}
	}
	p.Values = values
	_, p.CanPaste = rs.(statblock.Parser)
	if len(stats) > 0 {
		p.Derived, p.Problem = derived(rs, stats)
	}
	render(w, r, web.StatBlock(p))
}

// handleStatNew is the editor of a new stat block:
// GET /campaigns/{id}/{bestiary|pcs}/new?ruleset=ID (GMs).
func (s *Server) handleStatNew(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	rs := r.URL.Query().Get("ruleset")
	if rs == "" && len(s.Rulesets.All()) > 0 {
		rs = s.Rulesets.All()[0].ID()
	}
	p := web.StatBlockProps{CampaignID: m.campaign, Kind: chi.URLParam(r, "kind"), Ruleset: rs}
	var stats json.RawMessage
	if p.Kind == "pcs" {
		ruleset, err := s.Rulesets.Get(rs)
		if err != nil {
			writeError(w, r, err)
			return
		}
		schema, err := prep.SchemaOf(ruleset)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if stats, err = schema.NewPC(); err != nil {
			writeError(w, r, err)
			return
		}
	}
	s.renderStat(w, r, p, stats, nil)
}

// handleStatPage is a stat block's editor:
// GET /campaigns/{id}/{bestiary|pcs}/{entry} (GMs).
func (s *Server) handleStatPage(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	kind := chi.URLParam(r, "kind")
	b, err := s.StatBlocks.StatBlock(r.Context(), storeKind(kind), m.campaign, chi.URLParam(r, "entry"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.renderStat(w, r, web.StatBlockProps{CampaignID: m.campaign, Kind: kind, ID: b.ID, Name: b.Name, Ruleset: b.Ruleset, Portrait: b.Portrait,
		Notice: takeFlash(w, r, flashNotice), Error: takeFlash(w, r, flashError)}, b.Stats, nil)
}

// handleStatSave creates (no {entry}) or updates a stat block from the
// schema form: POST /campaigns/{id}/{bestiary|pcs}[/{entry}] (GMs). Invalid
// stats are refused with the form shown again.
func (s *Server) handleStatSave(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	kind, id := chi.URLParam(r, "kind"), chi.URLParam(r, "entry")
	if err := r.ParseForm(); err != nil {
		writeError(w, r, fray.Errorf(fray.EINVALID, "the form could not be read"))
		return
	}
	p := web.StatBlockProps{CampaignID: m.campaign, Kind: kind, ID: id, Name: strings.TrimSpace(r.PostForm.Get("name")), Ruleset: r.PostForm.Get("ruleset")}
	if id != "" {
		old, err := s.StatBlocks.StatBlock(r.Context(), storeKind(kind), m.campaign, id)
		if err != nil {
			writeError(w, r, err)
			return
		}
		p.Ruleset = old.Ruleset
	}
	saved, err := s.StatBlocks.SaveStatBlock(r.Context(), prep.StatSave{Kind: storeKind(kind), CampaignID: m.campaign, ID: id,
		Name: p.Name, Ruleset: p.Ruleset, Form: r.PostForm, ByID: m.user.ID, ByName: m.user.Name})
	if err != nil {
		values := map[string]string{}
		for k := range r.PostForm {
			values[k] = r.PostForm.Get(k)
		}
		p.Error = errMessage(err)
		w.WriteHeader(failStatus(r, err))
		s.renderStat(w, r, p, nil, values)
		return
	}
	setFlash(w, r, flashNotice, "Saved "+p.Name+".")
	http.Redirect(w, r, "/campaigns/"+url.PathEscape(m.campaign)+"/"+kind+"/"+url.PathEscape(saved), http.StatusSeeOther)
}

// handleStatDelete: POST /campaigns/{id}/{bestiary|pcs}/{entry}/delete (GMs).
func (s *Server) handleStatDelete(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.StatBlocks.DeleteStatBlock(r.Context(), storeKind(chi.URLParam(r, "kind")), m.campaign, chi.URLParam(r, "entry")); err != nil {
		campaignRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Deleted.")
}

// handleExportBestiary downloads the bestiary: GET /campaigns/{id}/bestiary.json (GMs).
func (s *Server) handleExportBestiary(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	out, err := s.StatBlocks.Bestiary(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSONFile(w, "bestiary.json", out)
}

// handleImportBestiary adds or replaces entries from a bestiary file, all
// or none: POST /campaigns/{id}/bestiary/import (multipart file; GMs).
func (s *Server) handleImportBestiary(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	n, ok := importUpload(w, r, m.campaign, "The bestiary was not imported", func(data []byte) (int, error) {
		return s.StatBlocks.ImportBestiary(r.Context(), m.campaign, data)
	})
	if !ok {
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Imported "+strconv.Itoa(n)+" bestiary entries.")
}

// writeJSONFile downloads v as an indented JSON file.
func writeJSONFile(w http.ResponseWriter, filename string, v any) {
	data, _ := json.MarshalIndent(v, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	_, _ = w.Write(append(data, '\n'))
}

// handleStatPortrait sets a stat block's portrait:
// POST /campaigns/{id}/{bestiary|pcs}/{entry}/portrait (GMs, and the
// player who owns a campaign character for that character; multipart:
// file, a picture to upload; or portrait, one of the campaign's pictures by
// URL or asset id — GMs only —, "" to remove it).
func (s *Server) handleStatPortrait(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	kind, id := chi.URLParam(r, "kind"), chi.URLParam(r, "entry")
	owner := !m.gm() && kind == "pcs" && slices.Contains(m.characters, id)
	if !m.gm() && !owner {
		writeError(w, r, fray.Errorf(fray.EFORBIDDEN, "only the campaign's GMs and the character's player may set its portrait"))
		return
	}
	back := "/campaigns/" + url.PathEscape(m.campaign) + "/" + kind + "/" + url.PathEscape(id)
	if owner {
		back = "/campaigns/" + url.PathEscape(m.campaign) + "/characters/" + url.PathEscape(id)
	}
	fail := func(err error) {
		setFlash(w, r, flashError, "The portrait was not set: "+errMessage(err))
		http.Redirect(w, r, back, http.StatusSeeOther)
	}
	switch err := r.ParseMultipartForm(maxUploadBytes); {
	case errors.Is(err, http.ErrNotMultipart): // a plain form naming a picture
		if err := r.ParseForm(); err != nil {
			fail(fray.Errorf(fray.EINVALID, "the form could not be read"))
			return
		}
	case err != nil:
		fail(bodyError(err))
		return
	default:
		defer func() { _ = r.MultipartForm.RemoveAll() }()
	}
	pic := r.PostForm.Get("portrait")
	if owner && pic != "" {
		// A player uploads their picture: naming one of the campaign's by
		// its URL would make a picture the GM keeps from them theirs.
		fail(fray.Errorf(fray.EFORBIDDEN, "upload a picture for your character's portrait; choosing one of the campaign's is for its GMs"))
		return
	}
	if f, h, err := r.FormFile("file"); err == nil {
		data, err := intake.Read(f, images.MaxBytes, "picture")
		_ = f.Close()
		if err == nil {
			var p assets.Picture
			p, err = s.Pictures.Upload(r.Context(), m.campaign, m.user.ID, h.Filename, data)
			pic = p.URL
		}
		if err != nil {
			fail(err)
			return
		}
	}
	if err := s.StatBlocks.SetPortrait(r.Context(), storeKind(kind), m.campaign, id, pic); err != nil {
		fail(err)
		return
	}
	setFlash(w, r, flashNotice, "Portrait saved.")
	http.Redirect(w, r, back, http.StatusSeeOther)
}
