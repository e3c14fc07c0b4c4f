package server

import (
	"container/list"
	"sync"

	"github.com/regate/regate/runtime"
)

// Sessions held by the server. A session is created by the first call or
// approval naming its id and lives until it is the least recently used
// when room is needed: past MaxSessions sessions, or past
// MaxApprovalsHeld approvals in all. An evicted session loses its
// approvals; its next call is decided as a new session's, so what was
// approved asks again (fail closed).
const (
	MaxSessions = 10_000
	// MaxSessionApprovals bounds one session's approvals: the one past it
	// is refused (runtime.ErrTooManyApprovals), and the call keeps asking.
	MaxSessionApprovals = 1_000
	// MaxApprovalsHeld bounds the approvals of every session together, so
	// that a few thousand sessions at their limit cannot hold gigabytes.
	MaxApprovalsHeld = 50_000
)

// sessions is a least-recently-used map of session id to session, bounded
// in sessions and in approvals. A session's weight is 1 plus its approvals,
// read again each time it is used: an approval added since then counts from
// the session's next use, which the approvals endpoint makes at once.
type sessions struct {
	mu        sync.Mutex
	maxLen    int
	maxWeight int
	byID      map[string]*list.Element
	order     *list.List // front: the most recently used
	weight    int
}

type heldSession struct {
	id     string
	s      *runtime.Session
	weight int
}

func newSessions(maxLen, maxWeight int) *sessions {
	return &sessions{maxLen: maxLen, maxWeight: maxWeight, byID: map[string]*list.Element{}, order: list.New()}
}

// get returns the session of id, created with home when it is not held.
// An id longer than MaxSessionID (which the decision endpoint refuses)
// gets a session of its own that is not kept.
func (ss *sessions) get(id, home string) *runtime.Session {
	if len(id) > MaxSessionID {
		return runtime.NewSessionWithLimit(home, MaxSessionApprovals)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if el, ok := ss.byID[id]; ok {
		h := el.Value.(*heldSession)
		ss.order.MoveToFront(el)
		w := 1 + h.s.Len()
		ss.weight += w - h.weight
		h.weight = w
		ss.evict(el)
		return h.s
	}
	h := &heldSession{id: id, s: runtime.NewSessionWithLimit(home, MaxSessionApprovals), weight: 1}
	ss.byID[id] = ss.order.PushFront(h)
	ss.weight++
	ss.evict(ss.byID[id])
	return h.s
}

// evict drops the least recently used sessions, never keep, until the
// bounds hold again.
func (ss *sessions) evict(keep *list.Element) {
	for ss.order.Len() > ss.maxLen || ss.weight > ss.maxWeight {
		el := ss.order.Back()
		if el == keep {
			return // the one in use stays, however heavy (MaxSessionApprovals bounds it)
		}
		h := ss.order.Remove(el).(*heldSession)
		delete(ss.byID, h.id)
		ss.weight -= h.weight
	}
}

// len reports how many sessions are held and their weight.
func (ss *sessions) len() (int, int) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.order.Len(), ss.weight
}
