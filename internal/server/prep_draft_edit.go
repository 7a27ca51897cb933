package server

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
)

// handleDraftEdit applies one editor form to the draft and redirects back.
// Edits that leave the draft an invalid encounter are stored (the page shows
// why); edits past the limits every encounter keeps (prep.CheckSetup) are
// refused.
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
		if data, err = s.draftData(setup); err == nil {
			err = s.prep().UpdateDraft(r.Context(), d.ID, setup.Name, data)
		}
	}
	if err != nil {
		draftRedirect(w, r, d.ID, flashError, errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, flashNotice, "Saved.")
}

func bad(format string, args ...any) error { return fray.Errorf(fray.EINVALID, format, args...) }

// applyEdit performs one op of the editor: settings, sides and combatants
// here, the battlefield in prep.EditBattlefield.
func (s *Server) applyEdit(r *http.Request, m membership, setup *engine.Setup) error {
	f := r.PostForm
	val := func(k string) string { return strings.TrimSpace(f.Get(k)) }
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		return err
	}
	editor, boarded := prep.EditorOf(rs)
	op := val("op")
	if boarded {
		if done, err := prep.EditBattlefield(setup, editor, op, f, f["members"]); done || err != nil {
			return err
		}
	}
	sideIDs := map[string]bool{}
	for _, sd := range setup.Sides {
		sideIDs[sd.ID] = true
	}
	switch op {
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
		setup.Sides = append(setup.Sides, engine.Side{ID: sheet.UniqueSlug(val("name"), sideIDs), Name: val("name")})
	case "side-rename":
		for i := range setup.Sides {
			if setup.Sides[i].ID == val("side") && val("name") != "" {
				setup.Sides[i].Name = val("name")
			}
		}
	case "side-remove":
		setup.Sides = slices.DeleteFunc(setup.Sides, func(sd engine.Side) bool { return sd.ID == val("side") })
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
		bf, err := prep.ReadBattlefield(*setup)
		if err != nil {
			return err
		}
		start, err := prep.StartFromForm(editor, bf, f, "start.", blk.Name)
		if err != nil {
			return err
		}
		return prep.AddCopies(setup, blk.Name, blk.Stats, n, val("side"), start, f.Get("hidden") != "", kind == store.KindCharacter, blk.ID)
	case "combatant-update":
		bf, err := prep.ReadBattlefield(*setup)
		if err != nil {
			return err
		}
		for i := range setup.Combatants {
			c := &setup.Combatants[i]
			if c.ID != val("combatant") {
				continue
			}
			c.Side, c.Hidden = val("side"), f.Get("hidden") != ""
			if !boarded {
				continue
			}
			start, err := prep.StartFromForm(editor, bf, f, "start.", c.Name)
			if err != nil {
				return err
			}
			if start.Zone != prep.StartOf(*c).Zone {
				prep.LeaveGroups(&bf, c.ID) // a melee is in one zone
				prep.WriteBattlefield(setup, bf)
			}
			prep.SetStart(c, start)
		}
	case "combatant-remove":
		prep.RemoveCombatant(setup, val("combatant"))
	default:
		return bad("unknown edit %q", op)
	}
	return nil
}
