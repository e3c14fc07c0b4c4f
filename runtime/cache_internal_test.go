package runtime

import (
	"fmt"
	"testing"

	"github.com/regate/regate/facts"
)

func TestDecisionCacheIsBounded(t *testing.T) {
	c := newDecisionCache(8)
	for i := 0; i < 100; i++ {
		c.put(fmt.Sprint(i), Decision{Action: "allow", Value: fmt.Sprint(i)})
	}
	if len(c.m) != 8 || len(c.order) != 8 {
		t.Fatalf("cache holds %d entries (%d in order), want 8", len(c.m), len(c.order))
	}
	if _, ok := c.get("99"); !ok {
		t.Error("the newest entry is gone")
	}
	if _, ok := c.get("0"); ok {
		t.Error("the oldest entry is still there")
	}
	if newDecisionCache(0) != nil {
		t.Error("size 0 must turn the cache off")
	}
}

// TestInputKeyIsExact: inputs that differ anywhere get different keys, and
// no two field boundaries can be shifted into the same bytes.
func TestInputKeyIsExact(t *testing.T) {
	base := facts.Input{Tool: "bash", Checks: []facts.Check{{Surface: "bash", Value: "ab", Forms: [][]string{{"ab"}}}}}
	variants := []facts.Input{
		base,
		{Tool: "bash", Checks: []facts.Check{{Surface: "bash", Value: "a", Forms: [][]string{{"ab"}}}}},
		{Tool: "bash", Checks: []facts.Check{{Surface: "bash", Value: "ab", Forms: [][]string{{"a", "b"}}}}},
		{Tool: "bash", Checks: []facts.Check{{Surface: "bash", Value: "ab", Forms: [][]string{{"ab"}}, Bare: true}}},
		{Tool: "bash", Agent: "x", Checks: base.Checks},
		{Tool: "bash", Unregistered: true, Checks: base.Checks},
		{Tool: "bash", Floor: "ask", Checks: base.Checks},
		{Tool: "bas", Checks: []facts.Check{{Surface: "hbash", Value: "ab", Forms: [][]string{{"ab"}}}}},
	}
	seen := map[string]int{}
	for i, v := range variants {
		k := inputKey(&v, 0)
		if j, dup := seen[k]; dup {
			t.Errorf("variants %d and %d share a key", j, i)
		}
		seen[k] = i
	}
	if inputKey(&base, 0) == inputKey(&base, 1) {
		t.Error("the approval revision is not part of the key")
	}
}
