package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// chatWire serves OpenAI chat completions as Pi and OpenCode call them:
// POST /v1/chat/completions, streamed (a delta chunk, a finish chunk, a
// usage chunk, [DONE]) or not; a request without tools (OpenCode's title)
// gets text; any other path gets {}.
func chatWire(m *fakeModel) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions") {
			writeJSON(w, map[string]any{})
			return
		}
		var body struct {
			Model    string           `json:"model"`
			Stream   bool             `json:"stream"`
			Messages []map[string]any `json:"messages"`
			Tools    []map[string]any `json:"tools"`
		}
		if !m.readJSON(w, req, &body) {
			return
		}
		m.noteTools(body.Tools)
		var results []string
		for _, msg := range body.Messages {
			if msg["role"] == "tool" {
				results = append(results, textOf(msg["content"]))
			}
		}
		m.sawResults(results)
		delta := map[string]any{"role": "assistant", "content": finalText}
		finish := "stop"
		{
			if c, ok := m.nextCall(offeredNames(body.Tools), len(results)); ok {
				args, _ := json.Marshal(c.args)
				delta = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
					"index": 0, "id": fmt.Sprintf("call_e2e_%d", len(results)), "type": "function",
					"function": map[string]any{"name": c.name, "arguments": string(args)},
				}}}
				finish = "tool_calls"
			}
		}
		usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		base := func() map[string]any {
			return map[string]any{"id": "chatcmpl-e2e", "created": time.Now().Unix(), "model": body.Model}
		}
		if !body.Stream {
			out := base()
			out["object"] = "chat.completion"
			message := map[string]any{"role": "assistant", "content": delta["content"]}
			if tc, ok := delta["tool_calls"]; ok {
				message["tool_calls"] = tc
			}
			out["choices"] = []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}
			out["usage"] = usage
			writeJSON(w, out)
			return
		}
		s := startSSE(w)
		chunk := func(choices []any, usage any) map[string]any {
			c := base()
			c["object"] = "chat.completion.chunk"
			c["choices"] = choices
			if usage != nil {
				c["usage"] = usage
			}
			return c
		}
		s.event("", chunk([]any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}, nil))
		s.event("", chunk([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, nil))
		s.event("", chunk([]any{}, usage))
		s.raw("data: [DONE]\n\n")
	})
}
