package main

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/htmlscan"
	"github.com/fray-vtt/fray/web"
)

// page is what a page client (-html) holds of the encounter page: the
// sections the server's fragments replace and the entries of the lists
// they append to. It applies a message's fragments as app.js does —
// replace the section whose id is its key (skipping one whose HTML did
// not change), splice parts into the sections that hold their ids
// (htmlscan.Apply, as the frames test and the browser tests do), append
// the new log and chat entries it does not have yet — reading every
// fragment through an HTML tokenizer: a fragment a page could not apply is
// an error, not a silent success. (It tokenizes rather than builds a tree:
// on the machine the measurements run on, the load generator shares two
// cores with the server it measures.)
type page struct {
	last  map[string]string   // each section's HTML, parts spliced in
	lists map[string][]string // "log", "chat": entry ids, oldest first, the last maxEntries
	seen  map[string]map[string]bool
}

// maxEntries bounds the entries a page client remembers per list.
const maxEntries = 200

func newPage() *page {
	return &page{last: map[string]string{}, lists: map[string][]string{}, seen: map[string]map[string]bool{}}
}

// sectionKeys are the fragments that replace an element of the page:
// the page's own list (web.SectionKeys).
var sectionKeys = func() map[string]bool {
	keys := make(map[string]bool, len(web.SectionKeys))
	for _, k := range web.SectionKeys {
		keys[k] = true
	}
	return keys
}()

// apply applies a message's fragments; snapshot replaces the lists' contents.
func (p *page) apply(fr map[string]string, snapshot bool) error {
	for key, h := range fr {
		switch {
		case sectionKeys[key]:
			if p.last[key] == h {
				continue
			}
			ids, err := htmlscan.TopIDs(h)
			if err != nil {
				return fmt.Errorf("fragment %s: %w", key, err)
			}
			if len(ids) == 0 || ids[0] != key {
				return fmt.Errorf("fragment %s: its first element is not #%s: %.120q", key, key, h)
			}
			p.last[key] = h
		case key == "log" || key == "chat":
			ids, err := htmlscan.TopIDs(h)
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
			for _, id := range ids {
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
			if _, err := htmlscan.TopIDs(h); err != nil {
				return fmt.Errorf("fragment %s: %w", key, err)
			}
		}
	}
	return nil
}

// applyParts applies a message's parts (elements of sections, by the id of
// the element each replaces) as app.js does: each part must be one element
// with an id, spliced into the section that holds the element it replaces
// (htmlscan.Apply); a part no section holds is an error.
func (p *page) applyParts(parts map[string]string) error {
	for id, h := range parts {
		ids, err := htmlscan.TopIDs(h)
		if err != nil {
			return fmt.Errorf("part %s: %w", id, err)
		}
		if len(ids) != 1 || ids[0] == "" {
			return fmt.Errorf("part %s: not one element with an id: %.120q", id, h)
		}
	}
	applied := make(map[string]bool, len(parts))
	for key, sec := range p.last {
		// Only a section whose markup names a part's id is read through
		// the tokenizer (Apply): a browser finds an element by id without
		// reading the page, and the load generator shares the machine.
		holds := false
		for id := range parts {
			if strings.Contains(sec, ` id="`+id+`"`) {
				applied[id], holds = true, true // even inside another part
			}
		}
		if holds {
			p.last[key], _ = htmlscan.Apply(sec, parts)
		}
	}
	for id := range parts {
		if !applied[id] {
			return fmt.Errorf("part %s: no section of the page holds #%s", id, id)
		}
	}
	return nil
}
