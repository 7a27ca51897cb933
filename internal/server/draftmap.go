package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/assets"
	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/uvtt"
)

// maxMapBytes bounds a battlemap upload's body: the file and the form
// around it.
const maxMapBytes = uvtt.MaxBytes + 64<<10

// handleDraftMap makes a draft's battlefield from a battlemap file: POST
// /drafts/{draft}/map, multipart with the file in "file" (.dd2vtt, .uvtt,
// .df2vtt or a Foundry scene's JSON) and, optionally, "zone": the widest
// zone in squares of the map (the ruleset's own otherwise). The picture
// inside becomes the scene through the picture path (counted against the
// GM's uploads); a picture refused (too large, not a picture) leaves the
// zones imported and says why. One edit: the editor's undo takes it back.
func (s *Server) handleDraftMap(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	fail := func(err error) { draftRedirect(w, r, d.ID, flashError, "The map was not imported: "+errMessage(err)) }
	if err := r.ParseMultipartForm(32 << 20); err != nil {
		fail(bodyError(err))
		return
	}
	defer func() { _ = r.MultipartForm.RemoveAll() }()
	o := battlemap.Options{}
	if v := strings.TrimSpace(r.PostForm.Get("zone")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			fail(fray.Errorf(fray.EINVALID, "the widest zone is a whole number of squares from 1 to 100"))
			return
		}
		o.ZoneSpan = n
	}
	f, _, err := r.FormFile("file")
	if err != nil {
		fail(fray.Errorf(fray.EINVALID, "choose a map file (.dd2vtt, .uvtt, .df2vtt or a Foundry scene's JSON)"))
		return
	}
	m, err := uvtt.Read(r.Context(), f)
	_ = f.Close()
	if err != nil {
		fail(err)
		return
	}
	var scene, warning string
	if m.Image != "" {
		// images.Unembed checks the size before decoding; Upload takes
		// the picture path.
		data, err := images.Unembed(m.Image)
		var p assets.Picture
		if err == nil {
			p, err = s.Pictures.Upload(r.Context(), d.CampaignID, userFrom(r).ID, "map", data)
		}
		switch fray.ErrorCode(err) {
		case "":
			scene = p.URL
		case fray.EINVALID, fray.ETOOLARGE:
			warning = " The map's picture was not kept: " + errMessage(err) + " (export the map at a smaller size, or upload a picture as the scene)."
		default:
			fail(err)
			return
		}
	}
	m.Image = ""
	rep, err := s.Drafts.ImportMap(r.Context(), d, m, scene, o)
	if err != nil {
		fail(err)
		return
	}
	msg := "Map imported (" + m.Source + ", " + strconv.Itoa(m.Width) + " × " + strconv.Itoa(m.Height) + " squares): "
	switch {
	case rep.Zones > 0:
		msg += count(rep.Zones, "zone") + ", " + count(rep.Links, "link") + "."
	case rep.Places > 0:
		msg += count(rep.Places, "room") + " to start in, " + count(rep.Links, "link") + "; the starting distances follow from the rooms you put each in."
	default:
		msg += "a grid of " + strconv.Itoa(rep.Width) + " × " + strconv.Itoa(rep.Height) + "."
	}
	for _, n := range rep.Notes {
		msg += " " + strings.TrimSuffix(n, ".") + "."
	}
	msg += warning + " Undo takes it back."
	draftRedirect(w, r, d.ID, flashNotice, msg)
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
