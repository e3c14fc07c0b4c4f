package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// fakeModel is the scripted model every wire format shares: the first
// request that offers tools gets the scenario's first tool call, and each
// request that carries the result of the last call made gets the next one
// (a scenario is one call, or a read and then an edit); once the script is
// done, a closing text. The results are kept for the test to read; a
// request without tools (titles, classifiers) gets plain text.
type fakeModel struct {
	pick func(offered []string) ([]wireCall, error)

	mu       sync.Mutex
	requests []string    // "+SECONDS METHOD PATH", in order
	script   []wireCall  // picked at the first request that offers tools
	results  []string    // the tool results the host sent back, in call order
	calls    int         // tool calls made
	callAt   []time.Time // when each call was sent
	resultAt []time.Time // when each call's result came back
	problems []string    // what went wrong on the fake's side
	// declared is what the host offered in the first request that offered
	// tools: each tool's name and the top-level fields of its parameters.
	declared map[string][]string
}

// noteTools keeps the tools of the first request that offers any.
func (m *fakeModel) noteTools(tools []map[string]any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.declared == nil && len(tools) > 0 {
		m.declared = declaredTools(tools)
	}
}

// declaredTools reads a request's tools in every wire format the fakes
// speak (Anthropic's name and input_schema, OpenAI chat's function,
// Responses' name and parameters, Gemini's functionDeclarations): each
// named tool and the sorted top-level fields of its parameters.
func declaredTools(tools []map[string]any) map[string][]string {
	out := map[string][]string{}
	add := func(name any, schemas ...any) {
		n, ok := name.(string)
		if !ok || n == "" {
			return
		}
		var fields []string
		for _, s := range schemas {
			if sm, ok := s.(map[string]any); ok {
				if props, ok := sm["properties"].(map[string]any); ok {
					for k := range props {
						fields = append(fields, k)
					}
				}
			}
		}
		slices.Sort(fields)
		out[n] = fields
	}
	for _, t := range tools {
		add(t["name"], t["input_schema"], t["parameters"])
		if f, ok := t["function"].(map[string]any); ok {
			add(f["name"], f["parameters"])
		}
		if decls, ok := t["functionDeclarations"].([]any); ok {
			for _, d := range decls {
				if dm, ok := d.(map[string]any); ok {
					add(dm["name"], dm["parameters"], dm["parametersJsonSchema"])
				}
			}
		}
	}
	return out
}

// wireCall is a tool call in the host's own terms.
type wireCall struct {
	name  string         // the tool's name as the host offered it
	args  map[string]any // its input (a JSON object)
	input string         // Codex custom tools: the raw input instead of args
}

// nextCall is the tool call for a request that offers tools and carries
// answered results, or false when there is none: the script is done, or
// the host asks again without the last call's result (something is wrong:
// it gets text then, ending the run).
func (m *fakeModel) nextCall(offered []string, answered int) (wireCall, bool) {
	c, ok, err := m.tryCall(offered, answered)
	if err != nil {
		m.problem("%v", err)
	}
	return c, ok
}

// tryCall is nextCall for a wire that can recover when the tool is not
// offered yet (Codex: search for it first); the error is not recorded.
func (m *fakeModel) tryCall(offered []string, answered int) (wireCall, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(offered) == 0 || answered != m.calls {
		return wireCall{}, false, nil
	}
	if m.script == nil {
		script, err := m.pick(offered)
		if err != nil {
			return wireCall{}, false, err
		}
		m.script = script
	}
	if m.calls >= len(m.script) {
		return wireCall{}, false, nil
	}
	m.calls++
	m.callAt = append(m.callAt, time.Now())
	return m.script[m.calls-1], true, nil
}

// sawResults keeps the tool results of a request, which carries the whole
// conversation: the longest list seen is the run's.
func (m *fakeModel) sawResults(results []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(results) > len(m.results) {
		for range len(results) - len(m.results) {
			m.resultAt = append(m.resultAt, time.Now())
		}
		m.results = append([]string(nil), results...)
	}
}

func (m *fakeModel) problem(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.problems = append(m.problems, fmt.Sprintf(format, args...))
}

