package swzones

import (
	"encoding/json"
	"net/url"
	"reflect"
	"testing"
)

func TestSchemaFormRoundTrip(t *testing.T) {
	stats := json.RawMessage(`{"wildCard":true,"armor":2,"bennies":1,
		"attributes":{"agility":"d8","smarts":"d4","spirit":"d6","strength":"d10","vigor":"d6"},
		"skills":{"fighting":"d8","notice":"d6"},
		"weapons":[{"id":"axe","name":"Axe","damage":"Str+d8"},{"id":"bow","name":"Bow","damage":"2d6","range":"12/24/48"}]}`)
	schema := ruleset.Schema()
	values, rows, err := schema.FormValues(stats)
	if err != nil || rows != 2 {
		t.Fatalf("form values: %v, %d rows", err, rows)
	}
	form := url.Values{}
	for k, v := range values {
		form.Set(k, v)
	}
	form.Set("weapons.5.name", "") // a blank row is dropped
	back, err := schema.ParseForm(form)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal(stats, &a)
	_ = json.Unmarshal(back, &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip:\n%s\n%s", stats, back)
	}
	values2, _, _ := schema.FormValues(back)
	if !reflect.DeepEqual(values, values2) {
		t.Fatalf("form values differ after the round trip")
	}
}

func TestDerive(t *testing.T) {
	stats := json.RawMessage(`{"armor":2,"attributes":{"agility":"d6","smarts":"d6","spirit":"d6","strength":"d6","vigor":"d6"},"skills":{"fighting":"d8"}}`)
	d, err := ruleset.Derive(stats)
	if err != nil {
		t.Fatal(err)
	}
	if d["Parry"] != "6" || d["Toughness"] != "7 (2)" {
		t.Fatalf("derived %v", d)
	}
	if _, err := ruleset.Derive(json.RawMessage(`{"attributes":{"agility":"d7"}}`)); err == nil {
		t.Fatal("a d7 was accepted")
	}
}

func TestSchemaFormIDsFromNames(t *testing.T) {
	form := url.Values{"attributes.agility": {"d6"}, "weapons.0.name": {"Short Spear"}, "weapons.0.damage": {"Str+d6"},
		"weapons.1.name": {"Short spear"}, "weapons.1.damage": {"Str+d4"}, "armor": {"x"}}
	if _, err := ruleset.Schema().ParseForm(form); err == nil {
		t.Fatal("armor x was accepted")
	}
	form.Set("armor", "1")
	raw, err := ruleset.Schema().ParseForm(form)
	if err != nil {
		t.Fatal(err)
	}
	var s statsSetup
	if err := json.Unmarshal(raw, &s); err != nil || len(s.Weapons) != 2 || s.Weapons[0].ID != "short-spear" || s.Weapons[1].ID != "short-spear-2" {
		t.Fatalf("%s %v", raw, err)
	}
}
