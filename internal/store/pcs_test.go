package store_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/fray-vtt/fray/internal/store"
)

// The player characters of a campaign are those of its encounters'
// setups, each once, by the newest encounter's name.
func TestPlayerCharacters(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	first := newEncounter(t, db)
	for _, setup := range []string{
		`{"combatants":[{"id":"brak","name":"Brak","pc":true},{"id":"orc","name":"Orc"}]}`,
		`{"combatants":[{"id":"brak","name":"Brak the Bold","pc":true},{"id":"ada","name":"Ada","pc":true}]}`,
		`{"combatants":"not a list"}`,
	} {
		if _, err := db.CreateEncounter(ctx, store.Encounter{ID: store.NewID(), CampaignID: first.CampaignID, Name: "Fight",
			Ruleset: "sw-zones", Setup: []byte(setup), Initial: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	other := newEncounter(t, db)
	if _, err := db.CreateEncounter(ctx, store.Encounter{ID: store.NewID(), CampaignID: other.CampaignID, Name: "Elsewhere",
		Ruleset: "sw-zones", Setup: []byte(`{"combatants":[{"id":"zed","name":"Zed","pc":true}]}`), Initial: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := db.PlayerCharacters(ctx, first.CampaignID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []store.PC{{ID: "ada", Name: "Ada"}, {ID: "brak", Name: "Brak the Bold"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("PlayerCharacters = %+v, want %+v", got, want)
	}
}
