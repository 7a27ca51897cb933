package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/fray-vtt/fray/internal/store"
)

// The player characters of a campaign are those of its encounters'
// setups, each once, by the newest encounter's name, with the encounters
// each is in.
func TestPlayerCharacters(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	first := newEncounter(t, db)
	for i, setup := range []string{
		`{"combatants":[{"id":"brak","name":"Brak","pc":true},{"id":"orc","name":"Orc"}]}`,
		`{"combatants":[{"id":"brak","name":"Brak the Bold","pc":true},{"id":"ada","name":"Ada","pc":true}]}`,
		`{"combatants":"not a list"}`,
	} {
		if _, err := db.CreateEncounter(ctx, store.Encounter{ID: store.NewID(), CampaignID: first.CampaignID, Name: fmt.Sprint("Fight ", i+1),
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
	if want := []store.PC{
		{ID: "ada", Name: "Ada", Encounters: []string{"Fight 2"}},
		{ID: "brak", Name: "Brak the Bold", Encounters: []string{"Fight 1", "Fight 2"}},
	}; !reflect.DeepEqual(got, want) {
		t.Fatalf("PlayerCharacters = %+v, want %+v", got, want)
	}
}
