package sessiontrace_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/regate/regate/internal/sessiontrace"
)

const file = "../../testdata/trace/session.jsonl"

// TestFileIsCurrent: testdata/trace/session.jsonl is what the generator
// writes (UPDATE_GOLDEN=1 rewrites it).
func TestFileIsCurrent(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range sessiontrace.Trace(sessiontrace.Seed) {
		if err := enc.Encode(e); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatal("testdata/trace/session.jsonl is stale: UPDATE_GOLDEN=1 go test ./internal/sessiontrace")
	}
}
