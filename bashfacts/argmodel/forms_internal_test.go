package argmodel

import (
	"strings"
	"testing"
)

// downloadNames: what wget saves a URL's file as (the rows that run the
// real wget are in realremote_test.go), or "" when regate cannot tell.
var downloadNames = []struct{ url, name string }{
	{"https://example.com/a.tgz", "a.tgz"},
	{"https://example.com", "index.html"},
	{"https://example.com/", "index.html"},
	{"https://example.com/d/", "index.html"},
	{"https://example.com/..", "index.html"},
	{"https://example.com/d/./x/..", "index.html"},
	{"https://example.com/d/../../.bashrc", ".bashrc"},
	{"https://example.com/a%20b", "a b"},
	{"https://example.com/%2eenv", ".env"},
	{"https://example.com/a?x=1", "a?x=1"},
	{"https://example.com/a#top", "a"},
	{"HTTPS://example.com/a", "a"},
	{"ftp://example.com/pub/f.iso", "f.iso"},
	{"example.com/a.tgz", "a.tgz"},
	{"https://example.com/x%2Fy", ""},
	{"https://example.com/%2e%2e", ""},
	{"https://example.com/%0a", ""},
	{"https://example.com/%c2%85", ""}, // a Latin-1 control character
	{"https://example.com/%zz", ""},
	{"https://example.com/a?x=%2F", ""},
	{"file:///etc/passwd", ""},
	{"localhost:8080/a", ""},
}

func TestDownloadName(t *testing.T) {
	for _, c := range downloadNames {
		name, why := downloadName(c.url)
		if name != c.name || (c.name == "") != (why != "") {
			t.Errorf("downloadName(%q) = %q, %q; want %q", c.url, name, why, c.name)
		}
	}
}

// FuzzDownloadName: a name is one file in the working directory, never a
// path, "." or "..".
func FuzzDownloadName(f *testing.F) {
	for _, c := range downloadNames {
		f.Add(c.url)
	}
	f.Fuzz(func(t *testing.T, u string) {
		name, why := downloadName(u)
		if why != "" {
			return
		}
		if name == "" || name == "." || name == ".." || strings.Contains(name, "/") {
			t.Fatalf("downloadName(%q) = %q", u, name)
		}
	})
}