// turnaround is how long the host took from receiving the first tool call
// to sending its result: the hook's decision and the tool's run, without
// the host's start-up; false when there was no result.
func (m *fakeModel) turnaround() (time.Duration, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.callAt) == 0 || len(m.resultAt) == 0 {
		return 0, false
	}
	return m.resultAt[0].Sub(m.callAt[0]), true
}

// madeCalls names the tool calls made, in the host's terms.
func (m *fakeModel) madeCalls() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for _, c := range m.script[:m.calls] {
		names = append(names, c.name)
	}
	return names
}

func (m *fakeModel) toolResults() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.results...)
}

func (m *fakeModel) failure() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.problems, "; ")
}

func (m *fakeModel) summary() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return fmt.Sprintf("requests %q, tool calls %d, results %q, problems %q", m.requests, m.calls, m.results, m.problems)
}

// logged records each request's method and path before h serves it.
func (m *fakeModel) logged(h http.Handler) http.Handler {
	start := time.Now()
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		m.mu.Lock()
		m.requests = append(m.requests, fmt.Sprintf("+%.1fs %s %s", time.Since(start).Seconds(), req.Method, req.URL.Path))
		m.mu.Unlock()
		h.ServeHTTP(w, req)
	})
}

// readJSON decodes a request body into v; a body that is not JSON is a
// problem of the test, reported, and answered 400.
func (m *fakeModel) readJSON(w http.ResponseWriter, req *http.Request, v any) bool {
	body, err := io.ReadAll(req.Body)
	if err == nil {
		err = json.Unmarshal(body, v)
	}
	if err != nil {
		m.problem("%s %s: body is not JSON: %v", req.Method, req.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// sse writes server-sent events, flushing after each.
type sse struct {
	w http.ResponseWriter
}

func startSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w: w}
}

// event writes one event; an empty name writes a data-only event.
func (s sse) event(name string, data any) {
	var b bytes.Buffer
	if name != "" {
		fmt.Fprintf(&b, "event: %s\n", name)
	}
	payload, _ := json.Marshal(data)
	fmt.Fprintf(&b, "data: %s\n\n", payload)
	_, _ = s.w.Write(b.Bytes())
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s sse) raw(text string) {
	_, _ = io.WriteString(s.w, text)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// textOf flattens a tool result's content: a string, or a list of parts
// with "text" (Anthropic, OpenAI), or any other JSON, as JSON.
func textOf(v any) string {
	switch c := v.(type) {
	case nil:
		return ""
	case string:
		return c
	case []any:
		var parts []string
		for _, p := range c {
			parts = append(parts, textOf(p))
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		if t, ok := c["text"].(string); ok {
			return t
		}
	}
	data, _ := json.Marshal(v)
	return string(data)
}

// finalText is what the fake model says once it has seen the result.
const finalText = "Done."

// offeredNames lists the tool names a request offers: entries with "name",
// or with "function": {"name"} (OpenAI chat), or "functionDeclarations"
// (Gemini).
func offeredNames(tools []map[string]any) []string {
	var names []string
	for _, t := range tools {
		if n, ok := t["name"].(string); ok {
			names = append(names, n)
		}
		if f, ok := t["function"].(map[string]any); ok {
			if n, ok := f["name"].(string); ok {
				names = append(names, n)
			}
		}
		if decls, ok := t["functionDeclarations"].([]any); ok {
			for _, d := range decls {
				if dm, ok := d.(map[string]any); ok {
					if n, ok := dm["name"].(string); ok {
						names = append(names, n)
					}
				}
			}
		}
	}
	return names
}

// offeredMCP finds the host's name for one of the fake MCP server's tools
// among the offered names: hosts prefix it with the server ("mcp__fake__",
// "mcp_fake_", "fake_", "fake-").
func offeredMCP(offered []string, tool string) (string, error) {
	for _, n := range offered {
		if strings.HasSuffix(n, tool) && strings.Contains(n, "fake") {
			rest := strings.TrimSuffix(n, tool)
			if rest != "" && !strings.HasSuffix(rest, "denied") { // "touch" is a suffix of "touch_denied" too
				if strings.HasSuffix(rest, "_") || strings.HasSuffix(rest, "-") || strings.HasSuffix(rest, "/") {
					return n, nil
				}
			}
		}
	}
	return "", fmt.Errorf("the host did not offer the fake MCP server's tool %q; it offered %q", tool, offered)
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // only the fakes' own maps come here
	}
	return string(data)
}
