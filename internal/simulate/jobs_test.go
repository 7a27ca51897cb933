package simulate_test

import (
	"context"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/simulate"
)

// waitFor polls cond until it holds, failing the test after a deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := patience.Deadline()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func state(j *simulate.Jobs, campaign string) simulate.Status {
	s, _ := j.Status(campaign)
	return s
}

// TestJobsOnePerCampaign: a campaign runs one simulation at a time;
// with one worker, another campaign's waits its turn; a simulation shows
// its progress, and cancelling keeps what it played.
func TestJobsOnePerCampaign(t *testing.T) {
	ex := everyExample(t)[0]
	j := simulate.NewJobs(simulate.JobsConfig{Workers: 1})
	first, err := j.Start("c1", "draft-a", ex.rs, ex.setup, simulate.Options{Runs: simulate.MaxRuns})
	if err != nil || first.Key != "draft-a" || first.Runs != simulate.MaxRuns {
		t.Fatalf("%+v, %v", first, err)
	}
	if _, err := j.Start("c1", "draft-b", ex.rs, ex.setup, simulate.Options{}); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Fatalf("a second simulation in the campaign: %v", err)
	}
	waitFor(t, "progress", func() bool { return state(j, "c1").Done > 0 })
	if s := state(j, "c1"); s.State != simulate.Running {
		t.Errorf("%+v", s)
	}
	other, err := j.Start("c2", "draft-c", ex.rs, ex.setup, simulate.Options{Runs: 5})
	if err != nil {
		t.Fatal(err)
	}
	if other.State != simulate.Queued || state(j, "c2").State != simulate.Queued {
		t.Errorf("with the one worker busy: %+v", state(j, "c2"))
	}
	if !j.Cancel("c1") {
		t.Fatal("nothing to cancel")
	}
	s, err := j.Wait(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if s.State != simulate.Finished || s.Result == nil || s.Result.Stopped != "cancelled" || s.Result.Runs == 0 || s.Result.Runs == simulate.MaxRuns {
		t.Errorf("cancelled: %+v", s)
	}
	s, err = j.Wait(context.Background(), "c2")
	if err != nil || s.State != simulate.Finished || s.Result.Runs != 5 || s.Done != 5 {
		t.Errorf("the queued one: %+v, %v", s, err)
	}
	if j.Cancel("c2") {
		t.Error("cancelled a finished simulation")
	}
	again, err := j.Start("c1", "draft-b", ex.rs, ex.setup, simulate.Options{Runs: 3})
	if err != nil || again.Key != "draft-b" {
		t.Fatalf("after the first stopped: %+v, %v", again, err)
	}
	if _, ok := j.Status("c3"); ok {
		t.Error("a campaign that simulated nothing has a status")
	}
}

// TestJobsBudget: a simulation stops when its campaign's time runs out;
// none starts until a tenth of the budget is back.
func TestJobsBudget(t *testing.T) {
	ex := everyExample(t)[0]
	j := simulate.NewJobs(simulate.JobsConfig{Workers: 2, Budget: 100 * time.Millisecond, Window: time.Second})
	if _, err := j.Start("c1", "d", ex.rs, ex.setup, simulate.Options{Runs: simulate.MaxRuns}); err != nil {
		t.Fatal(err)
	}
	s, err := j.Wait(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if s.Result == nil || s.Result.Stopped != "out of time" || s.Result.Runs >= simulate.MaxRuns {
		t.Fatalf("%+v", s)
	}
	if _, err := j.Start("c1", "d", ex.rs, ex.setup, simulate.Options{Runs: 1}); fray.ErrorCode(err) != fray.ERATELIMIT {
		t.Fatalf("with the budget spent: %v", err)
	}
	if _, err := j.Start("c2", "d", ex.rs, ex.setup, simulate.Options{Runs: 1}); err != nil {
		t.Fatalf("another campaign: %v", err)
	}
	waitFor(t, "the budget to refill", func() bool {
		_, err := j.Start("c1", "d", ex.rs, ex.setup, simulate.Options{Runs: 1})
		return err == nil
	})
}

// TestJobsBadInput: a setup that cannot be played or a bad number of runs
// fails at once and starts nothing.
func TestJobsBadInput(t *testing.T) {
	ex := everyExample(t)[0]
	j := simulate.NewJobs(simulate.JobsConfig{})
	bad := ex.setup
	bad.Combatants = nil
	if _, err := j.Start("c1", "d", ex.rs, bad, simulate.Options{}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("no combatants: %v", err)
	}
	if _, err := j.Start("c1", "d", ex.rs, ex.setup, simulate.Options{Runs: simulate.MaxRuns + 1}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("too many runs: %v", err)
	}
	if _, ok := j.Status("c1"); ok {
		t.Error("a refused simulation has a status")
	}
}
