package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// TestDraftUndoRedo steps through a draft's edit history: every change
// can be undone and redone, an edit clears what could be redone, an edit
// that changes nothing is no step, and only the newest MaxDraftUndos are
// kept.
func TestDraftUndoRedo(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	c, err := db.CreateCampaign(ctx, "Campaign")
	if err != nil {
		t.Fatal(err)
	}
	d, err := db.CreateDraft(ctx, store.Draft{CampaignID: c.ID, Name: "v1", Ruleset: "toy", Setup: []byte(`{"v": 1}`)})
	if err != nil {
		t.Fatal(err)
	}
	update := func(v int) {
		t.Helper()
		if err := db.UpdateDraft(ctx, d.ID, fmt.Sprintf("v%d", v), []byte(fmt.Sprintf(`{"v": %d}`, v))); err != nil {
			t.Fatal(err)
		}
	}
	var expect func(wantName string, undos, redos int)
	step := func(redo bool, wantName string, undos, redos int) {
		t.Helper()
		if err := db.StepDraft(ctx, d.ID, redo); err != nil {
			t.Fatal(err)
		}
		expect(wantName, undos, redos)
	}

	expect = func(wantName string, undos, redos int) {
		t.Helper()
		got, err := db.Draft(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != wantName || string(got.Setup) != fmt.Sprintf(`{"v": %s}`, wantName[1:]) || got.Undos != undos || got.Redos != redos {
			t.Fatalf("draft is %s %s with %d undos and %d redos, want %s with %d and %d",
				got.Name, got.Setup, got.Undos, got.Redos, wantName, undos, redos)
		}
	}
	expect("v1", 0, 0)
	if err := db.StepDraft(ctx, d.ID, false); fray.ErrorCode(err) != fray.EINVALID || fray.ErrorMessage(err) != "there is nothing to undo" {
		t.Fatalf("undo with no history: %v", err)
	}
	update(2)
	update(3)
	expect("v3", 2, 0)
	update(3) // no change: no step
	expect("v3", 2, 0)
	step(false, "v2", 1, 1)
	step(false, "v1", 0, 2)
	if err := db.StepDraft(ctx, d.ID, false); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("undo past the start: %v", err)
	}
	expect("v1", 0, 2)
	step(true, "v2", 1, 1)
	update(4) // an edit forgets what could be redone
	expect("v4", 2, 0)
	if err := db.StepDraft(ctx, d.ID, true); fray.ErrorCode(err) != fray.EINVALID || fray.ErrorMessage(err) != "there is nothing to redo" {
		t.Fatalf("redo after an edit: %v", err)
	}
	for v := 5; v < 5+store.MaxDraftUndos+5; v++ {
		update(v)
	}
	last := 5 + store.MaxDraftUndos + 4
	expect(fmt.Sprintf("v%d", last), store.MaxDraftUndos, 0)
	for range store.MaxDraftUndos {
		if err := db.StepDraft(ctx, d.ID, false); err != nil {
			t.Fatal(err)
		}
	}
	expect(fmt.Sprintf("v%d", last-store.MaxDraftUndos), 0, store.MaxDraftUndos)
	if err := db.StepDraft(ctx, "00000000-0000-0000-0000-000000000000", false); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("an unknown draft: %v", err)
	}
	if err := db.DeleteDraft(ctx, d.ID); err != nil {
		t.Fatalf("a draft with a history is deleted: %v", err)
	}
}
