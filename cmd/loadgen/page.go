package main

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// page is what a page client (-html) holds of the encounter page: the
// sections the server's fragments replace and the entries of the lists
// they append to. It applies a message's fragments the way app.js does —
// parse each, replace the section whose id is its key, append new log and
// chat entries (dropping ones it already has) — so that a page client
// costs the load generator what a browser's parsing costs it, and a
// fragment a page could not apply is an error, not a silent success.
type page struct {
	sections map[string]*html.Node
	last     map[string]string   // each section's last HTML, as app.js skips an unchanged one
	lists    map[string][]string // "log", "chat": entry ids, oldest first, the last maxEntries
	seen     map[string]map[string]bool
}

// maxEntries bounds the entries a page client remembers per list.
const maxEntries = 200

func newPage() *page {
	return &page{sections: map[string]*html.Node{}, last: map[string]string{},
		lists: map[string][]string{}, seen: map[string]map[string]bool{}}
}

// sectionKeys are the fragments that replace an element of the page.
var sectionKeys = map[string]bool{"status": true, "pending": true, "actions": true, "order": true, "battlefield": true}

// apply applies a message's fragments; snapshot replaces the lists' contents.
func (p *page) apply(fr map[string]string, snapshot bool) error {
	for key, h := range fr {
		switch {
		case sectionKeys[key]:
			if p.last[key] == h {
				continue
			}
			nodes, err := parseFragment(h)
			if err != nil {
				return fmt.Errorf("fragment %s: %w", key, err)
			}
			var el *html.Node
			for _, n := range nodes {
				if n.Type == html.ElementNode {
					el = n
					break
				}
			}
			if el == nil || attr(el, "id") != key {
				return fmt.Errorf("fragment %s: its first element is not #%s: %.120q", key, key, h)
			}
			p.sections[key], p.last[key] = el, h
		case key == "log" || key == "chat":
			nodes, err := parseFragment(h)
			if err != nil {
				return fmt.Errorf("fragment %s: %w", key, err)
			}
			if snapshot {
				p.lists[key], p.seen[key] = nil, map[string]bool{}
			}
			seen := p.seen[key]
			if seen == nil {
				seen = map[string]bool{}
				p.seen[key] = seen
			}
			for _, n := range nodes {
				if n.Type != html.ElementNode || n.DataAtom != atom.Li {
					continue
				}
				id := attr(n, "id")
				if id != "" && seen[id] {
					continue
				}
				seen[id] = true
				p.lists[key] = append(p.lists[key], id)
			}
			if l := p.lists[key]; len(l) > maxEntries {
				for _, id := range l[:len(l)-maxEntries] {
					delete(seen, id)
				}
				p.lists[key] = append([]string(nil), l[len(l)-maxEntries:]...)
			}
		case key == "cards":
			if _, err := parseFragment(h); err != nil {
				return fmt.Errorf("fragment %s: %w", key, err)
			}
		}
	}
	return nil
}

// body is the context fragments are parsed in, as a <template>'s contents.
var body = &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}

func parseFragment(s string) ([]*html.Node, error) {
	return html.ParseFragment(strings.NewReader(s), body)
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}
