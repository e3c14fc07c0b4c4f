package delegate

import (
	"maps"
	"slices"
	"sync"
)

// Bucket is a token bucket as last charged: the tokens it held after the
// charge and when (seconds since the run began).
type Bucket struct {
	Tokens, At float64
}

// CeilingState is what delegation policies remember between calls, keyed
// by policy name: rate buckets (by the key the ceiling names) and call
// ledgers (allowed calls per session). Siblings name the same parent
// policy, so they share its buckets and ledger. A Ceiling serializes its
// use of one state.
type CeilingState interface {
	// Buckets returns a policy's buckets; a missing bucket is full.
	Buckets(policy string) map[string]Bucket
	// Calls is how many calls the policy allowed in the session.
	Calls(policy, session string) int64
	// SetBucket records a charged bucket.
	SetBucket(policy, key string, b Bucket)
	// Count records an allowed call in the session's ledger. With
	// maxSessions > 0 the ledger keeps that many sessions, dropping the
	// least recently charged, whose count starts again if it returns.
	Count(policy, session string, maxSessions int64)
}

// NewMemoryCeilingState returns the in-memory CeilingState, safe for
// concurrent use.
func NewMemoryCeilingState() CeilingState {
	return &memoryCeilingState{buckets: map[string]map[string]Bucket{}, ledgers: map[string]*ledger{}}
}

type memoryCeilingState struct {
	mu      sync.Mutex
	buckets map[string]map[string]Bucket
	ledgers map[string]*ledger
}

// ledger counts a policy's allowed calls per session; order lists the
// sessions from the least to the most recently charged.
type ledger struct {
	counts map[string]int64
	order  []string
}

func (s *memoryCeilingState) Buckets(policy string) map[string]Bucket {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.buckets[policy])
}

func (s *memoryCeilingState) Calls(policy, session string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.ledgers[policy]; l != nil {
		return l.counts[session]
	}
	return 0
}

func (s *memoryCeilingState) SetBucket(policy, key string, b Bucket) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.buckets[policy] == nil {
		s.buckets[policy] = map[string]Bucket{}
	}
	s.buckets[policy][key] = b
}

func (s *memoryCeilingState) Count(policy, session string, maxSessions int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.ledgers[policy]
	if l == nil {
		l = &ledger{counts: map[string]int64{}}
		s.ledgers[policy] = l
	}
	if i := slices.Index(l.order, session); i >= 0 {
		l.order = slices.Delete(l.order, i, i+1)
	}
	l.order = append(l.order, session)
	l.counts[session]++
	for maxSessions > 0 && int64(len(l.order)) > maxSessions {
		delete(l.counts, l.order[0])
		l.order = l.order[1:]
	}
}
