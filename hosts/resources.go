package hosts

import "github.com/regate/regate/facts"

// resourceMethods are the hosts' MCP resource tools and the MCP method
// each stands for: they read or list what one MCP server serves, so they
// are decided as calls of that server (mcp "SERVER:resources/read"), the
// rest of their input (the resource's uri, a cursor) the arguments; a
// file: uri meets the path rules (facts/args.go). Claude Code names them
// in PascalCase; Codex, Gemini CLI and Pi in snake_case.
var resourceMethods = map[string]string{
	"ReadMcpResourceTool":         "resources/read",
	"ReadMcpResourceDirTool":      "resources/read",
	"ListMcpResourcesTool":        "resources/list",
	"read_mcp_resource":           "resources/read",
	"list_mcp_resources":          "resources/list",
	"list_mcp_resource_templates": "resources/templates/list",
}

// resourceCall is the mcp call of an MCP resource tool that names its
// server; one that names none (a listing of every server's) keeps its own
// name.
func resourceCall(name string, input map[string]any) (facts.Call, bool) {
	method, ok := resourceMethods[name]
	server, _ := input["server"].(string)
	if !ok || server == "" {
		return facts.Call{}, false
	}
	args := map[string]any{}
	for k, v := range input {
		if k != "server" {
			args[k] = v
		}
	}
	return mcp(server, method, args), true
}
