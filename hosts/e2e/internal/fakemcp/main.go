// Command fakemcp is the stdio MCP server regate's end-to-end tests
// configure in each host: its tools "touch" and "touch_denied" create, in
// the folder named by its one argument (else its working directory), the file their "name"
// argument names, so a test can tell from the file system whether the host
// let an MCP call through. It speaks JSON-RPC 2.0, one message a line, the
// MCP stdio transport.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// tools are the same tool twice under two names, so a policy can allow one
// and deny the other.
var tools = []string{"touch", "touch_denied"}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintf(os.Stderr, "fakemcp: not JSON-RPC: %v\n", err)
			continue
		}
		if len(m.ID) == 0 {
			continue // a notification (notifications/initialized, cancelled): nothing to answer
		}
		result, rpcErr := answer(m)
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		if rpcErr != nil {
			reply["error"] = rpcErr
		} else {
			reply["result"] = result
		}
		if err := out.Encode(reply); err != nil {
			fmt.Fprintf(os.Stderr, "fakemcp: %v\n", err)
			os.Exit(1)
		}
	}
}

func answer(m message) (any, map[string]any) {
	switch m.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if p.ProtocolVersion == "" {
			p.ProtocolVersion = "2025-06-18"
		}
		return map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
			"serverInfo":      map[string]any{"name": "fakemcp", "version": "1.0.0"},
		}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		var list []any
		for _, name := range tools {
			list = append(list, map[string]any{
				"name":        name,
				"description": "Create an empty file with the given name.",
				"inputSchema": map[string]any{
					"type":       "object",
					"properties": map[string]any{"name": map[string]any{"type": "string", "description": "the file to create"}},
					"required":   []string{"name"},
				},
			})
		}
		return map[string]any{"tools": list}, nil
	case "tools/call":
		return call(m.Params), nil
	case "resources/list":
		return map[string]any{"resources": []any{}}, nil
	case "resources/templates/list":
		return map[string]any{"resourceTemplates": []any{}}, nil
	case "prompts/list":
		return map[string]any{"prompts": []any{}}, nil
	}
	return nil, map[string]any{"code": -32601, "message": "method not found: " + m.Method}
}

func call(params json.RawMessage) map[string]any {
	var p struct {
		Name      string `json:"name"`
		Arguments struct {
			Name string `json:"name"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return failure("bad arguments: " + err.Error())
	}
	known := false
	for _, t := range tools {
		known = known || t == p.Name
	}
	name := p.Arguments.Name
	if !known || name == "" || strings.ContainsAny(name, `/\`) {
		return failure(fmt.Sprintf("refused: tool %q, name %q", p.Name, name))
	}
	dir, _ := os.Getwd()
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		return failure(err.Error())
	}
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": "created " + name}}}
}

func failure(text string) map[string]any {
	return map[string]any{"isError": true, "content": []any{map[string]any{"type": "text", "text": text}}}
}
