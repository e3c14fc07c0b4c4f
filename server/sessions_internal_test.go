package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
)

// TestSessionsAreBounded: past the bound on sessions, or on approvals in
// all, the least recently used session goes, and with it its approvals:
// the id then names a new, empty session (its calls ask again).
func TestSessionsAreBounded(t *testing.T) {
	for _, c := range []struct {
		name              string
		maxLen, maxWeight int
		approvals         int // given to each of the first sessions
		want              int // sessions held after 10 are used
	}{
		{"at the bound on sessions", 10, 1000, 0, 10},
		{"past the bound on sessions", 9, 1000, 0, 9},
		{"at the bound on approvals", 10, 10 + 10*3, 3, 10},
		{"past the bound on approvals", 10, 10 + 10*3 - 1, 3, 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			ss := newSessions(c.maxLen, c.maxWeight)
			for i := range 10 {
				s := ss.get(fmt.Sprint("s", i), "/home/u")
				for j := range c.approvals {
					if err := s.Approve(compiler.Approval{Surface: "bash", Pattern: fmt.Sprint("make ", j)}); err != nil {
						t.Fatal(err)
					}
				}
				ss.get(fmt.Sprint("s", i), "/home/u") // the approval endpoint's next use weighs it
			}
			n, weight := ss.len()
			if n != c.want || weight > c.maxWeight {
				t.Fatalf("%d sessions of weight %d held; want %d within %d", n, weight, c.want, c.maxWeight)
			}
			// The most recent is held with its approvals; an evicted one
			// comes back empty.
			if got := ss.get("s9", "/home/u").Len(); got != c.approvals {
				t.Errorf("the most recent session has %d approvals, want %d", got, c.approvals)
			}
			if c.want < 10 {
				if got := ss.get("s0", "/home/u").Len(); got != 0 {
					t.Errorf("the evicted session came back with %d approvals", got)
				}
			}
		})
	}
}

// TestSessionsLeastRecentlyUsedGoes: using a session keeps it; the one
// left unused longest goes.
func TestSessionsLeastRecentlyUsedGoes(t *testing.T) {
	ss := newSessions(3, 100)
	a := ss.get("a", "/h")
	if err := a.Approve(compiler.Approval{Surface: "bash", Pattern: "make"}); err != nil {
		t.Fatal(err)
	}
	ss.get("b", "/h")
	ss.get("c", "/h")
	ss.get("a", "/h") // a is used again: b is now the oldest
	ss.get("d", "/h")
	if ss.get("a", "/h") != a || a.Len() != 1 {
		t.Error("the recently used session was evicted")
	}
	if n, _ := ss.len(); n != 3 {
		t.Errorf("%d sessions held", n)
	}
	// b was evicted: b is new now, and c (oldest after) went for it.
	if ss.get("c", "/h").Len() != 0 {
		t.Error("c holds approvals")
	}
}

// TestSessionIDLimit: an id past MaxSessionID is never held (the decision
// endpoint refuses it with 400); at the limit it is.
func TestSessionIDLimit(t *testing.T) {
	ss := newSessions(10, 100)
	at, over := strings.Repeat("s", MaxSessionID), strings.Repeat("s", MaxSessionID+1)
	if ss.get(at, "/h") != ss.get(at, "/h") {
		t.Error("an id at the limit is not held")
	}
	if ss.get(over, "/h") == ss.get(over, "/h") {
		t.Error("an id past the limit is held")
	}
	if n, _ := ss.len(); n != 1 {
		t.Errorf("%d sessions held", n)
	}
	s := ss.get(at, "/h")
	all := make([]compiler.Approval, MaxSessionApprovals)
	for i := range all {
		all[i] = compiler.Approval{Surface: "bash", Pattern: fmt.Sprint("t", i)}
	}
	if err := s.Approve(all...); err != nil {
		t.Fatalf("%d approvals: %v", len(all), err)
	}
	if err := s.Approve(compiler.Approval{Surface: "bash", Pattern: "one more"}); err == nil {
		t.Error("a session took more than MaxSessionApprovals")
	}
}
