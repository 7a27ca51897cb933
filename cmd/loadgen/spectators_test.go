package main

import (
	"io"
	"testing"
	"time"
)

func TestCommandOf(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"events","seq":9,"events":[{"seq":8,"kind":"turn-ended","data":{"command":"nested"},"command":"lg-3-17"},{"command":"lg-3-17"}]}`: "lg-3-17",
		`{"type":"events","seq":9,"events":[{"text":"say \"command\":\"lg-1\""}],"html":{"log":"<li>\"command\":\"lg-2\"</li>"}}`:                  "",
		`{"type":"events","seq":9,"events":[{"command":"lg-4-`:                                                                                     "",
		`{"type":"events","seq":3,"events":[],"html":{}}`:                                                                                          "",
	} {
		if got := commandOf([]byte(in)); got != want {
			t.Errorf("commandOf(%s) = %q, want %q", in, got, want)
		}
	}
}

// A command's latency to the last client and to the last spectator are
// recorded apart, each when its own last one has it, and the flight is
// done only when both are.
func TestEncounterSpectated(t *testing.T) {
	e := &encounter{flights: map[string]*flight{}}
	t0 := time.Now()
	e.flights["a"] = &flight{sent: t0, left: 2, watchers: 2, measured: true}
	e.delivered("a", t0.Add(1*time.Millisecond))
	e.spectated("a", t0.Add(2*time.Millisecond))
	e.delivered("a", t0.Add(3*time.Millisecond))
	if len(e.lat) != 1 || e.lat[0] != 3*time.Millisecond || len(e.specLat) != 0 || e.undelivered() != 1 {
		t.Fatalf("after every client: lat %v, specLat %v, undelivered %d", e.lat, e.specLat, e.undelivered())
	}
	e.delivered("a", t0.Add(4*time.Millisecond)) // a duplicate changes nothing
	e.spectated("a", t0.Add(5*time.Millisecond))
	if len(e.lat) != 1 || len(e.specLat) != 1 || e.specLat[0] != 5*time.Millisecond || e.undelivered() != 0 {
		t.Errorf("after every spectator: lat %v, specLat %v, undelivered %d", e.lat, e.specLat, e.undelivered())
	}
}

func TestParseSpectatorFlags(t *testing.T) {
	o, err := parseFlags([]string{"-encounters", "1", "-spectators", "2000", "-rounds", "2", "-spectator-token", "tok"}, io.Discard)
	if err != nil || o.spectators != 2000 || o.rounds != 2 || o.specToken != "tok" {
		t.Errorf("parseFlags = %+v, %v", o, err)
	}
	for _, args := range [][]string{{"-spectators", "-1"}, {"-spectators", "10", "-rounds", "0"}, {"-spectators", "10", "-compare"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
}
