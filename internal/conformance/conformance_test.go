package conformance_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/internal/conformance"
	"github.com/regate/regate/runtime"
)

const corpus = "../../testdata/conformance"

// TestCopyMatchesShared fails when the committed copy of the conformance
// cases differs from ../shared/conformance, when that folder is present.
func TestCopyMatchesShared(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "conformance")
	files, _ := filepath.Glob(filepath.Join(shared, "*"))
	if len(files) == 0 {
		t.Skip("no ../shared/conformance beside this checkout")
	}
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(corpus, filepath.Base(f)))
		if err != nil {
			t.Errorf("%s is not copied under testdata/conformance: %v", filepath.Base(f), err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/conformance/%s differs from %s; copy it again", filepath.Base(f), f)
		}
	}
}

// TestSuites runs every case of every suite. A case listed in
// known-failures.txt (by id, or by "suite NAME") is expected to fail until
// the issue named beside it lands; the test fails when such a case starts
// passing, so the list only ever shrinks, and when any other case fails.
func TestSuites(t *testing.T) {
	known := readKnown(t)
	files, err := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance files under %s", corpus)
	}
	for _, f := range files {
		rs, err := conformance.RunFile(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			expectFail := known[r.ID] || known["suite "+r.Suite]
			switch {
			case !r.Passed && !expectFail:
				t.Errorf("%s", r.Line())
			case r.Passed && expectFail:
				t.Errorf("PASS %s: listed in known-failures.txt; remove it", r.ID)
			}
		}
		p, fl := conformance.Count(rs)
		t.Logf("%s: %d passed, %d failed", filepath.Base(f), p, fl)
	}
}

func readKnown(t *testing.T) map[string]bool {
	b, err := os.ReadFile(filepath.Join(corpus, "known-failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			known[line] = true
		}
	}
	return known
}

// TestMessagesAgree holds the message Decide builds in Go to the one the
// Rego library renders (regate.lib.message.response), and the rest of the
// decision to the Rego decision, on every permission case.
func TestMessagesAgree(t *testing.T) {
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pool := runtime.NewPool()
	for _, c := range cases {
		eng, call, err := c.Engine(ctx, pool)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		d, err := eng.Decide(ctx, call)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		resp, err := eng.Response(ctx, call)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		if resp["message"] != d.Message || resp["action"] != d.Action || resp["matched"] != d.Matched {
			t.Errorf("%s: Go %q [%s %s], Rego %q [%v %v]", c.ID, d.Message, d.Action, d.Matched, resp["message"], resp["action"], resp["matched"])
		}
	}
}

// TestFastPathAgrees holds the engine's Go matcher (regate_match_best) to
// the pure-Rego library that stock OPA runs: every permission case must get
// the same whole decision from both.
func TestFastPathAgrees(t *testing.T) {
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pool := runtime.NewPool()
	for _, c := range cases {
		fast, call, err := c.Engine(ctx, pool)
		if err != nil {
			t.Fatal(err)
		}
		pure, _, err := c.Engine(ctx, pool, runtime.WithPureRego())
		if err != nil {
			t.Fatal(err)
		}
		a, errA := fast.Decide(ctx, call)
		b, errB := pure.Decide(ctx, call)
		if errA != nil || errB != nil || a != b {
			t.Errorf("%s: fast %+v (%v)\n pure %+v (%v)", c.ID, a, errA, b, errB)
		}
	}
}
