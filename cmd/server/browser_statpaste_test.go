package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/testdb"
)

// pastedThug is a stat block as the d20-tactical book prints it, copied
// from a PDF: wrapped mid-entry, a Unicode minus, and a Dexterity the
// copy garbled ("l2").
const pastedThug = `Street Thug (Strong Ordinary 1): CR 1/2; Medium-size human; HD 1d8+1; hp 5; Mas 12;
Init +1; Spd 30 ft.; Defense 13, touch 12, flat-
footed 12 (+1 Dex, +1 class, +1 leather); BAB +1; Grap +2; Atk +2 melee (1d6+1 nonlethal,
unarmed strike), or +2 ranged (2d6, Colt Python); SV Fort +2, Ref +1, Will −1; AP 0;
Rep +0; Str 13, Dex l2, Con 12, Int 10, Wis 9, Cha 8.
Skills: Intimidate +3, Jump +3, Treat Injury +1.`

// TestBrowserPasteStatBlock: the GM pastes a stat block into a new
// bestiary entry; the preview shows what was filled, the line it did not
// understand and the value it assumed, highlighted; the GM corrects the
// highlighted value and saves; the entry is stored as corrected, and is
// dropped on a draft's board like any other.
func TestBrowserPasteStatBlock(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gmUser := srv.signup("gamemaster")
	gmAPI := srv.withUser(gmUser)
	var camp struct{ ID string }
	gmAPI.do("POST", "/api/campaigns", map[string]string{"name": "Pasted"}, &camp)
	c := "/campaigns/" + camp.ID
	rs, err := rules.Registry().Get("d20-tactical")
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := prep.EditorOf(rs); !ok || e.Model != board.Grid {
		t.Fatalf("d20-tactical's draft board is not a grid: %+v", e)
	}
	for _, size := range browserSizes {
		t.Run(size.name, func(t *testing.T) {
			gm := tab(t, size.b(t))
			login(t, gm, srv.URL, gmUser.Name)
			steps(t, gm, chromedp.Navigate(srv.URL+c+"/bestiary/new?ruleset=d20-tactical"), chromedp.WaitVisible(`#paste-box`, chromedp.ByQuery),
				chromedp.Click(`#paste-box summary`, chromedp.ByQuery), chromedp.WaitVisible(`#paste-text`, chromedp.ByQuery),
				chromedp.SetValue(`#paste-text`, pastedThug, chromedp.ByQuery),
				submits(`#paste-read`), chromedp.WaitVisible(`#paste-report`, chromedp.ByQuery))
			var name, unknown, assumed, dex, hp string
			var marked []string
			steps(t, gm, chromedp.Value(`#stat-name`, &name, chromedp.ByQuery),
				chromedp.Text(`#paste-unknown`, &unknown, chromedp.ByQuery),
				chromedp.Text(`#paste-assumed`, &assumed, chromedp.ByQuery),
				chromedp.Value(`#f-abilities_dex`, &dex, chromedp.ByQuery),
				chromedp.Value(`#f-hp`, &hp, chromedp.ByQuery),
				chromedp.Evaluate(`[...document.querySelectorAll('#stat-form .field.assumed input, #stat-form .field.assumed select')].map(e => e.name)`, &marked))
			if name != "Street Thug" || hp != "5" {
				t.Errorf("the form reads name %q, hp %q", name, hp)
			}
			if !strings.Contains(unknown, "line 5") || !strings.Contains(unknown, "Dex l2") {
				t.Errorf("not understood: %q, want line 5's Dex l2", unknown)
			}
			if !strings.Contains(assumed, "Dexterity") || dex != "10" {
				t.Errorf("assumed %q, Dexterity %q", assumed, dex)
			}
			if !strings.Contains(strings.Join(marked, " "), "abilities.dex") || !strings.Contains(strings.Join(marked, " "), "weapons.1.range") {
				t.Errorf("highlighted fields %v, want Dexterity and the pistol's range", marked)
			}
			keepScreenshot(gm, "statpaste-preview-"+size.name)
			steps(t, gm, chromedp.ScrollIntoView(`#stat-form .field.assumed`, chromedp.ByQuery))
			keepScreenshot(gm, "statpaste-assumed-"+size.name)
			if size.name == "phone" {
				return // the phone checks the page; the desktop saves and plays
			}
			// The GM corrects the highlighted Dexterity and saves.
			steps(t, gm, chromedp.SetValue(`#f-abilities_dex`, "12", chromedp.ByQuery), submits(`#save-stats`),
				chromedp.WaitVisible(`#delete-stats`, chromedp.ByQuery))
			p := srv.get(gmUser, c+"/bestiary.json")
			var entries []struct {
				ID    string
				Name  string
				Stats struct {
					Abilities map[string]int
					HP        int
					Weapons   []struct{ Name, Damage string }
				}
			}
			if err := json.Unmarshal(p.body, &entries); err != nil || len(entries) != 1 {
				t.Fatalf("bestiary: %v %s", err, p.body)
			}
			e := entries[0]
			if e.ID != "street-thug" || e.Stats.Abilities["dex"] != 12 || e.Stats.HP != 5 || len(e.Stats.Weapons) != 2 || e.Stats.Weapons[1].Name != "Colt Python" {
				t.Fatalf("stored %+v", e)
			}
			// Dropped on a draft's board (in a window as tall as the
			// editor's board and tray).
			gm = tab(t, browserSized(t, 1300, 1500))
			login(t, gm, srv.URL, gmUser.Name)
			steps(t, gm, chromedp.Navigate(srv.URL+c), chromedp.WaitVisible(`#new-draft-name`, chromedp.ByQuery),
				chromedp.SendKeys(`#new-draft-name`, "Alley", chromedp.ByQuery),
				setValue("new-draft-ruleset", "d20-tactical"),
				submits(`#create-draft`),
				chromedp.WaitVisible(`#board-preview`, chromedp.ByQuery))
			fx, fy := centre(t, gm, "#add-b-street-thug")
			x, y := square(t, gm, 2, 2)
			steps(t, gm, drag(fx, fy, x, y), waitJS(`document.querySelectorAll('#tray-combatants .chip').length === 1`))
			var chip string
			steps(t, gm, chromedp.Text(`#tray-combatants .chip`, &chip, chromedp.ByQuery))
			if !strings.Contains(chip, "Street Thug") {
				t.Errorf("the board's combatant reads %q", chip)
			}
			keepScreenshot(gm, "statpaste-dropped")

			// The other ways in: the form, and a Foundry file from the
			// campaign page.
			gm = tab(t, newBrowser(t))
			login(t, gm, srv.URL, gmUser.Name)
			steps(t, gm, chromedp.Navigate(srv.URL+c+"/bestiary/new?ruleset=sw-zones"), chromedp.WaitVisible(`#stat-form`, chromedp.ByQuery))
			keepScreenshot(gm, "import-form")
			pack, err := filepath.Abs("../../internal/rules/testdata/foundry/symbaroum-pack.db")
			if err != nil {
				t.Fatal(err)
			}
			steps(t, gm, chromedp.Navigate(srv.URL+c), chromedp.WaitVisible(`#foundry-bestiary`, chromedp.ByQuery),
				chromedp.ScrollIntoView(`#foundry-bestiary`, chromedp.ByQuery),
				chromedp.SetUploadFiles(`#foundry-bestiary-file`, []string{pack}, chromedp.ByQuery),
				setValue("foundry-bestiary-ruleset", "d20-under"))
			keepScreenshot(gm, "import-foundry-form")
			steps(t, gm, submits(`#foundry-bestiary-import`), chromedp.WaitVisible(`#foundry-result`, chromedp.ByQuery))
			var result string
			steps(t, gm, chromedp.Text(`#foundry-result`, &result, chromedp.ByQuery))
			if !strings.Contains(result, "Corrupted Wolf") || !strings.Contains(result, "Sigrid") || !strings.Contains(result, "Portrait kept.") {
				t.Errorf("the Foundry report reads %q", result)
			}
			keepScreenshot(gm, "import-foundry-result")
		})
	}
}
