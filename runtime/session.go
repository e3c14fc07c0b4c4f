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
	// doc is the input document's "session" member, {"approvals": …},
	// built once per revision and shared by every decision.
	doc *ast.Term
	// revision counts changes, so that a decision cached before an approval
	// is never served after it.
	revision uint64
}

// NewSession returns an empty session whose approval patterns expand ~
// against home.
func NewSession(home string) *Session {
	return &Session{home: home, doc: sessionDoc(ast.NewObject())}
}

func sessionDoc(approvals ast.Value) *ast.Term {
	return ast.ObjectTerm(ast.Item(term("approvals"), ast.NewTerm(approvals)))
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
	s.approvals, s.doc = next, sessionDoc(v)
	s.revision++
	return nil
}

// Approvals returns a copy of the session's approvals.
func (s *Session) Approvals() []compiler.Approval {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]compiler.Approval(nil), s.approvals...)
}

// current returns the session document and its revision, read together.
func (s *Session) current() (*ast.Term, uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.doc, s.revision
}
