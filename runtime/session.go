package runtime

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/compiler"
)

// Session keeps what the user approved for the rest of the session. It is
// safe for concurrent use; an approval applies to every later decision.
type Session struct {
	home      string
	mu        sync.RWMutex
	approvals []compiler.Approval
	compiled  ast.Value
	// revision counts changes, so that a decision cached before an approval
	// is never served after it.
	revision uint64
}

// NewSession returns an empty session whose approval patterns expand ~
// against home.
func NewSession(home string) *Session {
	return &Session{home: home, compiled: ast.NewObject()}
}

// Approve records an approval and recompiles the session's matchers.
func (s *Session) Approve(a ...compiler.Approval) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := append(append([]compiler.Approval(nil), s.approvals...), a...)
	m, err := compiler.CompileApprovals(next, s.home)
	if err != nil {
		return err
	}
	v, err := ast.InterfaceToValue(m)
	if err != nil {
		return err
	}
	s.approvals, s.compiled = next, v
	s.revision++
	return nil
}

// Approvals returns a copy of the session's approvals.
func (s *Session) Approvals() []compiler.Approval {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]compiler.Approval(nil), s.approvals...)
}

// current returns the compiled approvals and their revision, read together.
func (s *Session) current() (ast.Value, uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.compiled, s.revision
}
