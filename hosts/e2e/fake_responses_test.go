package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// responsesWire serves the OpenAI Responses API as Codex calls it: POST
// /v1/responses, streamed as server-sent events (response.created, one
// response.output_item.done, response.completed); any other path gets {}.
func responsesWire(m *fakeModel) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/responses") {
			writeJSON(w, map[string]any{})
			return
		}
		var body struct {
			Model string           `json:"model"`
			Input []map[string]any `json:"input"`
			Tools []map[string]any `json:"tools"`
		}
		if !m.readJSON(w, req, &body) {
			return
		}
		m.noteTools(body.Tools)
		var results []string
		offered := offeredNames(body.Tools)
		spaces := map[string][2]string{} // a searched-for tool's full name -> its namespace and name
		searchable, searched := false, false
		for _, t := range body.Tools {
			searchable = searchable || t["type"] == "tool_search"
		}
		for _, item := range body.Input {
			switch item["type"] {
			case "function_call_output", "custom_tool_call_output", "mcp_tool_call_output":
				results = append(results, textOf(item["output"]))
			case "tool_search_output":
				// Codex 0.171 defers MCP tools: tool_search returns them as
				// namespaces {"type":"namespace","name":"mcp__fake","tools":
				// [{"name":"touch",…}]}, called as namespace + name.
				searched = true
				tools, _ := item["tools"].([]any)
				for _, t := range tools {
					ns, _ := t.(map[string]any)
					space, _ := ns["name"].(string)
					inner, _ := ns["tools"].([]any)
					for _, it := range inner {
						f, _ := it.(map[string]any)
						if name, ok := f["name"].(string); ok {
							offered = append(offered, space+"__"+name)
							spaces[space+"__"+name] = [2]string{space, name}
						}
					}
				}
			}
		}
		item := map[string]any{"type": "message", "role": "assistant", "id": "msg_e2e",
			"content": []any{map[string]any{"type": "output_text", "text": finalText, "annotations": []any{}}}}
		m.sawResults(results)
		{
			c, ok, err := m.tryCall(offered, len(results))
			switch {
			case ok && c.args != nil:
				args, _ := json.Marshal(c.args)
				item = map[string]any{"type": "function_call", "id": "fc_e2e", "call_id": fmt.Sprintf("call_e2e_%d", len(results)), "name": c.name, "arguments": string(args)}
				if space, ok := spaces[c.name]; ok {
					item["namespace"], item["name"] = space[0], space[1]
				}
			case ok:
				item = map[string]any{"type": "custom_tool_call", "id": "ctc_e2e", "call_id": fmt.Sprintf("call_e2e_%d", len(results)), "name": c.name, "input": c.input}
			case err != nil && searchable && !searched:
				item = map[string]any{"type": "tool_search_call", "id": "ts_e2e", "call_id": "search_e2e", "execution": "client",
					"status": "completed", "arguments": map[string]any{"query": "fake touch", "limit": 8}}
			case err != nil:
				m.problem("%v", err)
			}
		}
		response := map[string]any{"id": "resp_e2e", "object": "response", "model": body.Model, "status": "in_progress", "output": []any{}}
		s := startSSE(w)
		s.event("response.created", map[string]any{"type": "response.created", "response": response})
		s.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		response["status"] = "completed"
		response["output"] = []any{item}
		response["usage"] = map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
		s.event("response.completed", map[string]any{"type": "response.completed", "response": response})
	})
}

// pickCodex maps a scenario's call to Codex's tools: exec_command (or the
// older shell), the MCP tool by the name Codex offers, and the apply_patch
// custom tool for a write.
func pickCodex(r *hostRun, c toolCall, offered []string) (wireCall, error) {
	switch c.kind {
	case callBash:
		if slices.Contains(offered, "exec_command") {
			return wireCall{name: "exec_command", args: map[string]any{"cmd": c.command}}, nil
		}
		if slices.Contains(offered, "shell") {
			return wireCall{name: "shell", args: map[string]any{"command": []string{"bash", "-lc", c.command}}}, nil
		}
		return wireCall{}, fmt.Errorf("codex offered no shell tool: %q", offered)
	case callMCP:
		name, err := offeredMCP(offered, c.tool)
		return wireCall{name: name, args: map[string]any{"name": c.file}}, err
	case callWrite:
		if !slices.Contains(offered, "apply_patch") {
			return wireCall{}, fmt.Errorf("codex offered no apply_patch tool: %q", offered)
		}
		var patch strings.Builder
		patch.WriteString("*** Begin Patch\n*** Add File: " + c.file + "\n")
		for _, line := range strings.SplitAfter(strings.TrimSuffix(c.content, "\n"), "\n") {
			patch.WriteString("+" + strings.TrimSuffix(line, "\n") + "\n")
		}
		patch.WriteString("*** End Patch\n")
		return wireCall{name: "apply_patch", input: patch.String()}, nil
	}
	return wireCall{}, fmt.Errorf("codex: no tool for %q", c.kind)
}
