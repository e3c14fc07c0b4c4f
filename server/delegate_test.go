package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestDelegationEndpoints drives the delegation routes through Handler():
// the guard, a root and a proven child, a refused child with its problems,
// a decision, and the errors a host can meet.
func TestDelegationEndpoints(t *testing.T) {
	_, _, ts := newServer(t, policy, "tok")
	code, root := post(t, ts, "/v1/delegations", `{"policy": {"allowed_tools": ["read_*"], "rate_limits": {"*": "1/hour"}}}`, "tok")
	rootID, _ := root["id"].(string)
	if code != http.StatusOK || !strings.HasPrefix(rootID, "d-") {
		t.Fatalf("root: %d %v", code, root)
	}
	code, child := post(t, ts, "/v1/delegations", `{"parent": "`+rootID+`", "agent_id": "r", "policy": {"allowed_tools": ["read_a"], "rate_limits": {"*": "1/hour"}}}`, "tok")
	childID, _ := child["id"].(string)
	if chain, _ := child["chain"].([]any); code != http.StatusOK || len(chain) != 2 || chain[0] != rootID || chain[1] != childID {
		t.Fatalf("child: %d %v", code, child)
	}
	decide := `/v1/delegations/` + childID + `/decision`
	for _, c := range []struct {
		name, path, body, token string
		code                    int
		want                    string // the error code, or the decision
	}{
		{"no token", decide, `{"tool": "read_a"}`, "", http.StatusUnauthorized, "unauthorized"},
		{"allowed", decide, `{"tool": "read_a"}`, "tok", http.StatusOK, "allow"},
		{"the planner's bucket is spent", decide, `{"tool": "read_a"}`, "tok", http.StatusOK, "deny"},
		{"not the child's tool", decide, `{"tool": "read_b"}`, "tok", http.StatusOK, "deny"},
		{"no tool", decide, `{}`, "tok", http.StatusBadRequest, "invalid_parameter"},
		{"wider child", "/v1/delegations", `{"parent": "` + rootID + `", "policy": {"allowed_tools": ["exec"]}}`, "tok", http.StatusConflict, "delegation_refused"},
		{"unknown parent", "/v1/delegations", `{"parent": "d-0", "policy": {}}`, "tok", http.StatusNotFound, "not_found"},
		{"bad policy", "/v1/delegations", `{"policy": {"rate_limits": {"*": 3}}}`, "tok", http.StatusBadRequest, "invalid_policy"},
		{"no policy", "/v1/delegations", `{}`, "tok", http.StatusBadRequest, "invalid_parameter"},
		{"a root decides nothing", "/v1/delegations/" + rootID + "/decision", `{"tool": "read_a"}`, "tok", http.StatusBadRequest, "not_delegated"},
		{"a child's policy is frozen", "/v1/delegations/" + childID + "/policy", `{"policy": {}}`, "tok", http.StatusConflict, "frozen"},
		{"not pending", "/v1/delegations/" + childID + "/approvals", `{"escalation": "x", "approver": "y"}`, "tok", http.StatusOK, "deny"},
		{"unknown", "/v1/delegations/d-0/decision", `{"tool": "read_a"}`, "tok", http.StatusNotFound, "not_found"},
	} {
		code, out := post(t, ts, c.path, c.body, c.token)
		got, _ := out["code"].(string)
		if r, ok := out["result"].(map[string]any); ok {
			got, _ = r["decision"].(string)
		}
		if code != c.code || got != c.want {
			t.Errorf("%s: %d %v; want %d %s", c.name, code, out, c.code, c.want)
		}
	}
	if _, out := post(t, ts, "/v1/delegations", `{"parent": "`+rootID+`", "policy": {"allowed_tools": ["exec"]}}`, "tok"); !strings.Contains(
		strings.Join(stringsOf(out["problems"]), "\n"), `allowed_tools: "exec" is not within the parent's ["read_*"]`) {
		t.Errorf("the refusal does not say what widens the child: %v", out)
	}
	// Ending the root ends its tree.
	if code, _ := post(t, ts, "/v1/delegations/"+rootID+"/exit", `{}`, "tok"); code != http.StatusOK {
		t.Fatalf("exit: %d", code)
	}
	if code, _ := post(t, ts, decide, `{"tool": "read_a"}`, "tok"); code != http.StatusNotFound {
		t.Errorf("a child of an ended root: %d; want 404", code)
	}
}

// TestDelegationNeedsJSON: the delegation routes take only a body declared
// JSON, as every POST of the API.
func TestDelegationNeedsJSON(t *testing.T) {
	_, _, ts := newServer(t, policy, "")
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/delegations", strings.NewReader(`{"policy": {}}`))
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("text/plain: %d; want 415", resp.StatusCode)
	}
}

func stringsOf(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}
