package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// anthropicWire serves the Anthropic Messages API as Claude Code calls it:
// POST /v1/messages, streamed as server-sent events; any other path
// (HEAD /, telemetry) gets {}.
func anthropicWire(m *fakeModel) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/v1/messages") {
			writeJSON(w, map[string]any{})
			return
		}
		var body struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			Tools []map[string]any `json:"tools"`
		}
		if !m.readJSON(w, req, &body) {
			return
		}
		m.noteTools(body.Tools)
		var results []string
		for _, msg := range body.Messages {
			var blocks []map[string]any
			if json.Unmarshal(msg.Content, &blocks) != nil {
				continue // a plain string
			}
			for _, b := range blocks {
				if b["type"] == "tool_result" {
					results = append(results, textOf(b["content"]))
				}
			}
		}
		var block map[string]any
		stop := "end_turn"
		var input string
		m.sawResults(results)
		if c, ok := m.nextCall(offeredNames(body.Tools), len(results)); ok {
			args, _ := json.Marshal(c.args)
			input = string(args)
			block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_e2e_%d", len(results)), "name": c.name, "input": map[string]any{}}
			stop = "tool_use"
		} else {
			block = map[string]any{"type": "text", "text": ""}
		}
		message := map[string]any{
			"id": "msg_e2e", "type": "message", "role": "assistant", "model": body.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
		}
		if !body.Stream {
			if stop == "tool_use" {
				var args map[string]any
				_ = json.Unmarshal([]byte(input), &args)
				block["input"] = args
			} else {
				block["text"] = finalText
			}
			message["content"] = []any{block}
			message["stop_reason"] = stop
			writeJSON(w, message)
			return
		}
		s := startSSE(w)
		s.event("message_start", map[string]any{"type": "message_start", "message": message})
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
		if stop == "tool_use" {
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": input}})
		} else {
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": finalText}})
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		s.event("message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		s.event("message_stop", map[string]any{"type": "message_stop"})
	})
}

// pickClaude maps a scenario's call to Claude Code's tools.
func pickClaude(r *hostRun, c toolCall, offered []string) (wireCall, error) {
	switch c.kind {
	case callBash:
		return wireCall{name: "Bash", args: map[string]any{"command": c.command, "description": "e2e"}}, nil
	case callMCP:
		name, err := offeredMCP(offered, c.tool)
		return wireCall{name: name, args: map[string]any{"name": c.file}}, err
	case callWrite:
		return wireCall{name: "Write", args: map[string]any{"file_path": r.work + "/" + c.file, "content": c.content}}, nil
	}
	return wireCall{}, fmt.Errorf("claude: no tool for %q", c.kind)
}
