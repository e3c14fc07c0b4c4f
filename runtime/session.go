package runtime

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/compiler"
)

// ErrTooManyApprovals is returned by Approve on a session that already
// holds its limit of approvals (NewSessionWithLimit): the call it was for
// keeps asking, which is the safe side.
var ErrTooManyApprovals = errors.New("runtime: the session holds too many approvals")

// Session keeps what the user approved for the rest of the session. It is
// safe for concurrent use; an approval applies to every later decision.
type Session struct {
	home      string
	max       int // the most approvals the session keeps; 0: no limit
	mu        sync.RWMutex
	approvals []compiler.Approval
	// doc is the input document's "session" member, {"approvals": …},
	// built once per change and shared by every decision.
	doc *ast.Term
	// stamp names the session's approvals as they are now, in the
	// decision cache's key: "" while there are none, else a digest of the
	// approvals in order (they are the whole of the document's session
	// member, which the home the patterns expand against completes, and
	// the policy's hash covers that). Sessions with the same approvals
	// decide alike and share cached decisions, in one engine (regate
	// serve) and across processes (a DecisionStore); a change is a new
	// stamp.
	stamp string
}

// NewSession returns an empty session whose approval patterns expand ~
// against home.
func NewSession(home string) *Session {
	return &Session{home: home, doc: sessionDoc(ast.NewObject())}
}

// NewSessionWithLimit is NewSession keeping at most max approvals: a
// server holding many sessions bounds what each can grow to.
func NewSessionWithLimit(home string, max int) *Session {
	s := NewSession(home)
	s.max = max
	return s
}

func sessionDoc(approvals ast.Value) *ast.Term {
	return ast.ObjectTerm(ast.Item(term("approvals"), ast.NewTerm(approvals)))
}

// Approve records an approval and recompiles the session's matchers.
func (s *Session) Approve(a ...compiler.Approval) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.max > 0 && len(s.approvals)+len(a) > s.max {
		return fmt.Errorf("%w (%d, the limit)", ErrTooManyApprovals, s.max)
	}
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
	s.stamp = approvalsStamp(next)
	return nil
}

// approvalsStamp digests approvals in order, each surface and pattern
// length-prefixed so that no two lists meet.
func approvalsStamp(approvals []compiler.Approval) string {
	h := sha256.New()
	for _, a := range approvals {
		fmt.Fprintf(h, "%d:%s%d:%s", len(a.Surface), a.Surface, len(a.Pattern), a.Pattern)
	}
	return string(h.Sum(nil))
}

// Approvals returns a copy of the session's approvals.
func (s *Session) Approvals() []compiler.Approval {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]compiler.Approval(nil), s.approvals...)
}

// Len reports how many approvals the session holds.
func (s *Session) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.approvals)
}

// current returns the session document and its stamp, read together.
func (s *Session) current() (*ast.Term, string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.doc, s.stamp
}
