package web

import (
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/simulate"
)

// OddsProps is a draft's encounter odds section: the Simulate form, a
// simulation's progress, its result.
type OddsProps struct {
	DraftID string
	// Problem is why the draft cannot be simulated yet ("" when it can).
	Problem string
	// Status is the campaign's last simulation, when it is this draft's;
	// nil for none.
	Status *simulate.Status
	// Elsewhere is set while another draft of the campaign is simulated:
	// one at a time per campaign.
	Elsewhere bool
	// Error is what went wrong with the last request (a refusal).
	Error string
}

// Active reports whether a simulation of this draft waits or runs: the
// section then refreshes itself.
func (p OddsProps) Active() bool { return p.Status != nil && p.Status.Active() }

// oddsRuns are the numbers of fights the form offers.
var oddsRuns = []int{100, simulate.DefaultRuns, 500, 1000}

// percent writes a rate as 32.5 %, the sign kept with its number (a
// no-break space).
func percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "\u00a0%" }

// interval writes an interval as 23.7 – 41.7 %, breaking, on a narrow
// screen, only after the dash.
func interval(s simulate.SideOdds) string {
	return fmt.Sprintf("%s\u00a0– %s", strconv.FormatFloat(100*s.Low, 'f', 1, 64), percent(s.High))
}

// medianText writes a median: 7, or 7.5; "–" when there is none.
func medianText(x float64, count int) string {
	if count == 0 {
		return "–"
	}
	if x == float64(int(x)) {
		return strconv.Itoa(int(x))
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

func oddsSideName(r *simulate.Result, id string) string {
	for _, s := range r.Sides {
		if s.ID == id {
			return s.Name
		}
	}
	return id
}

// rate is a rate as a meter's value.
func rate(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
