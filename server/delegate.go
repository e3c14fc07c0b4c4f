package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime/delegate"
)

// The delegation endpoints decide the calls of delegated runs at the
// ceiling (step 2.1) through the Go API (delegate.Run, ChildRun), so that
// serve decides as an embedding host does:
//
//	POST /v1/delegations                    {"policy": {…}}: a root, the planner's policy
//	POST /v1/delegations                    {"parent": ID, "policy": {…}, "agent_id": "…"}: a child, proven within its parent and entered
//	POST /v1/delegations/{id}/policy        {"policy": {…}}: replace a root's policy (children are frozen)
//	POST /v1/delegations/{id}/decision      {"tool": "…", "roles": […], "session": "…", "untrusted_prior": n, "authorized_once": b, "tool_policy": ROOT}
//	POST /v1/delegations/{id}/approvals     {"escalation": "…", "approver": "…"}: approve a pending escalation, which is charged now
//	POST /v1/delegations/{id}/exit          end a child's run (and every run beneath it), or a root's whole tree
//
// Every route goes through the guard (token, JSON content type, size and
// time limits). Time is the server's clock: a call's minute of the day is
// local time, and its time since the run began counts from the root's
// creation; a host cannot move it.
//
// The state is bounded: at most MaxDelegations roots and children are kept,
// the least recently used evicted first (using a run touches every run
// above it, so a root goes after its children). An evicted child's run
// ends, and an evicted root's tree halts: their calls are refused
// (not_running), and their ids are unknown (404). A run keeps at most
// MaxDelegationSessions sessions; a call naming one more is refused with
// 429, and the host must block it. A policy document is at most
// MaxDelegationPolicy bytes.
const (
	MaxDelegations        = 1024
	MaxDelegationSessions = 64
	MaxDelegationPolicy   = 64 << 10
)

// delegations is the delegation API's state. One lock serializes it: the
// runtime serializes a run's decisions anyway, and a root's policy is
// replaced in place (its identity keys its buckets) only between them.
type delegations struct {
	now func() time.Time

	mu   sync.Mutex
	runs delegationLRU
}

// delegationRoutes registers the delegation endpoints; the state belongs to
// the handler.
func (s *Server) delegationRoutes(mux *http.ServeMux) {
	newDelegations(time.Now).routes(mux)
}

func newDelegations(now func() time.Time) *delegations {
	return &delegations{now: now, runs: newDelegationLRU(MaxDelegations)}
}

func (a *delegations) routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/delegations", a.create)
	mux.HandleFunc("POST /v1/delegations/{id}/policy", a.replace)
	mux.HandleFunc("POST /v1/delegations/{id}/decision", a.decide)
	mux.HandleFunc("POST /v1/delegations/{id}/approvals", a.approve)
	mux.HandleFunc("POST /v1/delegations/{id}/exit", a.exit)
}

// delegationEntry is a root (a run and its planner's live policy) or an
// entered child run.
type delegationEntry struct {
	id     string
	root   *delegationRoot
	parent *delegationEntry // nil for a root
	child  *delegate.ChildRun
}

// delegationRoot is what a root's tree shares.
type delegationRoot struct {
	id       string
	run      *delegate.Run
	policy   *delegation.Policy // live: replaced in place
	started  time.Time
	names    map[string]string // the runtime's policy ids → this API's ids
	sessions map[string]bool
}

