package prep

import (
	"context"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/store"
)

// CharacterStore lists a campaign's characters; *store.DB provides it.
type CharacterStore interface {
	Characters(ctx context.Context, campaignID string) ([]store.Character, error)
}

// TakeCharacters gives every player character of s the stats of the
// campaign's character with the same id and ruleset, as of its latest
// revision, so an encounter starts from the character sheet as it is now
// (wounds and all), whatever stats a draft or a file copied earlier. It
// returns the ids it updated.
func TakeCharacters(ctx context.Context, db CharacterStore, campaignID string, s *engine.Setup) ([]string, error) {
	chars, err := db.Characters(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	byID := map[string]store.Character{}
	for _, c := range chars {
		byID[c.ID] = c
	}
	var taken []string
	for i := range s.Combatants {
		c := &s.Combatants[i]
		ch, ok := byID[c.ID]
		if !c.PC || !ok || ch.Ruleset != s.Ruleset {
			continue
		}
		c.Stats = append([]byte(nil), ch.Stats...)
		taken = append(taken, c.ID)
	}
	return taken, nil
}
