package conformance_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/conformance"
	"github.com/regate/regate/runtime"
)

const corpus = "../../../testdata/conformance"

// TestCopyMatchesShared fails when the committed copy of the conformance
// cases differs from ../shared/conformance, when that folder is present.
func TestCopyMatchesShared(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "..", "shared", "conformance")
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
	t.Parallel()
	known := readKnown(t)
	files, err := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance files under %s", corpus)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			rs, err := conformance.RunFile(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				expectFail := known.has(r)
				switch {
				case !r.Passed && !expectFail:
					t.Errorf("%s", r.Line())
				case r.Passed && expectFail:
					t.Errorf("PASS %s: listed in known-failures.txt; remove it", r.ID)
				}
			}
			p, fl := conformance.Count(rs)
			t.Logf("%s: %d passed, %d failed", filepath.Base(f), p, fl)
		})
	}
}

// knownFailures holds the lines of known-failures.txt: a case id, "suite
// NAME", or an id prefix ending in "*" ("ceiling-*").
type knownFailures map[string]bool

func (k knownFailures) has(r conformance.Result) bool {
	if k[r.ID] || k["suite "+r.Suite] {
		return true
	}
	for line := range k {
		if prefix, ok := strings.CutSuffix(line, "*"); ok && strings.HasPrefix(r.ID, prefix) {
			return true
		}
	}
	return false
}

func readKnown(t *testing.T) knownFailures {
	b, err := os.ReadFile(filepath.Join(corpus, "known-failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	known := knownFailures{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			known[line] = true
		}
	}
	return known
}

// TestBundleDocumentAgrees holds the embedded engine to the same policy as
// stock OPA holds it, on every permission case: the engine builds the input
// document and the rules as AST values and asks the generated decision; a
// server reads both as JSON and answers the public query. One decider, two
// encodings: they must give the same whole decision, message included.
// Cases run as parallel subtests.
func TestBundleDocumentAgrees(t *testing.T) {
	t.Parallel()
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	docs := newBundleDocs(t)
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			var out *compiler.Output
			e, call, err := c.EngineWith(ctx, runtime.NewPool(), func(o *compiler.Output) { out = o })
			if err != nil {
				t.Fatal(err)
			}
			a, err := e.Decide(ctx, call)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := e.Input(call)
			if err != nil {
				t.Fatal(err)
			}
			pure, err := docs.decide(ctx, out, doc)
			if err != nil {
				t.Fatal(err)
			}
			if a != pure {
				t.Errorf("engine %+v\nbundle %+v", a, pure)
			}
		})
	}
}