func (a *delegations) create(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Parent   string          `json:"parent"`
		Policy   json.RawMessage `json:"policy"`
		AgentID  string          `json:"agent_id"`
		Isolated bool            `json:"isolated"`
	}
	if err := decodeBody(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameter", `want {"policy": {…}} or {"parent": ID, "policy": {…}, "agent_id": "…"}`+errSuffix(err))
		return
	}
	policy, ok := decodePolicy(w, req.Policy)
	if !ok {
		return
	}
	id, err := newDelegationID()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal_error", err.Error())
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if req.Parent == "" {
		root := &delegationRoot{
			id: id, run: delegate.NewRun(id), policy: policy, started: a.now(), names: map[string]string{}, sessions: map[string]bool{},
		}
		root.names[root.run.PolicyID(policy)] = id
		a.runs.add(&delegationEntry{id: id, root: root})
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "chain": []string{id}})
		return
	}
	parent := a.runs.get(req.Parent)
	if parent == nil {
		writeError(w, http.StatusNotFound, "not_found", "no delegation "+req.Parent)
		return
	}
	opts := delegate.DelegateOptions{AgentID: req.AgentID, Isolated: req.Isolated, Level: parent.level()}
	var lease *delegate.Delegation
	if parent.child == nil {
		lease, err = parent.root.run.Delegate(parent.root.policy, policy, opts)
	} else {
		lease, err = parent.child.Delegate(policy, opts)
	}
	var refused *delegate.RefusedError
	if errors.As(err, &refused) {
		problems := make([]string, len(refused.Problems))
		for i, p := range refused.Problems {
			problems[i] = p.String()
		}
		writeJSON(w, http.StatusConflict, map[string]any{
			"code": "delegation_refused", "message": "[regate] the child is not proven within its parent", "problems": problems,
		})
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal_error", err.Error())
		return
	}
	child, err := lease.Enter(parent.root.run, opts.Level)
	if err != nil {
		writeError(w, http.StatusConflict, "entry_refused", err.Error())
		return
	}
	chain := child.Chain()
	parent.root.names[chain[len(chain)-1]] = id
	a.runs.add(&delegationEntry{id: id, root: parent.root, parent: parent, child: child})
	ids := make([]string, len(chain))
	for i, c := range chain {
		ids[i] = parent.root.names[c]
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "chain": ids})
}

// level is the entry's depth below its root (0 for the root). A child's
// lease level is its parent's depth: 0 for the root's children, as in the
// Go API.
func (e *delegationEntry) level() int {
	n := 0
	for p := e.parent; p != nil; p = p.parent {
		n++
	}
	return n
}

func (a *delegations) replace(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Policy json.RawMessage `json:"policy"`
	}
	if err := decodeBody(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameter", `want {"policy": {…}}`+errSuffix(err))
		return
	}
	policy, ok := decodePolicy(w, req.Policy)
	if !ok {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	e := a.entry(w, r)
	if e == nil {
		return
	}
	if e.child != nil {
		writeError(w, http.StatusConflict, "frozen", "a child's policy is the frozen copy it was delegated with; only a root's is replaced")
		return
	}
	*e.root.policy = *policy // in place: the object's identity keys its buckets
	writeJSON(w, http.StatusOK, map[string]any{"id": e.id})
}

func (a *delegations) decide(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tool           string   `json:"tool"`
		Roles          []string `json:"roles"`
		Session        string   `json:"session"`
		UntrustedPrior int      `json:"untrusted_prior"`
		AuthorizedOnce bool     `json:"authorized_once"`
		ToolPolicy     string   `json:"tool_policy"`
	}
	if err := decodeBody(r, &req); err != nil || req.Tool == "" {
		writeError(w, http.StatusBadRequest, "invalid_parameter", `want {"tool": "…"}`+errSuffix(err))
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	e := a.entry(w, r)
	if e == nil || !a.running(w, e) {
		return
	}
	var opts []delegate.DecideOption
	if req.ToolPolicy != "" {
		tool := a.runs.get(req.ToolPolicy)
		if tool == nil || tool.child != nil {
			writeError(w, http.StatusNotFound, "not_found", "tool_policy names no root delegation "+req.ToolPolicy)
			return
		}
		opts = append(opts, delegate.WithToolPolicy(tool.root.policy))
		e.root.names[e.root.run.PolicyID(tool.root.policy)] = tool.id
	}
	if !a.session(w, e.root, &req.Session) {
		return
	}
	call := delegate.CeilingCall{
		Tool: req.Tool, Roles: req.Roles, Session: req.Session, UntrustedPrior: req.UntrustedPrior, AuthorizedOnce: req.AuthorizedOnce,
	}
	call.Minute, call.At = a.clock(e.root)
	d, err := e.child.Decide(r.Context(), call, opts...)
	a.answer(w, e, d, err)
}

