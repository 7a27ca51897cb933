package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"text/tabwriter"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/simulate"
)

// simulateCmd runs `server simulate FILE [-runs N] [-seed S] [-rounds R]
// [-json]`: the odds of a setup document's fight, played out in this
// process (no database, no server).
func simulateCmd(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprint(stdout, usage)
			return nil
		}
		return fmt.Errorf("usage: server simulate FILE [-runs N] [-seed S] [-rounds R] [-json]")
	}
	file := args[0]
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stdout)
	runs := fs.Int("runs", simulate.DefaultRuns, "fights to play")
	seed := fs.Uint64("seed", 0, "seed of the dice (0: a random one, printed)")
	rounds := fs.Int("rounds", simulate.DefaultMaxRounds, "rounds after which a fight counts as undecided")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if *runs < 1 || *runs > simulate.MaxRuns {
		return fmt.Errorf("-runs must be between 1 and %d", simulate.MaxRuns)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	setup, err := engine.DecodeSetup(data)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	rs, err := rules.Registry().Get(setup.Ruleset)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	r, err := simulate.Run(ctx, rs, setup, simulate.Options{Runs: *runs, Seed: *seed, MaxRounds: *rounds})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printOdds(stdout, r)
	return nil
}

// printOdds writes a result as tables: the sides, then the combatants.
func printOdds(out io.Writer, r simulate.Result) {
	fmt.Fprintf(out, "%s (%s): %d fights, seed %d, played by %s.\n", r.Encounter, r.Ruleset, r.Runs, r.Seed, r.Policy)
	if r.Stopped != "" {
		fmt.Fprintf(out, "Stopped (%s) after %d of %d fights.\n", r.Stopped, r.Runs, r.Asked)
	}
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "side\twins\twin rate\t95 % interval\tmedian rounds of its wins")
	for _, s := range r.Sides {
		fmt.Fprintf(w, "%s\t%d\t%.1f %%\t%.1f–%.1f %%\t%s\n", s.Name, s.Wins, 100*s.Rate, 100*s.Low, 100*s.High, rounds(s.Rounds, s.Wins))
	}
	fmt.Fprintf(w, "undecided\t%d\n", r.Undecided)
	w.Flush()
	fmt.Fprintf(out, "\nMedian length: %s rounds (a fight still on after %d rounds is undecided): %s.\n%s\n\n",
		trim(r.Rounds), r.MaxRounds, r.Length, simulate.LengthHow())
	w = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "combatant\tside\tfalls")
	sides := map[string]string{}
	for _, s := range r.Sides {
		sides[s.ID] = s.Name
	}
	for _, c := range r.Combatants {
		fmt.Fprintf(w, "%s\t%s\t%.0f %%\n", c.Name, sides[c.Side], 100*c.Rate)
	}
	w.Flush()
}

func rounds(median float64, wins int) string {
	if wins == 0 {
		return "–"
	}
	return trim(median)
}

// trim writes a median: 7, or 7.5.
func trim(x float64) string {
	if x == float64(int(x)) {
		return fmt.Sprint(int(x))
	}
	return fmt.Sprintf("%.1f", x)
}
