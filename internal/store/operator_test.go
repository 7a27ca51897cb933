package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
)

// A reset link works once, even used twice at the same moment; a link
// made before the password changed another way, or for a disabled
// account, does not work; disabling ends the account's sessions.
func TestPasswordResetLinks(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	u := newUser(t, db, "forgetful")
	now := time.Now()
	_, hash := auth.NewToken("")
	if err := db.CreatePasswordReset(ctx, u.ID, hash, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := db.PasswordResetUser(ctx, hash, time.Now()); err != nil || got.ID != u.ID {
		t.Fatalf("the link's account: %v %v", got, err)
	}
	var wg sync.WaitGroup
	results := make([]error, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, results[i] = db.ResetPassword(ctx, hash, "new-hash", time.Now())
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range results {
		if err == nil {
			ok++
		} else if fray.ErrorCode(err) != fray.ENOTFOUND {
			t.Errorf("a second use: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of 4 concurrent uses succeeded", ok)
	}

	// A link older than the last password change.
	_, old := auth.NewToken("")
	if err := db.CreatePasswordReset(ctx, u.ID, old, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if err := db.SetPassword(ctx, u.ID, "another-hash"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ResetPassword(ctx, old, "x", time.Now()); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("a link from before a password change: %v", err)
	}

	// A disabled account: no link works, its sessions end.
	_, fresh := auth.NewToken("")
	if err := db.CreatePasswordReset(ctx, u.ID, fresh, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, session := auth.NewToken("")
	if err := db.CreateSession(ctx, u.ID, session, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.SetUserDisabled(ctx, u.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ResetPassword(ctx, fresh, "x", time.Now()); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("a link of a disabled account: %v", err)
	}
	if _, err := db.SessionUser(ctx, session, time.Now()); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("a disabled account's session: %v", err)
	}
	if us, err := db.UsersByEmail(ctx, "nobody@example.com"); err != nil || len(us) != 0 {
		t.Errorf("users by an unknown address: %v %v", us, err)
	}
	if err := db.SetUserDisabled(ctx, "00000000-0000-4000-8000-000000000000", true); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("disabling an unknown account: %v", err)
	}
}
