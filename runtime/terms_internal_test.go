package runtime

import (
	"testing"

	"github.com/regate/regate/facts"
)

// TestMemberNamesArePrebuilt: every member name of the input document and of the decision object has a
// prebuilt term, so that building a document allocates no key (a key
// missing from terms cost 16 allocations a decision until 2026-12-06).
func TestMemberNamesArePrebuilt(t *testing.T) {
	names := []string{"tool", "unregistered", "checks", "session", "agent", "floor",
		"surface", "value", "forms", "keys", "any_keys",
		// and of the decision object decisionFrom reads
		"action", "matched", "layer", "origin", "at", "reason", "pos", "message", "floor", "yolo"}
	strs, flags := checkMembers(&facts.Check{})
	for _, m := range strs {
		names = append(names, m.key)
	}
	for _, m := range flags {
		names = append(names, m.key)
	}
	for _, n := range names {
		if _, ok := terms[n]; !ok {
			t.Errorf("input member %q has no prebuilt term in runtime/terms.go", n)
		}
	}
}
