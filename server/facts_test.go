package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/stockopa"
	"github.com/regate/regate/server"
)

// postJSON posts body as JSON and decodes the answer.
func postJSON(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestInputDocument: the input endpoint's document carries the session's
// approvals and the call's working directory, and stock OPA (the bundle,
// evaluated by OPA's rego package) decides it as the decision endpoint
// decides the same call.
func TestInputDocument(t *testing.T) {
	_, path, ts := newServer(t, policy, "")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: path, Data: src}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	// serve takes an approval only of a value the session was asked about.
	if code, _ := postJSON(t, ts.URL+"/v1/data/regate/decision", `{"input": {"tool": "bash", "input": {"command": "make deploy"}, "session": "s1"}}`); code != http.StatusOK {
		t.Fatalf("decide: %d", code)
	}
	if code, _ := postJSON(t, ts.URL+"/v1/sessions/s1/approvals", `{"surface": "bash", "pattern": "make deploy"}`); code != http.StatusNoContent {
		t.Fatalf("approve: %d", code)
	}
	for _, tc := range []struct {
		name, call string
		want       string // the action
		approvals  bool   // the document carries approvals
		value      string // the first check's value
		form       string // one of its forms, when set
	}{
		{name: "an approved call", call: `{"tool": "bash", "input": {"command": "make deploy"}, "session": "s1"}`, want: "allow", approvals: true, value: "make deploy"},
		{name: "another session", call: `{"tool": "bash", "input": {"command": "make deploy"}, "session": "s2"}`, want: "ask", value: "make deploy"},
		{name: "no session", call: `{"tool": "bash", "input": {"command": "make deploy"}}`, want: "ask", value: "make deploy"},
		{name: "a denied unit", call: `{"tool": "bash", "input": {"command": "make deploy && rm -rf x"}, "session": "s1"}`, want: "deny", approvals: true, value: "make deploy"},
		{name: "the call's cwd", call: `{"tool": "read", "input": {"path": "a.txt"}, "session": "s1", "cwd": "/work"}`, want: "ask", approvals: true, value: "a.txt", form: "/work/a.txt"},
		{name: "the server's cwd", call: `{"tool": "read", "input": {"path": "a.txt"}}`, want: "ask", value: "a.txt", form: "/repo/a.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, doc := postJSON(t, ts.URL+server.InputPath, `{"input": `+tc.call+`}`)
			if code != http.StatusOK || doc["result"] == nil {
				t.Fatalf("input: %d %v", code, doc)
			}
			in, _ := doc["result"].(map[string]any)
			session, _ := in["session"].(map[string]any)
			approvals, _ := session["approvals"].(map[string]any)
			if (len(approvals) > 0) != tc.approvals {
				t.Errorf("session member %v; want approvals: %v", session, tc.approvals)
			}
			checks, _ := in["checks"].([]any)
			first, _ := checks[0].(map[string]any)
			forms, _ := json.Marshal(first["forms"])
			if first["value"] != tc.value || (tc.form != "" && !strings.Contains(string(forms), `"`+tc.form+`"`)) {
				t.Errorf("first check %v; want the value %q and the form %q", first, tc.value, tc.form)
			}
			got, err := stockopa.Eval(context.Background(), out, "regate/lib/permission/decision", in)
			if err != nil {
				t.Fatal(err)
			}
			_, decided := postJSON(t, ts.URL+"/v1/data/regate/decision", `{"input": `+tc.call+`}`)
			g, _ := got.(map[string]any)
			d, _ := decided["result"].(map[string]any)
			if d["action"] != tc.want || g["action"] != d["action"] || g["matched"] != d["matched"] || g["layer"] != d["layer"] {
				t.Errorf("stock OPA decided %v; regate serve %v; want %s", g, d, tc.want)
			}
		})
	}
	for _, bad := range []string{`{`, `{"input": {}}`, `{"input": {"tool": "bash"}} {}`} {
		if code, out := postJSON(t, ts.URL+server.InputPath, bad); code != http.StatusBadRequest || out["code"] != "invalid_parameter" {
			t.Errorf("%q: %d %v", bad, code, out)
		}
	}
}
