package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/internal/testkit/conformance"
	"github.com/regate/regate/runtime/delegate"
)

// fakeClock is the delegation API's clock in tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// delegationServer serves the delegation routes behind the guard, with a
// token and the fake clock.
func delegationServer(t testing.TB, clock *fakeClock) *httptest.Server {
	t.Helper()
	return delegationServerWith(t, newDelegations(clock.Now))
}

func delegationServerWith(t testing.TB, a *delegations) *httptest.Server {
	t.Helper()
	s := &Server{cfg: Config{Token: "tok"}}
	mux := http.NewServeMux()
	a.routes(mux)
	ts := httptest.NewServer(s.guard(mux))
	t.Cleanup(ts.Close)
	return ts
}

// postJSON posts body to path with the token; it returns the status and
// the decoded answer.
func postJSON(ctx context.Context, ts *httptest.Server, path string, body any) (int, map[string]any, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+path, bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := ts.Client().Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, out, nil
}

// serveDecider runs ceiling calls through regate serve's delegation
// endpoints: a root per outermost policy, a child per path and agent (the
// case's child, or ProvenChild's completion, as the Go API path does), a
// decision per call at the fake clock's time.
type serveDecider struct {
	ts      *httptest.Server
	clock   *fakeClock
	raw     map[string]json.RawMessage
	windows bool // a policy has time windows: a call's minute must be exact

	base     time.Time
	policies map[string]*delegation.Policy
	roots    map[string]string // policy name → root id
	runs     map[string]string // path and agent → child id
	proven   map[string]*delegation.Policy
	names    map[string]string // the API's ids → the case's names
	pending  map[string]string // escalation → the child id it is pending in
}

// newServeDecider is a conformance.NewChainDecider over ts.
func newServeDecider(ts *httptest.Server, clock *fakeClock) conformance.NewChainDecider {
	return func(_ context.Context, id string, raw map[string]json.RawMessage) (conformance.ChainDecider, error) {
		d := &serveDecider{
			ts: ts, clock: clock, raw: maps.Clone(raw), policies: map[string]*delegation.Policy{}, roots: map[string]string{},
			runs: map[string]string{}, proven: map[string]*delegation.Policy{}, names: map[string]string{}, pending: map[string]string{},
		}
		for name, r := range raw {
			p, err := delegation.Decode(id+"/"+name, r)
			if err != nil {
				return nil, err
			}
			d.policies[name] = p
			d.windows = d.windows || len(p.TimeRestrictions) > 0
		}
		return d, nil
	}
}

// begin fixes, at the first call, when the case's runs began (so that a
// call's time since then is its At) and sets the clock there, for the
// roots created before the call.
func (d *serveDecider) begin(minute int, at float64) {
	if d.base.IsZero() {
		day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
		d.base = day.Add(time.Duration(minute)*time.Minute - time.Duration(at*float64(time.Second)))
		d.clock.set(d.base)
	}
}

// at sets the clock to the call's time.
func (d *serveDecider) at(minute int, at float64) error {
	d.begin(minute, at)
	now := d.base.Add(time.Duration(at * float64(time.Second)))
	if got := now.Hour()*60 + now.Minute(); d.windows && got != minute {
		return fmt.Errorf("the serve path cannot put a call at minute %d and %gs into the run (the clock says minute %d)", minute, at, got)
	}
	d.clock.set(now)
	return nil
}

func (d *serveDecider) root(ctx context.Context, name string) (string, error) {
	if id, ok := d.roots[name]; ok {
		return id, nil
	}
	id, err := d.create(ctx, map[string]any{"policy": d.raw[name]})
	if err != nil {
		return "", err
	}
	d.roots[name], d.names[id] = id, name
	return id, nil
}

func (d *serveDecider) create(ctx context.Context, body map[string]any) (string, error) {
	status, out, err := postJSON(ctx, d.ts, "/v1/delegations", body)
	if err != nil {
		return "", err
	}
	if status != http.StatusOK {
		return "", fmt.Errorf("POST /v1/delegations: %d %v", status, out)
	}
	id, _ := out["id"].(string)
	return id, nil
}

