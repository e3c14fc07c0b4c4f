package server

import (
	"container/list"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
)

// What a session approval may be. "Approve for this session" approves the
// value the person was shown (docs/ask.md), so the approvals endpoint takes
// exactly that: the surface and value of an ask this session was recently
// answered, as an exact pattern (no * or ?, the pattern language's only
// wildcards; it has no escape, so a value holding one cannot be approved
// exactly and is approved once instead). A pattern with a wildcard admits
// more than anyone was shown, and is refused unless Config.AllowWide, for a
// host whose own dialog shows the pattern it approves.
//
// The asks are kept per session, bounded: AskSessions sessions (the least
// recently asked forgotten first) of AskHistory asks each. A host may show
// several prompts before the first answer comes back (parallel tool calls).
// A session forgotten here can no longer be approved: the call asks again,
// which fails closed. Only a digest of each value is kept, so a 1 MiB
// command costs no more than a short one.
const (
	AskSessions = 4096
	AskHistory  = 16
)

// asked is a digest of one ask's surface and value.
type asked [sha256.Size]byte

func digest(surface, value string) asked {
	h := sha256.New()
	h.Write([]byte(surface))
	h.Write([]byte{0})
	h.Write([]byte(value))
	var d asked
	h.Sum(d[:0])
	return d
}

// askMemory remembers the recent asks of each session. The zero value is
// ready to use.
type askMemory struct {
	mu    sync.Mutex
	order list.List // of *sessionAsks, the most recently asked first
	by    map[string]*list.Element
}

type sessionAsks struct {
	id   string
	asks [AskHistory]asked
	n    int // asks recorded, the ring's next slot is n % AskHistory
}

// remember records d if it is an ask of a session.
func (m *askMemory) remember(session string, d runtime.Decision) {
	if session == "" || d.Action != "ask" || d.Surface == "" {
		return
	}
	sum := digest(d.Surface, d.Value)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil {
		m.by = map[string]*list.Element{}
	}
	e, ok := m.by[session]
	if ok {
		m.order.MoveToFront(e)
	} else {
		if m.order.Len() >= AskSessions {
			oldest := m.order.Back()
			delete(m.by, oldest.Value.(*sessionAsks).id)
			m.order.Remove(oldest)
		}
		e = m.order.PushFront(&sessionAsks{id: session})
		m.by[session] = e
	}
	s := e.Value.(*sessionAsks)
	s.asks[s.n%AskHistory] = sum
	s.n++
}

// shown reports whether one of session's recent asks was any of sums.
func (m *askMemory) shown(session string, sums ...asked) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.by[session]
	if !ok {
		return false
	}
	s := e.Value.(*sessionAsks)
	for i := 0; i < min(s.n, AskHistory); i++ {
		for _, sum := range sums {
			if s.asks[i] == sum {
				return true
			}
		}
	}
	return false
}

// isWide reports whether a pattern has a wildcard, so admits more than one
// value.
func isWide(pattern string) bool { return strings.ContainsAny(pattern, "*?") }

func (s *Server) approve(w http.ResponseWriter, r *http.Request) {
	var a compiler.Approval
	if err := decodeBody(r, &a); err != nil || a.Surface == "" || a.Pattern == "" {
		writeError(w, http.StatusBadRequest, "invalid_parameter", "want {\"surface\": …, \"pattern\": …}"+errSuffix(err))
		return
	}
	id := r.PathValue("id")
	p := s.current.Load()
	switch {
	case isWide(a.Pattern) && !s.cfg.AllowWide:
		writeError(w, http.StatusForbidden, "approval_too_wide", fmt.Sprintf(
			"%s pattern %q holds * or ?, so it would approve more than the one value shown; approve the call once (serve takes such patterns only with --allow-wide-approvals)",
			a.Surface, a.Pattern))
		return
	case !isWide(a.Pattern) && !s.asks.shown(id, digest(a.Surface, a.Pattern), digest(a.Surface, compiler.ExpandHome(a.Pattern, p.out.Home))):
		writeError(w, http.StatusForbidden, "approval_not_asked", fmt.Sprintf(
			"session %q was not recently asked about %s %q: an approval must be the exact value of an ask the session was shown",
			id, a.Surface, a.Pattern))
		return
	}
	if err := s.session(id, p.out.Home).Approve(a); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameter", err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
