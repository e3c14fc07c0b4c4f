package autoreview

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// completion is a recorded chat completion.
func completion(finish, content string, calls ...[2]string) string {
	var tc []map[string]any
	for _, c := range calls {
		tc = append(tc, map[string]any{"type": "function", "function": map[string]any{"name": c[0], "arguments": c[1]}})
	}
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{
		"finish_reason": finish, "message": map[string]any{"role": "assistant", "content": content, "tool_calls": tc}}}})
	return string(b)
}

// TestOpenAIAgainstAFakeServer: the provider against recorded replies on a
// loopback server the test starts; no test reaches the network.
func TestOpenAIAgainstAFakeServer(t *testing.T) {
	for _, c := range []struct {
		name     string
		replies  []string // one per request; "500" is a server error, "slow" sleeps past the budget
		action   string
		outcome  string
		attempts int
	}{
		{"approve", []string{completion("tool_calls", "", [2]string{"approve", `{"reason":"asked for"}`})}, "allow", Approve, 1},
		{"reject", []string{completion("tool_calls", "", [2]string{"reject", `{"reason":"not asked for"}`})}, "defer", Reject, 1},
		{"prose", []string{completion("stop", `{"approve": true}`)}, "defer", NoVerdict, 1},
		{"two calls", []string{completion("tool_calls", "", [2]string{"approve", `{"reason":"a"}`}, [2]string{"reject", `{"reason":"b"}`})}, "defer", InvalidResponse, 1},
		{"truncated", []string{completion("length", "", [2]string{"approve", `{"rea`})}, "defer", Truncated, 1},
		{"5xx then success", []string{"500", completion("tool_calls", "", [2]string{"approve", `{"reason":"ok"}`})}, "allow", Approve, 2},
		{"slow past the budget", []string{"slow"}, "defer", Timeout, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req chatRequest
				if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Tools) != 2 || req.Model != "judge" || r.Header.Get("Authorization") != "Bearer k" {
					http.Error(w, fmt.Sprintf("bad request %+v %v", req, err), http.StatusBadRequest)
					return
				}
				i := int(n.Add(1)) - 1
				reply := c.replies[min(i, len(c.replies)-1)]
				switch reply {
				case "500":
					http.Error(w, "overloaded", http.StatusInternalServerError)
				case "slow":
					select {
					case <-time.After(2 * time.Second):
					case <-r.Context().Done():
					}
				default:
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprint(w, reply)
				}
			}))
			defer srv.Close()
			r := New(Config{Provider: OpenAI{BaseURL: srv.URL, APIKey: "k"}, Model: "judge", Timeout: 300 * time.Millisecond, MaxAttempts: 2})
			v, res := r.Review(context.Background(), askFor("m1", "make deploy"))
			if v.Action != c.action || res.Outcome != c.outcome || res.Attempts != c.attempts {
				t.Errorf("verdict %+v result %+v; want %s %s after %d attempts", v, res, c.action, c.outcome, c.attempts)
			}
		})
	}
}
