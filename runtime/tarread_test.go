package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// tarBlock is a ustar header block of an entry name of typeflag and size
// bytes, followed by body padded to whole blocks.
func tarBlock(name string, typeflag byte, body string) string {
	h := make([]byte, 512)
	copy(h, name)
	copy(h[100:], "0000644\x00")
	copy(h[108:], "0000000\x00")
	copy(h[116:], "0000000\x00")
	copy(h[124:], fmt.Sprintf("%011o\x00", len(body)))
	copy(h[136:], "00000000000\x00")
	copy(h[148:], "        ")
	h[156] = typeflag
	copy(h[257:], "ustar\x0000")
	sum := 0
	for _, c := range h {
		sum += int(c)
	}
	copy(h[148:], fmt.Sprintf("%06o\x00 ", sum))
	pad := strings.Repeat("\x00", (512-len(body)%512)%512)
	return string(h) + body + pad
}

// paxRecord is one PAX record, "LEN key=value\n".
func paxRecord(key, value string) string {
	rec := " " + key + "=" + value + "\n"
	n := len(rec) + 1
	for len(fmt.Sprint(n))+len(rec) != n {
		n = len(fmt.Sprint(n)) + len(rec)
	}
	return fmt.Sprint(n) + rec
}

// TestTarReadersDisagree: tar archives that GNU tar and Go's archive/tar
// (which regate reads names with) name differently. GNU tar takes a PAX
// path over a GNU long name (Go the long name), and names the entries
// after a global header by its path (Go leaves the header to its caller):
// each extracts .env here while Go lists a.csv. Both were allowed under
// the developer policy before 2026-12-07 (fourth stop).
func TestTarReadersDisagree(t *testing.T) {
	long := strings.Repeat("d", 101) + "/a.csv"
	end := strings.Repeat("\x00", 1024)
	cases := []struct {
		name, archive, developer string
	}{
		{"a PAX path and a GNU long name", tarBlock("PaxHeaders/b", 'x', paxRecord("path", ".env")) +
			tarBlock("././@LongLink", 'L', long+"\x00") + tarBlock("b", '0', "TOKEN=1\n") + end, "deny"},
		{"a global header's path", tarBlock("GlobalHead", 'g', paxRecord("path", ".env")) +
			tarBlock("a.csv", '0', "TOKEN=1\n") + end, "ask"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := facts.MapFS{"/home/u/repo/x.tar": "file:" + tc.archive}
			developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
			def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
			decideUnderBoth(t, developer, def, []policyRow{{"tar -xf x.tar", tc.developer, tc.developer}})
			if out := extractsFile(t, "x.tar", tc.archive, ".env", "tar", "-xvf", "x.tar"); strings.Contains(out, "a.csv") {
				t.Fatalf("tar names a.csv:\n%s", out)
			}
		})
	}
}
