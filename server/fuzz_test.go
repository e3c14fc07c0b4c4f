package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/server"
)

// FuzzRequest sends any body to the decision and approval endpoints: never
// a panic; a 200 carries a decision that is allow, ask or deny; anything
// else carries no result (the host blocks); approvals answer 204, 400, or
// 403 for a pattern no ask of the session showed.
func FuzzRequest(f *testing.F) {
	for _, c := range workload.Calls(workload.Seed, 50) {
		b, _ := json.Marshal(map[string]any{"input": c})
		f.Add(string(b))
	}
	for _, s := range []string{``, `{}`, `{"input": null}`, `{"input": {"tool": 7}}`, `{"surface": "bash", "pattern": "make"}`,
		`{"input": {"tool": "bash", "input": {"command": "ls"}, "session": "s1", "cwd": "relative"}}`, `[`, `{"input": {}} trailing`} {
		f.Add(s)
	}
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "default.jsonc", Data: policies.Default()}}, compiler.WithHome("/home/u"))
	if err != nil {
		f.Fatal(err)
	}
	s, err := server.New(server.Config{Initial: out, Compile: func() (*compiler.Output, error) { return out, nil }, Cwd: "/repo"})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	var sessions atomic.Int64
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, jsonRequest("/v1/data/regate/decision", body))
		var resp map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &resp)
		r, _ := resp["result"].(map[string]any)
		if rec.Code == http.StatusOK {
			switch r["action"] {
			case "allow", "ask", "deny":
			default:
				t.Fatalf("%q: 200 with result %v", body, resp)
			}
		} else if r != nil {
			t.Fatalf("%q: status %d with a result %v", body, rec.Code, r)
		}
		// A session of its own for the approval, so that approvals do not
		// pile up in one session over a long run (the server bounds its
		// sessions); the session is asked about make first, so that the
		// seed approving it is taken.
		session := fmt.Sprintf("fuzz-%d", sessions.Add(1))
		h.ServeHTTP(httptest.NewRecorder(), jsonRequest("/v1/data/regate/decision", `{"input": {"tool": "bash", "input": {"command": "make"}, "session": "`+session+`"}}`))
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, jsonRequest("/v1/sessions/"+session+"/approvals", body))
		if rec.Code != http.StatusNoContent && rec.Code != http.StatusBadRequest && rec.Code != http.StatusForbidden {
			t.Fatalf("%q: approvals answered %d", body, rec.Code)
		}
	})
}

func jsonRequest(path, body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}
