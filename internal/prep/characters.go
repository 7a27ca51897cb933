package prep

import (
	"context"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// CharacterStore lists a campaign's characters; *store.DB provides it.
type CharacterStore interface {
	Characters(ctx context.Context, campaignID string) ([]store.Character, error)
}

// CharacterCreator saves campaign characters (the store).
type CharacterCreator interface {
	SaveCharacter(ctx context.Context, s store.CharacterSave) (int, error)
}

// AdoptCharacters makes every player character of encounter e that the
// campaign does not have yet (those not taken) a campaign character, with
// the encounter's stats as its first revision: an example's or a file's
// characters get a sheet, a page and a history like prepared ones, and the
// next encounter they join starts from their sheet. An id the campaign
// already uses for a character of another ruleset is left alone.
func AdoptCharacters(ctx context.Context, db CharacterCreator, e store.Encounter, s engine.Setup, taken []string) error {
	for _, c := range s.Combatants {
		if !c.PC || slices.Contains(taken, c.ID) || len(c.Stats) == 0 {
			continue
		}
		_, err := db.SaveCharacter(ctx, store.CharacterSave{
			Block:  store.StatBlock{ID: c.ID, CampaignID: e.CampaignID, Ruleset: s.Ruleset, Name: c.Name, Stats: c.Stats},
			Create: true, Kind: store.RevisionCreated, EncounterID: e.ID, EncounterName: e.Name,
		})
		if err != nil && fray.ErrorCode(err) != fray.ECONFLICT {
			return err
		}
	}
	return nil
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
