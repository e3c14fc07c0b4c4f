package facts

import "strings"

// MCPTargets derives the targets an mcp call is matched against (R6, R15):
//
//	{"tool": "srv:t"} or {"tool": "t", "server": "srv"}
//	                      srv:t, srv_t, srv, mcp_call
//	{"tool": "t"}         t, mcp_call
//	{"connect": "srv"}    srv, mcp_connect
//	{"describe": …}       mcp_describe
//	{"search": …}         mcp_search
//	{"server": "srv"}     mcp_list
//	{}                    mcp_status
//
// A server or tool named like an operation target (mcp_list) loses that
// target (operations).
func MCPTargets(in map[string]any) []string {
	str := func(k string) string { s, _ := in[k].(string); return s }
	switch {
	case str("tool") != "":
		tool, server := str("tool"), str("server")
		if server == "" {
			if s, t, ok := strings.Cut(tool, ":"); ok {
				server, tool = s, t
			}
		}
		if server == "" {
			return withoutOperations(tool, "mcp_call")
		}
		return withoutOperations(server+":"+tool, server+"_"+tool, server, "mcp_call")
	case str("connect") != "":
		return withoutOperations(str("connect"), "mcp_connect")
	case has(in, "describe"):
		return []string{"mcp_describe"}
	case has(in, "search"):
		return []string{"mcp_search"}
	case str("server") != "":
		return []string{"mcp_list"}
	}
	return []string{"mcp_status"}
}

// operations are the targets of the MCP operations (R6): a rule on one,
// and the discovery baseline that allows them, means that operation. A
// server or a tool named like one (a tool "mcp_list" that deletes
// repositories) is not it, so that name is dropped from a tool call's or a
// connect's targets; its other targets decide it.
var operations = map[string]bool{"mcp_status": true, "mcp_list": true, "mcp_search": true,
	"mcp_describe": true, "mcp_connect": true, "mcp_call": true}

// withoutOperations returns the targets, the last of which is the
// operation's own, without the others that name an operation.
func withoutOperations(targets ...string) []string {
	out := targets[:0]
	for i, t := range targets {
		if i == len(targets)-1 || !operations[t] {
			out = append(out, t)
		}
	}
	return out
}

func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}
