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
			return []string{tool, "mcp_call"}
		}
		return []string{server + ":" + tool, server + "_" + tool, server, "mcp_call"}
	case str("connect") != "":
		return []string{str("connect"), "mcp_connect"}
	case has(in, "describe"):
		return []string{"mcp_describe"}
	case has(in, "search"):
		return []string{"mcp_search"}
	case str("server") != "":
		return []string{"mcp_list"}
	}
	return []string{"mcp_status"}
}

func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}
