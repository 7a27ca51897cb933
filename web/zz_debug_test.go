package web

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/board/boardtest"
)

func TestZZDebug(t *testing.T) {
	js := os.Getenv("DEBUG_JS")
	if js == "" {
		t.Skip()
	}
	b := browser(t)
	srv := serveSample(t, boardtest.All()[0])
	ctx := newTab(t, b, 1280, 800)
	var out any
	within(t, ctx, chromedp.Navigate(srv.URL+"/page"), poll(`document.getElementById('conn').dataset.state === 'live'`), chromedp.Evaluate(js, &out))
	t.Logf("%v", out)
}
