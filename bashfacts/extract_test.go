package bashfacts

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// summarize renders facts one line per unit and token, for the golden.
func summarize(f *Facts, err error) string {
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var b strings.Builder
	for _, u := range f.Units {
		fmt.Fprintf(&b, "unit %q @%s", u.Text, u.Pos)
		for _, kv := range [][2]string{{"origin", u.Origin}, {"program", u.Program}, {"wrapper", u.Wrapper}, {"runs", u.Runs}, {"strict", u.Strict}, {"prefix", u.Prefix}, {"prefix-strict", u.PrefixStrict}} {
			if kv[1] != "" {
				fmt.Fprintf(&b, " %s=%q", kv[0], kv[1])
			}
		}
		for _, flag := range []struct {
			name string
			on   bool
		}{{"compound", u.Compound}, {"dynamic", u.Dynamic}, {"unparseable", u.Unparseable}, {"strict-only", u.StrictOnly}} {
			if flag.on {
				b.WriteString(" " + flag.name)
			}
		}
		b.WriteByte('\n')
	}
	for _, t := range f.Tokens {
		fmt.Fprintf(&b, "token %s %q @%s", t.Kind, t.Value, t.Pos)
		if t.Bare {
			b.WriteString(" bare")
		}
		if t.Pattern {
			b.WriteString(" pattern")
		}
		if t.StrictOnly {
			b.WriteString(" strict-only")
		}
		if t.Role != "" {
			fmt.Fprintf(&b, " role=%s", t.Role)
		}
		if t.SpecOnly {
			b.WriteString(" spec-only")
		}
		if t.Unknown != "" {
			b.WriteString(" unknown")
		}
		if t.Dir.Unknown {
			b.WriteString(" dir=unknown")
		} else if t.Dir.Path != "" {
			fmt.Fprintf(&b, " dir=%q", t.Dir.Path)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestExtract pins Extract's output for every command of the table.
func TestExtract(t *testing.T) {
	if len(extractTable) < 150 {
		t.Fatalf("the table has %d commands; keep at least 150", len(extractTable))
	}
	var b strings.Builder
	for _, src := range extractTable {
		f, err := Extract(src)
		fmt.Fprintf(&b, "=== %q\n%s", src, summarize(f, err))
	}
	const golden = "testdata/extract.golden"
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if got == string(want) {
		return
	}
	wantBlocks, gotBlocks := strings.Split(string(want), "=== "), strings.Split(got, "=== ")
	for i := 0; i < len(gotBlocks) || i < len(wantBlocks); i++ {
		var w, g string
		if i < len(wantBlocks) {
			w = wantBlocks[i]
		}
		if i < len(gotBlocks) {
			g = gotBlocks[i]
		}
		if w != g {
			t.Errorf("differs from %s (UPDATE_GOLDEN=1 rewrites it):\n--- want\n%s--- got\n%s", golden, w, g)
		}
	}
}
