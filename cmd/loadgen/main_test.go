package main

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseTargetRefusesOtherHosts(t *testing.T) {
	for _, raw := range []string{
		"http://127.0.0.1:8080", "http://127.0.0.2:9000/", "http://[::1]:8080", "https://127.0.0.1",
	} {
		if _, err := parseTarget(raw); err != nil {
			t.Errorf("parseTarget(%q): %v", raw, err)
		}
	}
	for _, raw := range []string{
		"http://10.0.0.1:8080", "http://192.168.1.2", "http://example.com", "http://0.0.0.0:8080",
		"http://[::]:8080", "http://127.0.0.1.example.com",
	} {
		_, err := parseTarget(raw)
		if !errors.Is(err, errNotLoopback) {
			t.Errorf("parseTarget(%q) = %v, want a loopback refusal", raw, err)
		}
	}
	for _, raw := range []string{"ftp://127.0.0.1", "127.0.0.1:8080", "http://127.0.0.1/api"} {
		if _, err := parseTarget(raw); err == nil {
			t.Errorf("parseTarget(%q) accepted", raw)
		}
	}
}

func TestLoopbackOnlyDialControl(t *testing.T) {
	if err := loopbackOnly("tcp", "127.0.0.1:80", nil); err != nil {
		t.Error(err)
	}
	if err := loopbackOnly("tcp", "10.1.2.3:80", nil); !errors.Is(err, errNotLoopback) {
		t.Errorf("dial to 10.1.2.3 allowed: %v", err)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	l := summarise(d)
	if l.Count != 100 || l.P50 != 50 || l.P90 != 90 || l.P99 != 99 || l.Max != 100 {
		t.Errorf("summarise = %+v", l)
	}
	if got := percentile([]time.Duration{7}, 99); got != 7 {
		t.Errorf("percentile of one = %v", got)
	}
	if l := summarise(nil); l.Count != 0 {
		t.Errorf("summarise(nil) = %+v", l)
	}
}

func TestParseProc(t *testing.T) {
	rss, err := parseRSS(strings.NewReader("Name:\tserver\nVmPeak:\t 9 kB\nVmRSS:\t   51234 kB\n"))
	if err != nil || rss != 51234 {
		t.Errorf("parseRSS = %d, %v", rss, err)
	}
	st, err := parseStat([]byte("4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 9 0 1 2 3"))
	if err != nil || st.ppid != 17 || st.ticks != 281 {
		t.Errorf("parseStat = %+v, %v", st, err)
	}
}

func TestParseBusy(t *testing.T) {
	busy, err := parseBusy([]byte("cpu  100 5 50 1000 7 1 2 3 40 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n"))
	if err != nil || busy != 161 {
		t.Errorf("parseBusy = %d, %v, want 161", busy, err)
	}
}

func TestEndTurnMessage(t *testing.T) {
	var m struct {
		Type    string
		ID      string
		Command struct{ Kind, Actor string }
	}
	if err := json.Unmarshal(endTurn("lg-7", `o"dd`), &m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "command" || m.ID != "lg-7" || m.Command.Kind != "end-turn" || m.Command.Actor != `o"dd` {
		t.Errorf("endTurn = %+v", m)
	}
}

func TestEncounterDelivery(t *testing.T) {
	e := &encounter{flights: map[string]*flight{}}
	t0 := time.Now()
	e.flights["a"] = &flight{sent: t0, left: 3, measured: true}
	e.flights["b"] = &flight{sent: t0, left: 2, measured: false}
	e.delivered("a", t0.Add(time.Millisecond))
	e.delivered("a", t0.Add(3*time.Millisecond))
	e.delivered("b", t0)
	if n := e.undelivered(); n != 1 {
		t.Errorf("undelivered = %d, want 1", n)
	}
	e.delivered("a", t0.Add(2*time.Millisecond))
	e.delivered("b", t0)
	e.delivered("zz", t0)
	if len(e.lat) != 1 || e.lat[0] != 2*time.Millisecond || len(e.flights) != 0 {
		t.Errorf("lat = %v, flights = %v", e.lat, e.flights)
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-encounters", "10", "-clients", "3", "-duration", "5s"}, io.Discard)
	if err != nil || o.encounters != 10 || o.clients != 3 || o.duration != 5*time.Second || o.warmup != 3*time.Second {
		t.Errorf("parseFlags = %+v, %v", o, err)
	}
	for _, args := range [][]string{{"-clients", "0"}, {"-duration", "0s"}, {"-example", "x", "-example-file", "y"}, {"extra"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
}

// The load generator's own reading of server messages agrees with
// encoding/json's, whatever the message holds.
func TestParseServerMessage(t *testing.T) {
	for _, in := range []string{
		`{"type":"ack","id":"lg-1-7","seq":42}`,
		`{"type":"error","id":"lg-3","code":"not_your_turn","message":"it is not \"Ana\"'s turn \u00e9"}`,
		`{"type":"events","seq":9,"events":[{"seq":8,"kind":"x","data":{"command":"nested","a":[1,{"b":null}]},"command":"lg-2-1"},{"seq":9,"text":"a \\ b","command":"lg-2-1","rolls":[{"total":-3.5e2}]}],"view":{"id":"e","viewer":{"gm":true},"order":["a","b"],"rules":{"current":"not this"},"current":"b","actions":[]}}`,
		`{"type":"events","seq":3,"events":[],"html":{"log":"<li>\n</li>"}}`,
		` { "type" : "snapshot" , "version" : 1 , "seq" : 0 , "view" : { "current" : "" } } `,
		`{"type":"events","seq":1,"events":[{"command":"lg-\"quoted\""}],"view":{"pending":[{"options":[true,false,null]}]}}`,
	} {
		got, err := parseServerMessage([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var want serverMessage
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s:\n got %s\nwant %s", in, g, w)
		}
	}
	if _, err := parseServerMessage([]byte(`{"type":`)); err == nil {
		t.Error("a truncated message was accepted")
	}
}

// TestRampFlags: -ramp sets the first step's encounters and its rate (one
// command per -period per table), and refuses counts that do not rise.
func TestRampFlags(t *testing.T) {
	o, err := parseFlags([]string{"-ramp", "200, 400,800", "-period", "4s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.ramp) != 3 || o.ramp[2] != 800 || o.encounters != 200 || o.rate != 50 {
		t.Errorf("-ramp 200,400,800 -period 4s: ramp %v, %d encounters at %.1f/s", o.ramp, o.encounters, o.rate)
	}
	for _, bad := range []string{"400,200", "0", "x", "200,200"} {
		if _, err := parseFlags([]string{"-ramp", bad}, io.Discard); err == nil {
			t.Errorf("-ramp %s accepted", bad)
		}
	}
	if _, err := parseFlags([]string{"-ramp", "200", "-compare"}, io.Discard); err == nil {
		t.Error("-ramp with -compare accepted")
	}
}
