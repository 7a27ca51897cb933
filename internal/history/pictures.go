package history

import (
	"context"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
)

// PicturesSeen returns the URLs of the pictures member m may see in
// campaign campaignID's encounters now (engine.AssetsSeen: the scene, the
// portraits of the combatants they see, the handouts shown to them), read
// from the stored states in one statement. The server serves a player no
// other picture of the campaign but their own uploads.
func (s *Service) PicturesSeen(ctx context.Context, campaignID string, m Member) (map[string]bool, error) {
	lives, err := s.db.LoadEncounters(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, l := range lives {
		rs, st, err := play.Fold(s.rules, l)
		if err != nil {
			return nil, err
		}
		for _, u := range engine.AssetsSeen(rs, st, m.viewer(st)) {
			seen[u] = true
		}
	}
	return seen, nil
}
