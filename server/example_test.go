package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/server"
)

// examplePost sends body to the server as a host does: JSON, with the token.
func examplePost(ts *httptest.Server, path, token, body string) (int, string) {
	req, err := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		panic(err)
	}
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// A host POSTs a call and gets the decision back as data, shaped like
// OPA's Data API; an ask the session was shown can then be approved for
// the rest of the session. Every other status is a fault the host must
// treat as a block.
func Example() {
	policy := []byte(`{"permission": {"*": "ask", "bash": {"*": "ask", "git status": "allow", "rm -rf *": "deny"}}}`)
	s, err := server.New(server.Config{
		Compile: func() (*compiler.Output, error) {
			return compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: policy}}, compiler.WithHome("/home/u"))
		},
		Token: "secret",
		Cwd:   "/home/u/repo",
	})
	if err != nil {
		panic(err) // no policy to serve
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	decide := func(command string) {
		code, body := examplePost(ts, "/v1/data/regate/decision", "secret",
			fmt.Sprintf(`{"input": {"tool": "bash", "input": {"command": %q}, "session": "s1"}}`, command))
		var out struct {
			Result struct {
				Action  string `json:"action"`
				Matched string `json:"matched"`
				Layer   string `json:"layer"`
			} `json:"result"`
			DecisionID string `json:"decision_id"`
		}
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			panic(err)
		}
		fmt.Printf("%d %s: %s by %q (%s), has an id: %v\n", code, command, out.Result.Action, out.Result.Matched, out.Result.Layer, out.DecisionID != "")
	}
	decide("git status")
	decide("git status && rm -rf build")
	decide("make")

	code, _ := examplePost(ts, "/v1/sessions/s1/approvals", "secret", `{"surface": "bash", "pattern": "make"}`)
	fmt.Println("approve make:", code)
	decide("make")

	code, body := examplePost(ts, "/v1/data/regate/decision", "", `{"input": {"tool": "bash", "input": {"command": "make"}}}`)
	fmt.Println(code, body)
	code, body = examplePost(ts, "/v1/data/regate/decision", "secret", `{"input": {}}`)
	fmt.Println(code, body)
	// Output:
	// 200 git status: allow by "git status" (policy), has an id: true
	// 200 git status && rm -rf build: deny by "rm -rf *" (policy), has an id: true
	// 200 make: ask by "*" (policy), has an id: true
	// approve make: 204
	// 200 make: allow by "make" (session), has an id: true
	// 401 {"code":"unauthorized","message":"[regate] a token is required, as \"Authorization: Bearer TOKEN\""}
	// 400 {"code":"invalid_parameter","message":"[regate] want {\"input\": {\"tool\": …, \"input\": {…}}}"}
}
