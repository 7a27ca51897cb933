package d20under

import (
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// playOut plays setup to its end with the enginetest bot, as the GM (who
// may do everything), picking among the advertised actions by weights
// (kinds not listed weigh 2) and answering every decision. Every
// advertised action must be accepted or refused with a clear code, at most
// a quarter of them refused; the log must replay to the same state. It
// returns what was done (enginetest.Played.Done).
func playOut(t *testing.T, setup engine.Setup, seed uint64, weights map[string]int, maxCommands int) map[string]int {
	t.Helper()
	bot := enginetest.Bot{Weights: weights, Default: 2, MaxCommands: maxCommands, MaxRefusals: maxCommands / 4,
		Refusable: func(c engine.Command, _ error) bool { return c.Kind != engine.KindAnswer }}
	return bot.Play(t, New(), setup, seed).Done
}

// The GM's rulings are rare at the table.
var botWeights = map[string]int{
	CmdAttack: 14, CmdShoot: 12, CmdEngage: 8, CmdMove: 5, CmdCharge: 3, CmdEndTurn: 3, CmdDeathTest: 5, CmdStand: 6,
	CmdAdvance: 6, CmdBreakFree: 4, CmdDeclared: 6, CmdSurpriseHit: 6, CmdFeat: 1, CmdSteelyGaze: 1,
	GMCondition: 0, GMAdjust: 0, GMAmmo: 0, GMAdvantage: 1, GMPlaceTrap: 1, GMDistance: 0, GMSurprise: 2, GMBegin: 1, GMEndSurpise: 1,
}

func TestRandomPlaySmoke(t *testing.T) {
	specs := []spec{
		{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Stats: map[string]any{"xp": 3, "items": map[string]int{"herbal-cure": 2}},
			Weapons: []map[string]any{{"id": "spear", "name": "Spear", "type": "long"}, {"id": "bow", "name": "Bow", "type": "bow"}},
			Armour:  map[string]any{"type": "light"}},
		{ID: "bo", Side: "heroes", PC: true, X: 2, Y: 1, Stats: map[string]any{"abilities": map[string]string{"medicus": "novice"}}},
		{ID: "orc", Side: "foes", X: 6, Y: 5, Armour: map[string]any{"type": "medium"}},
		{ID: "gob", Side: "foes", X: 7, Y: 6, Weapons: []map[string]any{{"id": "sling", "name": "Knives", "type": "thrown", "count": 4}, {"id": "knife", "name": "Knife", "type": "short"}}},
	}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run("grid/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
			done := playOut(t, gridSetup(map[string]string{OptFreeAttackOffers: OffersPCs, OptFeatOffers: OffersPCs}, 10, 8, nil, specs...), seed, botWeights, 3000)
			t.Logf("%v", done)
		})
		t.Run("ladder/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
			done := playOut(t, ladderSetup(map[string]string{OptFreeAttackOffers: OffersPCs, OptFeatOffers: OffersPCs}, "Medium", specs...), seed, botWeights, 3000)
			t.Logf("%v", done)
		})
	}
}