func (d *serveDecider) child(ctx context.Context, chain []string, agent string) (string, error) {
	if len(chain) < 2 {
		return "", fmt.Errorf("a chain of %d policies delegates nothing", len(chain))
	}
	key := strings.Join(chain, "\x00") + "\x01" + agent
	if id, ok := d.runs[key]; ok {
		return id, nil
	}
	parentID, err := d.root(ctx, chain[0])
	if err != nil {
		return "", err
	}
	parent := d.policies[chain[0]]
	if len(chain) > 2 {
		if parentID, err = d.child(ctx, chain[:len(chain)-1], chain[len(chain)-2]); err != nil {
			return "", err
		}
		parent = d.proven[strings.Join(chain[:len(chain)-1], "\x00")]
	}
	policy := conformance.ProvenChild(d.policies[chain[len(chain)-1]], parent)
	d.proven[strings.Join(chain, "\x00")] = policy
	id, err := d.create(ctx, map[string]any{"parent": parentID, "policy": policy, "agent_id": agent})
	if err != nil {
		return "", err
	}
	d.runs[key], d.names[id] = id, chain[len(chain)-1]
	return id, nil
}

func (d *serveDecider) Decide(ctx context.Context, call delegate.CeilingCall) (delegate.CeilingDecision, error) {
	d.begin(call.Minute, call.At)
	id, err := d.child(ctx, call.Chain, call.Agent)
	if err != nil {
		return delegate.CeilingDecision{}, err
	}
	body := map[string]any{
		"tool": call.Tool, "roles": call.Roles, "session": call.Session,
		"untrusted_prior": call.UntrustedPrior, "authorized_once": call.AuthorizedOnce,
	}
	if call.ToolPolicy != "" {
		if body["tool_policy"], err = d.root(ctx, call.ToolPolicy); err != nil {
			return delegate.CeilingDecision{}, err
		}
	}
	if err := d.at(call.Minute, call.At); err != nil {
		return delegate.CeilingDecision{}, err
	}
	return d.decision(ctx, id, "/decision", body)
}

func (d *serveDecider) Approve(ctx context.Context, escalation, approver string, minute int, at float64) (delegate.CeilingDecision, error) {
	id, ok := d.pending[escalation]
	if !ok {
		return delegate.CeilingDecision{Decision: "deny", Violation: "not_pending"}, nil
	}
	delete(d.pending, escalation)
	if err := d.at(minute, at); err != nil {
		return delegate.CeilingDecision{}, err
	}
	return d.decision(ctx, id, "/approvals", map[string]any{"escalation": escalation, "approver": approver})
}

func (d *serveDecider) Replace(ctx context.Context, name string, policy json.RawMessage) error {
	id, err := d.root(ctx, name)
	if err != nil {
		return err
	}
	status, out, err := postJSON(ctx, d.ts, "/v1/delegations/"+id+"/policy", map[string]any{"policy": policy})
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("replace %s: %d %v", name, status, out)
	}
	return err
}

// decision posts to a child's route and reads the decision, its policy
// named by the case's names.
func (d *serveDecider) decision(ctx context.Context, id, route string, body any) (delegate.CeilingDecision, error) {
	status, out, err := postJSON(ctx, d.ts, "/v1/delegations/"+id+route, body)
	if err != nil {
		return delegate.CeilingDecision{}, err
	}
	if status != http.StatusOK {
		return delegate.CeilingDecision{}, fmt.Errorf("%s: %d %v", route, status, out)
	}
	b, _ := json.Marshal(out["result"])
	var dec delegate.CeilingDecision
	if err := json.Unmarshal(b, &dec); err != nil {
		return dec, err
	}
	if dec.Escalation != "" {
		d.pending[dec.Escalation] = id
	}
	if name, ok := d.names[dec.Policy]; ok {
		dec.Policy = name
	}
	return dec, nil
}

// TestDelegationCeilingCasesThroughServe runs every ceiling case of the
// delegation suite through the delegation endpoints, behind the guard:
// serve must reach every expected decision, as the Rego ceiling and the Go
// API do (internal/testkit/conformance).
func TestDelegationCeilingCasesThroughServe(t *testing.T) {
	src, err := readCorpus("delegation.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{}
	ts := delegationServer(t, clock)
	rs, err := conformance.RunCeiling(context.Background(), "delegation.jsonl", src, newServeDecider(ts, clock))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if !r.Passed {
			t.Errorf("%s", r.Line())
		}
	}
	if len(rs) < 46 || !slices.ContainsFunc(rs, func(r conformance.Result) bool { return r.ID == "ceiling-grandchild-checked-against-planner" }) {
		t.Errorf("%d ceiling cases ran; the suite holds 46", len(rs))
	}
}

func readCorpus(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("..", "testdata", "conformance", name))
}
