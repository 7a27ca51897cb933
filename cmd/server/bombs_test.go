package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/images/imagestest"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// answer is the server's answer to one upload.
type answer struct {
	status     int
	code, msg  string
	retryAfter string
	took       time.Duration
}

// sendPicture uploads data as u to campaign's pictures and returns the answer.
func (s *testServer) sendPicture(u *apiUser, campaign string, data []byte) answer {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "picture")
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest("POST", s.URL+"/api/campaigns/"+campaign+"/assets", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+u.Token)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{code: "no answer: " + err.Error(), took: time.Since(start)}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e struct{ Code, Message string }
	_ = json.Unmarshal(raw, &e)
	return answer{status: resp.StatusCode, code: e.Code, msg: e.Message, retryAfter: resp.Header.Get("Retry-After"), took: time.Since(start)}
}

// gmCampaign signs a GM up and makes them a campaign.
func (s *testServer) gmCampaign(name string) (*apiUser, string) {
	s.t.Helper()
	gm := s.signup(name)
	var camp struct{ ID string }
	if code := s.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": "Pictures"}, &camp); code != http.StatusCreated {
		s.t.Fatalf("campaign: %d", code)
	}
	return gm, camp.ID
}

// TestUploadBombs uploads, as one GM, the pictures that exhausted the
// server before — the 4096×4096 16-bit zero PNG (130 KB at zlib's best
// level, 128 MiB decoded) and the 4096×4096 progressive JPEG of one bit a
// block (98 KB, 240 MiB decoded) — eight at once, three rounds; each round
// also sends eight at once of the largest pictures that pass (four
// 4096×4096 8-bit zero PNGs, four 2048×2048 progressive JPEGs). Every
// upload is answered: the bombs 413 from their headers (or 503 with
// Retry-After should the server be busy), never stored; the others stored
// (201) or, when the decoders' gate is full, 503 with Retry-After. The
// server's heap (this process's) grows by less than 256 MiB. -v prints
// the heap's growth and each kind's answers and times.
func TestUploadBombs(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_UPLOAD_REFILL": "1ms"})
	gm, campaign := srv.gmCampaign("gamemaster")
	type kind struct {
		name   string
		data   []byte
		status []int
	}
	png16 := kind{"16-bit PNG 4096²", imagestest.PNG(4096, 4096, 16, 6, false), []int{413, 503}}
	jpeg := kind{"progressive JPEG 4096²", imagestest.ProgressiveJPEG(4096, 4096, false), []int{413, 503}}
	png8 := kind{"8-bit PNG 4096²", imagestest.PNG(4096, 4096, 8, 6, false), []int{201, 503}}
	jpegSmall := kind{"progressive JPEG 2048²", imagestest.ProgressiveJPEG(2048, 2048, false), []int{201, 503}}
	batches := [][]kind{
		slices.Repeat([]kind{png16}, 8),
		slices.Repeat([]kind{jpeg}, 8),
		append(slices.Repeat([]kind{png8}, 4), slices.Repeat([]kind{jpegSmall}, 4)...),
	}
	answers := map[string][]answer{}
	var mu sync.Mutex
	watch := watchHeap()
	for round := range 3 {
		for _, batch := range batches {
			var wg sync.WaitGroup
			for _, k := range batch {
				wg.Add(1)
				go func() {
					defer wg.Done()
					a := srv.sendPicture(gm, campaign, k.data)
					mu.Lock()
					answers[k.name] = append(answers[k.name], a)
					mu.Unlock()
				}()
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(patience.Hang()):
				t.Fatalf("round %d: not every upload was answered", round+1)
			}
		}
	}
	grew := watch.growth()
	g := intake.Default.Config()
	t.Logf("heap growth: %.1f MiB at most (bound 256 MiB); the decoders' gate: %d at once, %s, %d waiting at most",
		float64(grew)/(1<<20), g.Slots, intake.Size(g.Memory), g.Queue)
	for _, k := range []kind{png16, jpeg, png8, jpegSmall} {
		as := answers[k.name]
		statuses := map[int]int{}
		var took []time.Duration
		for _, a := range as {
			statuses[a.status]++
			took = append(took, a.took)
			switch {
			case !slices.Contains(k.status, a.status):
				t.Errorf("%s: %d %s %q, want one of %v", k.name, a.status, a.code, a.msg, k.status)
			case a.status == 503 && (a.code != "busy" || a.retryAfter == ""):
				t.Errorf("%s: 503 %s, Retry-After %q", k.name, a.code, a.retryAfter)
			case a.status == 413 && !strings.Contains(a.msg, "decoding it would take"):
				t.Errorf("%s: 413 %q", k.name, a.msg)
			}
		}
		if statuses[k.status[0]] == 0 {
			t.Errorf("%s: never answered %d", k.name, k.status[0])
		}
		slices.Sort(took)
		t.Logf("%-24s %6d bytes: answers %v; time min %v, median %v, max %v", k.name, len(k.data), statuses,
			took[0].Round(time.Millisecond), took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
	}
	if grew >= 256<<20 {
		t.Errorf("the uploads grew the heap by %d MiB", grew>>20)
	}
	if errs := srv.logs.errors(); len(errs) > 0 {
		t.Errorf("logged at ERROR: %q", errs)
	}
}

// TestUploadRateLimit: an account may send a burst of 60 pictures, then
// is refused 429 with Retry-After — on every server instance, as the limit
// lives in the database — while another account is not.
func TestUploadRateLimit(t *testing.T) {
	dbURL := testdb.URL(t)
	env := map[string]string{"FRAY_UPLOAD_REFILL": "1h"}
	s1, s2 := startServerEnv(t, dbURL, env), startServerEnv(t, dbURL, env)
	gm, campaign := s1.gmCampaign("gamemaster")
	other, theirs := s1.gmCampaign("othergm")
	small := pngBytes(t, testPicture(8, 8, 1, 255))
	for i := range 60 {
		if a := s1.sendPicture(gm, campaign, small); a.status != http.StatusCreated {
			t.Fatalf("upload %d of the burst: %+v", i+1, a)
		}
	}
	for _, s := range []*testServer{s1, s2} {
		a := s.sendPicture(gm, campaign, small)
		if a.status != http.StatusTooManyRequests || a.code != "rate_limited" || a.retryAfter != "3600" || !strings.Contains(a.msg, "wait 3600 seconds") {
			t.Errorf("past the burst: %+v", a)
		}
	}
	if a := s2.sendPicture(other, theirs, small); a.status != http.StatusCreated {
		t.Errorf("another account: %+v", a)
	}
}

// TestBusyUploads: with the decoders' gate full — every core decoding and
// its queue full — an upload is answered at once 503 "busy" with
// Retry-After, stores nothing, and goes through once the gate has room.
func TestBusyUploads(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm, campaign := srv.gmCampaign("gamemaster")
	g := intake.Default.Config()
	release := make(chan struct{})
	var held sync.WaitGroup
	for i := range g.Slots + g.Queue {
		held.Add(1)
		go func() {
			defer held.Done()
			_ = intake.Run(context.Background(), intake.Job{What: "held", Cost: 1}, func(context.Context) error {
				<-release
				return nil
			})
		}()
		patience.Until(t, "the gate to take the held job", func() bool {
			running, waiting, _ := intake.Default.Stats()
			return running+waiting == i+1
		})
	}
	a := srv.sendPicture(gm, campaign, pngBytes(t, testPicture(30, 20, 1, 255)))
	close(release)
	held.Wait()
	if a.status != http.StatusServiceUnavailable || a.code != "busy" || a.retryAfter != "5" || !strings.Contains(a.msg, "try again") {
		t.Errorf("with the gate full: %+v", a)
	}
	var list []json.RawMessage
	if srv.withUser(gm).do("GET", "/api/campaigns/"+campaign+"/assets", nil, &list); len(list) != 0 {
		t.Errorf("a refused upload stored %d pictures", len(list))
	}
	if a := srv.sendPicture(gm, campaign, pngBytes(t, testPicture(30, 20, 1, 255))); a.status != http.StatusCreated {
		t.Errorf("with the gate free: %+v", a)
	}
}

// TestWrongCaseFieldsAreRefused: a document with a field named in another
// case than the protocol's — in an API body, deep in an encounter file, in
// a combatant's stats — is refused 400 with a message naming the field,
// where it is, and the spelling meant; nothing is made.
func TestWrongCaseFieldsAreRefused(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm, campaign := srv.gmCampaign("gamemaster")
	api := srv.withUser(gm)
	encounter := func(edit func(doc map[string]any)) []byte {
		doc := decodeNumbers(t, exampleData(t, "sw-zones-"))
		edit(doc)
		out, _ := json.Marshal(doc)
		return out
	}
	rename := func(m map[string]any, from, to string) { m[to] = m[from]; delete(m, from) }
	for _, c := range []struct {
		name, path string
		body       []byte
		want       []string
	}{
		{"a campaign", "/api/campaigns", []byte(`{"Name":"Shouted"}`), []string{`unknown field "Name"`, `did you mean "name"?`}},
		{"an encounter's name", "/api/campaigns/" + campaign + "/encounters",
			encounter(func(d map[string]any) { rename(d, "name", "NAME") }), []string{`unknown field "NAME"`, `did you mean "name"?`}},
		{"a combatant's name", "/api/campaigns/" + campaign + "/encounters",
			encounter(func(d map[string]any) { rename(d["combatants"].([]any)[1].(map[string]any), "name", "Name") }),
			[]string{`unknown field "Name" in combatants[1]`, `did you mean "name"?`}},
	} {
		var e struct{ Code, Message string }
		code := api.do("POST", c.path, c.body, &e)
		if code != http.StatusBadRequest {
			t.Errorf("%s: %d %+v", c.name, code, e)
		}
		for _, w := range c.want {
			if !strings.Contains(e.Message, w) {
				t.Errorf("%s: %q lacks %q", c.name, e.Message, w)
			}
		}
	}
	// A combatant's stats, read by its ruleset.
	doc := decodeNumbers(t, exampleData(t, "sw-zones-"))
	stats := doc["combatants"].([]any)[0].(map[string]any)["stats"].(map[string]any)
	var key string
	for k := range stats {
		key = k
		break
	}
	rename(stats, key, strings.ToUpper(key))
	body, _ := json.Marshal(doc)
	var e struct{ Code, Message string }
	if code := api.do("POST", "/api/campaigns/"+campaign+"/encounters", body, &e); code != http.StatusBadRequest ||
		!strings.Contains(e.Message, `unknown field "`+strings.ToUpper(key)+`"`) || !strings.Contains(e.Message, `did you mean "`+key+`"?`) {
		t.Errorf("stats with %q: %d %q", strings.ToUpper(key), code, e.Message)
	}
	var list []json.RawMessage
	if api.do("GET", "/api/campaigns/"+campaign+"/encounters", nil, &list); len(list) != 0 {
		t.Errorf("refused documents made %d encounters", len(list))
	}
}
