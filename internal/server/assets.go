package server

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/assets"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/store"
)

// Pictures keeps a campaign's uploaded pictures; *assets.Service is one.
type Pictures interface {
	Upload(ctx context.Context, campaignID, userID, name string, data []byte) (assets.Picture, error)
	List(ctx context.Context, campaignID string) ([]assets.Picture, error)
	Data(ctx context.Context, campaignID, id string, thumb bool) (string, []byte, error)
	Delete(ctx context.Context, campaignID, id string) error
}

// PictureSight says which pictures a member may see in a campaign's
// encounters now; *history.Service is one.
type PictureSight interface {
	PicturesSeen(ctx context.Context, campaignID string, m history.Member) (map[string]bool, error)
}

// maxUploadBytes bounds an upload's body: the largest picture accepted and
// room for the multipart envelope.
const maxUploadBytes = images.MaxBytes + 64<<10

// isUpload reports whether r uploads a picture — to a campaign, to a
// draft, or as a bestiary entry's or character's portrait — whose body
// may be larger than other requests'.
func isUpload(r *http.Request) bool {
	p := r.URL.Path
	return r.Method == http.MethodPost && (strings.HasPrefix(p, "/api/campaigns/") && strings.HasSuffix(p, "/assets") ||
		strings.HasPrefix(p, "/drafts/") && (strings.HasSuffix(p, "/pictures") || strings.HasSuffix(p, "/map")) ||
		strings.HasPrefix(p, "/campaigns/") && (strings.HasSuffix(p, "/portrait") || strings.HasSuffix(p, "/foundry")))
}

// handleUploadAsset stores a picture for a campaign's GMs: POST
// /api/campaigns/{id}/assets, multipart with the file in field "file".
// It answers {"id","url","thumb","width","height"}; the same picture
// uploaded again answers the same. The body is read only up to the limit
// and the file is checked before it is decoded (package images).
func (s *Server) handleUploadAsset(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	name, data, err := readUpload(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Pictures.Upload(r.Context(), m.campaign, m.user.ID, name, data)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, p)
}

// readUpload reads the "file" part of a multipart body, at most
// images.MaxBytes of it.
func readUpload(r *http.Request) (string, []byte, error) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" {
		return "", nil, fray.Errorf(fray.EINVALID, "send the picture as multipart/form-data, in a field named %q", "file")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, fray.Errorf(fray.EINVALID, "the multipart body cannot be read: %v", err)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", nil, fray.Errorf(fray.EINVALID, "no picture: the body has no field named %q", "file")
		}
		if err != nil {
			return "", nil, bodyError(err)
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := intake.Read(part, images.MaxBytes, "picture")
		if err != nil {
			return "", nil, err
		}
		return part.FileName(), data, nil
	}
}

func bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return fray.Errorf(fray.ETOOLARGE, "the file is larger than %d MiB, the most a picture may be", images.MaxBytes>>20)
	}
	if errors.Is(err, multipart.ErrMessageTooLarge) {
		return fray.Errorf(fray.ETOOLARGE, "the upload's headers are too large")
	}
	return fray.Errorf(fray.EINVALID, "the upload could not be read: %v", err)
}

// handleAPIAssets lists a campaign's pictures for its GMs: GET
// /api/campaigns/{id}/assets.
func (s *Server) handleAPIAssets(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	ps, err := s.Pictures.List(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ps)
}

// handleDeleteAsset removes a picture the campaign no longer uses: DELETE
// /api/campaigns/{id}/assets/{asset} (204), or POST
// /campaigns/{id}/pictures/{asset}/delete (back to the draft named by the
// form's "draft", else the campaign page); GMs. A picture still in use is
// refused (409) and stays.
func (s *Server) handleDeleteAsset(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	err := s.Pictures.Delete(r.Context(), m.campaign, chi.URLParam(r, "asset"))
	if r.Method == http.MethodDelete {
		if err != nil {
			writeError(w, r, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
		return
	}
	kind, msg := flashNotice, "Picture deleted."
	if err != nil {
		kind, msg = flashError, "The picture was not deleted: "+errMessage(err)
	}
	if d := r.PostFormValue("draft"); d != "" {
		draftRedirect(w, r, d, kind, msg)
		return
	}
	campaignRedirect(w, r, m.campaign, kind, msg)
}

// handleAsset serves a picture: GET /assets/{asset} (?size=thumb for the
// thumbnail). A campaign's GMs and the picture's uploader get it; a player
// only while one of the campaign's encounters shows it to them (the scene,
// a portrait of a combatant they see, a handout shown to them); everyone
// else gets 404, as for a picture that does not exist. Pictures never
// change (their URL is their content's hash): immutable, with an ETag.
func (s *Server) handleAsset(w http.ResponseWriter, r *http.Request) {
	if _, ok := requireUser(w, r); !ok {
		return
	}
	ctx, p := r.Context(), principalFrom(r)
	id := chi.URLParam(r, "asset")
	thumb := r.URL.Query().Get("size") == "thumb"
	holders, err := s.Access.AssetHolders(ctx, id)
	if err == nil && len(holders) == 0 {
		err = fray.Errorf(fray.ENOTFOUND, "no such picture")
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	for _, h := range holders {
		a, err := s.Access.Access(ctx, p.cred, p.user.ID, h.CampaignID, time.Now())
		if fray.ErrorCode(err) == fray.ENOTFOUND {
			continue
		}
		if err != nil {
			writeError(w, r, err)
			return
		}
		if a.Role != store.RoleGM && h.UploadedBy != p.user.ID {
			seen, err := s.Sight.PicturesSeen(ctx, h.CampaignID, history.Member{Characters: a.Characters})
			if err != nil {
				writeError(w, r, err)
				return
			}
			if !seen[engine.AssetPrefix+id] && !s.ownPortrait(ctx, h.CampaignID, a.Characters, engine.AssetPrefix+id) {
				continue
			}
		}
		etag := `"` + id + `"`
		if thumb {
			etag = `"` + id + `-thumb"`
		}
		w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		ct, data, err := s.Pictures.Data(ctx, h.CampaignID, id, thumb)
		if err != nil {
			writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(data)
		return
	}
	writeError(w, r, fray.Errorf(fray.ENOTFOUND, "no such picture"))
}

// ownPortrait reports whether picture is the portrait of one of the
// campaign characters a player plays (their character page shows it).
func (s *Server) ownPortrait(ctx context.Context, campaignID string, characters []string, picture string) bool {
	if s.StatBlocks == nil {
		return false
	}
	for _, id := range characters {
		if b, err := s.StatBlocks.StatBlock(ctx, store.KindCharacter, campaignID, id); err == nil && b.Portrait == picture {
			return true
		}
	}
	return false
}
