package runtime

import (
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

func TestDecisionCacheIsBounded(t *testing.T) {
	c := newDecisionCache(8, DefaultCacheBytes)
	for i := 0; i < 100; i++ {
		c.put(fmt.Sprint(i), Decision{Action: "allow", Value: fmt.Sprint(i)})
	}
	if n, _ := c.len(); n != 8 || len(c.m) != 8 {
		t.Fatalf("cache holds %d entries (%d in the map), want 8", n, len(c.m))
	}
	if _, ok := c.get("99"); !ok {
		t.Error("the newest entry is gone")
	}
	if _, ok := c.get("0"); ok {
		t.Error("the oldest entry is still there")
	}
	if newDecisionCache(0, DefaultCacheBytes) != nil {
		t.Error("size 0 must turn the cache off")
	}
}

// TestCacheIsBoundedInBytes: long entries are evicted by their size before
// the count is reached, the estimate never passes the bound, an entry above
// a sixteenth of it is not kept, and the ring stays in order as it grows
// after evictions (the oldest goes first).
func TestCacheIsBoundedInBytes(t *testing.T) {
	const maxBytes = 64 << 10
	c := newDecisionCache(1000, maxBytes)
	long := strings.Repeat("x", 2000)
	for i := 0; i < 500; i++ {
		key := fmt.Sprintf("%d/%s", i, long[:i%2000])
		c.put(key, Decision{Action: "allow", Value: long})
		n, bytes := c.len()
		if bytes > maxBytes || n != len(c.m) {
			t.Fatalf("after %d puts: %d entries (%d in the map), %d bytes, bound %d", i+1, n, len(c.m), bytes, maxBytes)
		}
		if _, ok := c.get(key); !ok {
			t.Fatalf("put %d: the newest entry is gone", i)
		}
	}
	n, _ := c.len()
	if n >= 500 || n < 5 {
		t.Fatalf("%d entries of about 4 KB in a 64 KiB cache", n)
	}
	// The survivors are the newest ones, oldest evicted first.
	for i := 0; i < 500-n; i++ {
		if _, ok := c.get(fmt.Sprintf("%d/%s", i, long[:i%2000])); ok {
			t.Fatalf("entry %d survived while %d newer ones are kept", i, n)
		}
	}
	c.put("huge", Decision{Value: strings.Repeat("y", maxBytes/16)})
	if _, ok := c.get("huge"); ok {
		t.Error("an entry above a sixteenth of the bound was kept")
	}
	// Small entries after big ones: the ring grows past the evictions and
	// keeps its order.
	// (about 300 bytes each: 150 fit in 64 KiB)
	for i := 0; i < 150; i++ {
		c.put(fmt.Sprint("s", i), Decision{Action: "ask"})
	}
	for i := 0; i < 150; i++ {
		if _, ok := c.get(fmt.Sprint("s", i)); !ok {
			t.Fatalf("small entry %d lost", i)
		}
	}
	for i := 150; i < 1100; i++ {
		c.put(fmt.Sprint("s", i), Decision{Action: "ask"})
	}
	n, bytes := c.len()
	if bytes > maxBytes || n < 150 {
		t.Fatalf("%d small entries, %d bytes", n, bytes)
	}
	for i := 0; i < 1100-n; i++ {
		if _, ok := c.get(fmt.Sprint("s", i)); ok {
			t.Fatalf("small entry %d outlived newer ones", i)
		}
	}
	if _, ok := c.get("s1099"); !ok {
		t.Fatal("the newest small entry is gone")
	}
}

// TestDocumentKeyIsExact: inputs that differ anywhere get different keys,
// and no two field boundaries can be shifted into the same bytes.
func TestDocumentKeyIsExact(t *testing.T) {
	inputKey := func(in *facts.Input, stamp string) string {
		k, err := documentKey(in, stamp)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
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
		k := inputKey(&v, "")
		if j, dup := seen[k]; dup {
			t.Errorf("variants %d and %d share a key", j, i)
		}
		seen[k] = i
	}
	if inputKey(&base, "") == inputKey(&base, "a") || inputKey(&base, "a") == inputKey(&base, "b") {
		t.Error("the approval stamp is not part of the key")
	}
}
