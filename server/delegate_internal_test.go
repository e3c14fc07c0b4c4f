package server

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestDelegationStateBounded: at most MaxDelegations runs are kept; the
// least recently used goes first, a child before its parent because using
// a child touches its parent, and an evicted child's run is over. A run
// keeps at most MaxDelegationSessions sessions.
func TestDelegationStateBounded(t *testing.T) {
	ctx := context.Background()
	a := newDelegations(time.Now)
	ts := delegationServerWith(t, a)
	create := func(body map[string]any) string {
		t.Helper()
		code, out, err := postJSON(ctx, ts, "/v1/delegations", body)
		if err != nil || code != http.StatusOK {
			t.Fatalf("create: %d %v %v", code, out, err)
		}
		return out["id"].(string)
	}
	decide := func(id string, body map[string]any) (int, map[string]any) {
		t.Helper()
		code, out, err := postJSON(ctx, ts, "/v1/delegations/"+id+"/decision", body)
		if err != nil {
			t.Fatal(err)
		}
		return code, out
	}
	root := create(map[string]any{"policy": map[string]any{}})
	first := create(map[string]any{"parent": root, "policy": map[string]any{}})
	var stale []string
	for i := 0; i < MaxDelegations-2; i++ {
		id := create(map[string]any{"parent": root, "policy": map[string]any{}})
		if i < 2 {
			stale = append(stale, id) // the two least recently used, once first is used again
		}
		if i == 10 {
			decide(first, map[string]any{"tool": "t"}) // used: among the recent again
		}
	}
	early := create(map[string]any{"parent": root, "policy": map[string]any{}}) // the bound, reached
	// Past the bound: the least recently used child goes (not the root,
	// touched by every child, nor first, used since).
	create(map[string]any{"parent": root, "policy": map[string]any{}})
	if code, _ := decide(first, map[string]any{"tool": "t"}); code != http.StatusOK {
		t.Errorf("a recently used child was evicted: %d", code)
	}
	if code, _ := decide(early, map[string]any{"tool": "t"}); code != http.StatusOK {
		t.Errorf("the newest child was evicted: %d", code)
	}
	for _, id := range stale {
		if code, _ := decide(id, map[string]any{"tool": "t"}); code != http.StatusNotFound {
			t.Errorf("a least recently used child was kept: %d; want 404", code)
		}
	}
	a.mu.Lock()
	kept := len(a.runs.by)
	a.mu.Unlock()
	if kept != MaxDelegations {
		t.Errorf("%d delegations kept; the bound is %d", kept, MaxDelegations)
	}

	for i := 0; i < MaxDelegationSessions-1; i++ { // the root's id is the first
		if code, out := decide(first, map[string]any{"tool": "t", "session": fmt.Sprint("s", i)}); code != http.StatusOK {
			t.Fatalf("session %d: %d %v", i, code, out)
		}
	}
	if code, out := decide(first, map[string]any{"tool": "t", "session": "one too many"}); code != http.StatusTooManyRequests {
		t.Errorf("a session past the bound: %d %v; want 429", code, out)
	}
	if code, _ := decide(first, map[string]any{"tool": "t", "session": "s0"}); code != http.StatusOK {
		t.Errorf("a known session: %d", code)
	}
}

// TestDelegationEvictedChildStops: a child whose entry is evicted is
// exited, so a grandchild below it is no longer running.
func TestDelegationEvictedChildStops(t *testing.T) {
	a := newDelegations(time.Now)
	a.runs = newDelegationLRU(3)
	ts := delegationServerWith(t, a)
	ctx := context.Background()
	ids := []string{}
	for i, parent := range []int{-1, 0, 1} { // root, mid, leaf
		body := map[string]any{"policy": map[string]any{}}
		if parent >= 0 {
			body["parent"] = ids[parent]
		}
		code, out, err := postJSON(ctx, ts, "/v1/delegations", body)
		if err != nil || code != http.StatusOK {
			t.Fatalf("%d: %d %v %v", i, code, out, err)
		}
		ids = append(ids, out["id"].(string))
	}
	a.mu.Lock()
	mid := a.runs.by[ids[1]].Value.(*delegationEntry)
	leaf := a.runs.by[ids[2]].Value.(*delegationEntry)
	a.runs.remove(mid)
	a.mu.Unlock()
	if leaf.child.Running() {
		t.Fatal("the leaf runs on after its parent's entry was removed")
	}
	if code, _, _ := postJSON(ctx, ts, "/v1/delegations/"+ids[2]+"/decision", map[string]any{"tool": "t"}); code != http.StatusNotFound {
		t.Errorf("the leaf's id: %d; want 404", code)
	}
}
