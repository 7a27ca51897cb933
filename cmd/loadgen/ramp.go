package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// rampUp measures capacity as a number of live tables: at each step of
// -ramp it sets up encounters (and connects their clients) up to the step's
// count, offers one command per -period per table for -warmup plus
// -duration, and prints a row: tables, commands/s, p99 from submitting a
// command to its last client, server and PostgreSQL CPU, and with -pid the
// server's memory per live table (its RSS growth since before the first
// encounter was set up, ÷ tables, its clients connected). It stops after the first step
// whose p99 passes -limit: the step before it is the capacity.
func rampUp(ctx context.Context, o options, fl *fleet, campaign string, doc []byte, rssStart int64, stdout io.Writer, logf func(string, ...any)) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "tables\tcommands/s\tp50 ms\tp99 ms\tundelivered\tserver cores\tPostgreSQL cores\tserver ms/command\tRSS MiB\tKiB per table\t")
	for step, n := range o.ramp {
		if add := n - len(fl.encs); add > 0 && step > 0 {
			setupCtx, cancel := context.WithTimeout(ctx, o.setupTimeout)
			from := len(fl.encs)
			more := make([]*encounter, add)
			logf("setting up %d more encounters ...\n", add)
			err := parallel(add, o.parallel, func(i int) error {
				e, err := setupEncounter(setupCtx, fl.a, campaign, doc, from+i)
				more[i] = e
				return err
			})
			if err == nil {
				fl.encs = append(fl.encs, more...)
				logf("connecting %d more clients ...\n", add*o.clients)
				err = fl.connectTo(setupCtx, fl.pages, more)
			}
			cancel()
			if err != nil {
				return err
			}
		}
		so := o
		so.encounters = n
		so.rate = float64(n) / o.period.Seconds()
		res := &result{Encounters: n, ClientsPerEncounter: o.clients, Connections: n * o.clients, Rate: so.rate}
		interrupted, err := measure(ctx, so, fl.encs, step+1, res, logf)
		if err != nil {
			return err
		}
		row := fmt.Sprintf("%d\t%.1f\t%.1f\t%.1f\t%d\t", n, res.CommandsPerSecond, res.Latency.P50, res.Latency.P99, res.Undelivered)
		if c := res.CPU; c != nil {
			row += fmt.Sprintf("%.2f\t%.2f\t%.2f\t", c.ServerCores, c.DatabaseCores, c.ServerMsPerCommand)
		} else {
			row += "\t\t\t"
		}
		if o.pid > 0 {
			rss, err := settledRSS(ctx, o.pid)
			if err != nil {
				return err
			}
			row += fmt.Sprintf("%.0f\t%.0f\t", kibToMiB(rss), float64(rss-rssStart)/float64(n))
		} else {
			row += "\t\t"
		}
		fmt.Fprintln(tw, row)
		if err := tw.Flush(); err != nil {
			return err
		}
		if interrupted {
			return fmt.Errorf("interrupted at %d tables", n)
		}
		if time.Duration(res.Latency.P99*float64(time.Millisecond)) > o.limit {
			logf("p99 %.1f ms passed %s at %d tables: the capacity is the step before\n", res.Latency.P99, o.limit, n)
			return nil
		}
	}
	logf("every step held p99 within %s\n", o.limit)
	return nil
}
