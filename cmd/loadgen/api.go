package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// api calls the server's JSON HTTP API (docs/protocol.md) with an API token.
type api struct {
	base   *url.URL
	client *http.Client
	token  string
}

// header returns the headers every request and websocket handshake carries.
func (a *api) header() http.Header {
	h := http.Header{}
	if a.token != "" {
		h.Set("Authorization", "Bearer "+a.token)
	}
	return h
}

// apiError is an error answer from the API.
type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
	}
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// do sends body (nil for none) and decodes a 2xx answer into out (nil to
// discard it).
func (a *api) do(ctx context.Context, method, path string, query url.Values, body []byte, out any) error {
	u := *a.base
	u.Path = path
	u.RawQuery = query.Encode()
	var rd io.Reader = http.NoBody
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return err
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &apiError{Status: resp.StatusCode}
		var b struct{ Code, Message string }
		if json.Unmarshal(data, &b) == nil && b.Code != "" {
			e.Code, e.Message = b.Code, b.Message
		} else {
			e.Message = strings.TrimSpace(string(data))
		}
		return fmt.Errorf("%s %s: %w", method, path, e)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: decode answer: %w", method, path, err)
		}
	}
	return nil
}

// signup creates a throw-away account with a random name and password and
// returns its name and API token (POST /api/signup is rate-limited per
// address, so do it once per run).
func (a *api) signup(ctx context.Context) (string, string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	name := "loadgen-" + hex.EncodeToString(b[:4])
	body, _ := json.Marshal(map[string]string{"name": name, "password": hex.EncodeToString(b[:]), "tokenName": "loadgen"})
	var out struct {
		Token string `json:"token"`
	}
	if err := a.do(ctx, http.MethodPost, "/api/signup", nil, body, &out); err != nil {
		return "", "", err
	}
	if out.Token == "" {
		return "", "", fmt.Errorf("POST /api/signup: the answer has no token")
	}
	return name, out.Token, nil
}

// createCampaign makes a campaign to hold this run's encounters.
func (a *api) createCampaign(ctx context.Context, name string) (string, error) {
	body, _ := json.Marshal(map[string]string{"name": name})
	var out struct {
		ID string `json:"id"`
	}
	if err := a.do(ctx, http.MethodPost, "/api/campaigns", nil, body, &out); err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", fmt.Errorf("POST /api/campaigns: the answer has no id")
	}
	return out.ID, nil
}

// importEncounter posts a setup document and returns the new encounter's id.
func (a *api) importEncounter(ctx context.Context, campaign string, doc []byte) (string, error) {
	q := url.Values{}
	if campaign != "" {
		q.Set("campaign", campaign)
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := a.do(ctx, http.MethodPost, "/api/encounters", q, doc, &out); err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", fmt.Errorf("POST /api/encounters: the answer has no id")
	}
	return out.ID, nil
}

// command submits a command over HTTP.
func (a *api) command(ctx context.Context, encounter, id string, cmd any) error {
	body, err := json.Marshal(map[string]any{"id": id, "command": cmd})
	if err != nil {
		return err
	}
	return a.do(ctx, http.MethodPost, "/api/encounters/"+url.PathEscape(encounter)+"/commands", nil, body, nil)
}

// say sends a sentence in words with a command id (POST …/say), as a bot
// or a chat bridge does: the server reads it against the account's own
// view and submits the command it names.
func (a *api) say(ctx context.Context, encounter, id, text string) error {
	body, err := json.Marshal(map[string]string{"id": id, "text": text})
	if err != nil {
		return err
	}
	return a.do(ctx, http.MethodPost, "/api/encounters/"+url.PathEscape(encounter)+"/say", nil, body, nil)
}

// gmView is the part of the GM's projection the load generator needs.
type gmView struct {
	Current    string `json:"current"`
	Combatants []struct {
		ID string `json:"id"`
		PC bool   `json:"pc"`
	} `json:"combatants"`
}

// view returns the GM's projection of the encounter.
func (a *api) view(ctx context.Context, encounter string) (gmView, error) {
	var v gmView
	err := a.do(ctx, http.MethodGet, "/api/encounters/"+url.PathEscape(encounter), nil, nil, &v)
	return v, err
}
