package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	cdpage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/testdb"
)

// Fray is installable: on an HTTPS origin (the server's own TLS, with a
// test certificate the browser is told to accept), Chromium's own check
// (the DevTools protocol's Page.getInstallabilityErrors) finds nothing
// missing, and the manifest it read names the app, a standalone window,
// the theme colour and icons that load. On an iPhone the notifications
// page says how to add Fray to the Home Screen, which push needs there;
// elsewhere it does not.
func TestInstallable(t *testing.T) {
	certFile, keyFile, _ := testCertificate(t)
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_TLS_CERT": certFile, "FRAY_TLS_KEY": keyFile})
	ctx := tab(t, chromium.Start(t, chromedp.Flag("ignore-certificate-errors", true), chromedp.WindowSize(390, 844)))
	var errs []*cdpage.InstallabilityError
	var manifestURL string
	var manifest *cdpage.WebAppManifest
	var manifestErrors []*cdpage.AppManifestError
	var raw string
	steps(t, ctx,
		chromedp.Navigate(srv.URL+"/login"),
		chromedp.WaitVisible("#auth-form"),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			// The manifest and its icons load after the page: ask until
			// the check has nothing left to wait for.
			for {
				if errs, err = cdpage.GetInstallabilityErrors().Do(ctx); err != nil {
					return err
				}
				if len(errs) == 0 || ctx.Err() != nil {
					break
				}
				if !strings.Contains(errs[0].ErrorID, "fetch") && !strings.Contains(errs[0].ErrorID, "wait") {
					break
				}
			}
			manifestURL, manifestErrors, raw, manifest, err = cdpage.GetAppManifest().Do(ctx)
			return err
		}),
	)
	for _, e := range errs {
		t.Errorf("installability error %s %v", e.ErrorID, e.ErrorArguments)
	}
	if len(manifestErrors) > 0 {
		for _, e := range manifestErrors {
			t.Errorf("manifest error: %s", e.Message)
		}
	}
	if manifestURL != srv.URL+"/manifest.webmanifest" || manifest == nil {
		t.Fatalf("manifest %q %v", manifestURL, manifest)
	}
	var m struct {
		Name, Display string
		ThemeColor    string `json:"theme_color"`
		Icons         []struct{ Src, Sizes, Purpose string }
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil || m.Name != "Fray" || m.Display != "standalone" || m.ThemeColor == "" || len(m.Icons) < 4 {
		t.Errorf("manifest %s: %v", raw, err)
	}
	client := httpsClient(strings.TrimPrefix(srv.URL, "https://"), "127.0.0.1", nil)
	client.Transport.(*http.Transport).TLSClientConfig.InsecureSkipVerify = true
	for _, ic := range append(m.Icons, struct{ Src, Sizes, Purpose string }{Src: "/static/icons/apple-touch-icon.png"}) {
		resp, err := client.Get(srv.URL + ic.Src)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
			t.Errorf("%s: %d %s", ic.Src, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}

	if resp, err := client.Post(srv.URL+"/api/signup", "application/json", strings.NewReader(`{"name":"phone-user","password":"`+testPassword+`"}`)); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("sign up: %v %v", err, resp)
	}
	browser := chromium.Start(t, chromedp.Flag("ignore-certificate-errors", true), chromedp.WindowSize(390, 844))
	for _, tc := range []struct {
		agent string
		shown bool
	}{
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", true},
		{"", false},
	} {
		ctx := tab(t, browser)
		var hidden bool
		steps(t, ctx,
			chromedp.ActionFunc(func(ctx context.Context) error {
				if tc.agent == "" {
					return nil
				}
				return emulation.SetUserAgentOverride(tc.agent).Do(ctx)
			}),
		)
		login(t, ctx, srv.URL, "phone-user")
		steps(t, ctx,
			chromedp.Navigate(srv.URL+"/account/notifications"),
			chromedp.WaitReady("#push-state"),
			chromedp.Poll(`document.getElementById('push-state').textContent !== "Push notifications need this page's script."`, nil),
			chromedp.Evaluate(`document.getElementById('push-ios').hidden`, &hidden),
		)
		if hidden == tc.shown {
			t.Errorf("user agent %q: the Home Screen guidance hidden=%v", tc.agent, hidden)
		}
		if tc.shown {
			keepScreenshot(ctx, "install-ios-guidance")
		}
	}
}
