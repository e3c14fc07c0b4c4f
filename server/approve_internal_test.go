package server

import (
	"fmt"
	"testing"

	"github.com/regate/regate/runtime"
)

// TestAskMemoryBounded: at most AskSessions sessions of AskHistory asks
// each; the least recently asked session and a session's oldest asks are
// forgotten first.
func TestAskMemoryBounded(t *testing.T) {
	var m askMemory
	ask := func(v string) runtime.Decision { return runtime.Decision{Action: "ask", Surface: "bash", Value: v} }
	m.remember("first", ask("make"))
	for i := 0; i < AskSessions; i++ {
		m.remember(fmt.Sprintf("s%d", i), ask("make"))
		if i == AskSessions/2 {
			m.remember("first", ask("make")) // asked again: now among the recent
		}
	}
	m.remember("s0", ask("make")) // s0 went first; asked again it is back, and s1 goes
	m.remember("late", ask("make"))
	if n := m.order.Len(); n != AskSessions || len(m.by) != AskSessions {
		t.Fatalf("%d sessions kept (%d in the map), the bound is %d", n, len(m.by), AskSessions)
	}
	for _, c := range []struct {
		session string
		want    bool
	}{{"first", true}, {"s0", true}, {"s1", false}, {"late", true}, {fmt.Sprintf("s%d", AskSessions-1), true}} {
		if got := m.shown(c.session, digest("bash", "make")); got != c.want {
			t.Errorf("%s: shown %v, want %v", c.session, got, c.want)
		}
	}

	for i := 0; i <= AskHistory; i++ {
		m.remember("busy", ask(fmt.Sprintf("cmd %d", i)))
	}
	if m.shown("busy", digest("bash", "cmd 0")) {
		t.Error("the oldest ask of a session past AskHistory is still kept")
	}
	if !m.shown("busy", digest("bash", "cmd 1")) || !m.shown("busy", digest("bash", fmt.Sprint("cmd ", AskHistory))) {
		t.Error("a recent ask is forgotten")
	}
	for _, d := range []runtime.Decision{{Action: "allow", Surface: "bash", Value: "allowed"}, {Action: "deny", Surface: "bash", Value: "denied"}} {
		m.remember("busy", d)
		if m.shown("busy", digest("bash", d.Value)) {
			t.Errorf("a %s is remembered as an ask", d.Action)
		}
	}
}