func (a *delegations) approve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Escalation string `json:"escalation"`
		Approver   string `json:"approver"`
	}
	if err := decodeBody(r, &req); err != nil || req.Escalation == "" || req.Approver == "" {
		writeError(w, http.StatusBadRequest, "invalid_parameter", `want {"escalation": "…", "approver": "…"}`+errSuffix(err))
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	e := a.entry(w, r)
	if e == nil || !a.running(w, e) {
		return
	}
	minute, at := a.clock(e.root)
	d, err := e.child.Approve(r.Context(), delegate.EscalationApproval{Escalation: req.Escalation, Approver: req.Approver, Minute: minute, At: at})
	a.answer(w, e, d, err)
}

func (a *delegations) exit(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e := a.entry(w, r)
	if e == nil {
		return
	}
	a.runs.remove(e)
	writeJSON(w, http.StatusOK, map[string]any{"id": e.id})
}

// entry looks up the path's delegation, touching it and every run above
// it, or writes 404.
func (a *delegations) entry(w http.ResponseWriter, r *http.Request) *delegationEntry {
	id := r.PathValue("id")
	e := a.runs.get(id)
	if e == nil {
		writeError(w, http.StatusNotFound, "not_found", "no delegation "+id+" (never created, ended, or evicted)")
	}
	return e
}

// running refuses a call on a root, whose own calls are the permission
// engine's, not the ceiling's.
func (a *delegations) running(w http.ResponseWriter, e *delegationEntry) bool {
	if e.child == nil {
		writeError(w, http.StatusBadRequest, "not_delegated", "a root is the planner's run, not a delegated one: decide its calls at /v1/data/regate/decision")
		return false
	}
	return true
}

// session defaults the session to the root's id and bounds a run's
// sessions.
func (a *delegations) session(w http.ResponseWriter, root *delegationRoot, session *string) bool {
	if *session == "" {
		*session = root.id
	}
	if !root.sessions[*session] && len(root.sessions) >= MaxDelegationSessions {
		writeError(w, http.StatusTooManyRequests, "too_many_sessions", "the run already keeps its limit of sessions; block the call")
		return false
	}
	root.sessions[*session] = true
	return true
}

// clock is the server's time for a call of root's tree: the local minute
// of the day and the seconds since the root was created.
func (a *delegations) clock(root *delegationRoot) (minute int, at float64) {
	now := a.now()
	return now.Hour()*60 + now.Minute(), max(0, now.Sub(root.started).Seconds())
}

// answer writes a decision, its policy named by this API's ids. A fault is
// a 500: the host must block the call.
func (a *delegations) answer(w http.ResponseWriter, e *delegationEntry, d delegate.CeilingDecision, err error) {
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal_error", err.Error()+" (block the call)")
		return
	}
	if name, ok := e.root.names[d.Policy]; ok {
		d.Policy = name
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": d})
}

// decodePolicy decodes a delegation policy document, or writes 400.
func decodePolicy(w http.ResponseWriter, raw json.RawMessage) (*delegation.Policy, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		writeError(w, http.StatusBadRequest, "invalid_parameter", `want "policy": a delegation policy object`)
		return nil, false
	}
	if len(raw) > MaxDelegationPolicy {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", "a delegation policy is at most 64 KiB")
		return nil, false
	}
	p, err := delegation.Decode("policy", raw)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_policy", err.Error())
		return nil, false
	}
	return p, true
}

func newDelegationID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "d-" + hex.EncodeToString(b[:]), nil
}
