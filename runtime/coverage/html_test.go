package coverage_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/regate/regate/runtime/coverage"
)

// TestHTMLInABrowser renders the coverage page in headless Chromium (the
// Debian package, /usr/bin/chromium) and reads back the DOM it built: the
// table has one row per rule, each row carries its use as its class, and
// every row's link resolves to an element of the page, the rule's line in
// the policy's source, which holds the rule's pattern. Without Chromium the
// test skips, unless REGATE_BROWSER=1 (CI) demands it.
func TestHTMLInABrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("REGATE_BROWSER") == "1" {
			t.Fatal("REGATE_BROWSER=1 and no chromium on PATH")
		}
		t.Skip("no chromium on PATH (apt-get install chromium; REGATE_BROWSER=1 makes this an error)")
	}
	c := decided(t, compile(t))
	rep := c.Report()
	page := filepath.Join(t.TempDir(), "coverage.html")
	var b bytes.Buffer
	if err := rep.WriteHTML(&b, []coverage.Source{{Name: "policy.jsonc", Data: []byte(policy)}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+page)
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	doc, err := html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*html.Node{}
	var rows []*html.Node
	var walk func(n *html.Node, inRules bool)
	walk = func(n *html.Node, inRules bool) {
		if n.Type == html.ElementNode {
			if id := attr(n, "id"); id != "" {
				byID[id] = n
			}
			if n.Data == "table" && attr(n, "id") == "rules" {
				inRules = true
			}
			if inRules && n.Data == "tr" && attr(n, "data-pattern") != "" {
				rows = append(rows, n)
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch, inRules)
		}
	}
	walk(doc, false)
	if len(rows) != len(rep.Rules) {
		t.Fatalf("the rendered table has %d rule rows; the policy has %d rules", len(rows), len(rep.Rules))
	}
	for i, row := range rows {
		rule := rep.Rules[i]
		if attr(row, "class") != rule.Use() || attr(row, "data-pattern") != rule.Pattern {
			t.Errorf("row %d: class %q pattern %q; want %q %q", i, attr(row, "class"), attr(row, "data-pattern"), rule.Use(), rule.Pattern)
		}
		link := first(row, "a")
		if link == nil {
			t.Errorf("row %d (%s) has no link", i, rule.Pos)
			continue
		}
		target := byID[strings.TrimPrefix(attr(link, "href"), "#")]
		if target == nil {
			t.Errorf("row %d (%s): link %s resolves to nothing", i, rule.Pos, attr(link, "href"))
			continue
		}
		if line := text(target); !strings.Contains(line, `"`+rule.Pattern+`"`) {
			t.Errorf("row %d (%s): its link leads to %q, which does not hold %q", i, rule.Pos, line, rule.Pattern)
		}
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func first(n *html.Node, tag string) *html.Node {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.ElementNode && ch.Data == tag {
			return ch
		}
		if f := first(ch, tag); f != nil {
			return f
		}
	}
	return nil
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(n)
	return b.String()
}
