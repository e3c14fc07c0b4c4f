package e2e

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
)

// geminiWire serves the Gemini API as Gemini CLI calls it:
// :streamGenerateContent?alt=sse for the agent (data-only events, \r\n
// separated) and :generateContent for the model router's classifier (it
// wants a JSON text naming a model); any other path gets {}.
func geminiWire(m *fakeModel) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		path := req.URL.Path
		streaming := strings.HasSuffix(path, ":streamGenerateContent")
		if req.Method != http.MethodPost || !(streaming || strings.HasSuffix(path, ":generateContent")) {
			writeJSON(w, map[string]any{})
			return
		}
		var body struct {
			Contents []struct {
				Role  string           `json:"role"`
				Parts []map[string]any `json:"parts"`
			} `json:"contents"`
			Tools []map[string]any `json:"tools"`
		}
		if !m.readJSON(w, req, &body) {
			return
		}
		m.noteTools(body.Tools)
		usage := map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
		text := func(t string) map[string]any {
			return map[string]any{
				"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
					"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": t}}}}},
				"usageMetadata": usage,
			}
		}
		if !streaming {
			// Both routers' shapes: the classifier's and the numerical one's.
			writeJSON(w, text(`{"reasoning":"a scripted test","model_choice":"flash","complexity_reasoning":"a scripted test","complexity_score":10}`))
			return
		}
		var results []string
		for _, c := range body.Contents {
			for _, p := range c.Parts {
				if fr, ok := p["functionResponse"].(map[string]any); ok {
					results = append(results, textOf(fr["response"]))
				}
			}
		}
		m.sawResults(results)
		answer := text(finalText)
		{
			if c, ok := m.nextCall(offeredNames(body.Tools), len(results)); ok {
				answer = map[string]any{
					"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
						"content": map[string]any{"role": "model", "parts": []any{
							map[string]any{"functionCall": map[string]any{"name": c.name, "args": c.args}}}}}},
					"usageMetadata": usage,
				}
			}
		}
		s := startSSE(w)
		s.raw("data: " + mustJSON(answer) + "\r\n\r\n")
	})
}

// pickGemini maps a scenario's call to Gemini CLI's tools.
func pickGemini(r *hostRun, c toolCall, offered []string) (wireCall, error) {
	switch c.kind {
	case callBash:
		return wireCall{name: "run_shell_command", args: map[string]any{"command": c.command, "description": "e2e"}}, nil
	case callMCP:
		name, err := offeredMCP(offered, c.tool)
		return wireCall{name: name, args: map[string]any{"name": c.file}}, err
	case callWrite:
		return wireCall{name: "write_file", args: map[string]any{"file_path": filepath.Join(r.work, c.file), "content": c.content}}, nil
	}
	return wireCall{}, fmt.Errorf("gemini: no tool for %q", c.kind)
}
