package e2e

import "time"

// The scenarios every host plays, and the policy they play against.

// testPolicy is the policy regate is installed with: one allowed, one
// denied and one asked command; reads allowed (a host that edits only what
// it read reads first); a file written allowed and *.lock denied;
// one MCP tool allowed and its twin denied. Everything else asks.
const testPolicy = `// regate's end-to-end test policy.
{
  "permission": {
    "*": "ask",
    "read": "allow",
    "bash": {
      "*": "ask",
      "touch allowed.txt": "allow",
      "touch denied.txt": { "action": "deny", "reason": "e2e: denied.txt is off limits" }
    },
    "write": {
      "*": "ask",
      "written.txt": "allow",
      "*.lock": { "action": "deny", "reason": "e2e: lock files are off limits" }
    },
    "edit": {
      "*": "ask",
      "written.txt": "allow",
      "*.lock": { "action": "deny", "reason": "e2e: lock files are off limits" }
    },
    "mcp": {
      "*": "ask",
      "fake:touch": "allow",
      "fake:touch_denied": { "action": "deny", "reason": "e2e: touch_denied is off limits" }
    },
    "codemode": "allow"
  }
}
`

// openPolicy allows every call, in yolo mode: the self scenarios show that
// regate's own files are guarded even so (docs/self-protection.md).
const openPolicy = `{"yoloMode": true, "permission": {"*": "allow", "bash": {"*": "allow"}, "write": {"*": "allow"}, "edit": {"*": "allow"}}}
`

// projectPolicy is where a scenario with policyInWork keeps the policy
// regate is installed with, in the work folder: hosts confine their file
// tools to the workspace, and the self floor must be what stops the agent.
const projectPolicy = ".regate/policy.jsonc"

// selfFloorNote is in every message of the self floor.
const selfFloorNote = "regate guards the files that decide"

// hostSettings stands, in a scenario's file and command, for the host's
// file that registers regate (host.settings), relative to the work folder.
const hostSettings = "{settings}"

// brokenPolicy is testPolicy half-written: a syntax error.
const brokenPolicy = `{
  "permission": {
    "*": "ask",
    "bash": { "touch allowed.txt": "allow",
`

// slowDelay is how long the hook sleeps before deciding in the slow
// scenario (REGATE_TEST_DELAY); slowDeadline is regate's own deadline, well
// under every host's timeout. The fake model times the call, from sending
// it to receiving its result: at least the deadline, and less than the
// deadline plus slowSlack (the host's own work around the hook) and less
// than the delay, or the hook was not cut short.
const (
	slowDelay    = 20 * time.Second
	slowDeadline = 2 * time.Second
	slowSlack    = 8 * time.Second
)

type callKind string

const (
	callBash  callKind = "bash"  // the host's shell tool
	callMCP   callKind = "mcp"   // a tool of the fake MCP server "fake"
	callWrite callKind = "write" // the host's file write (or patch) tool
	callEdit  callKind = "edit"  // the host's edit (or patch) tool on an existing file
	// callScript runs the command from a script the host runs in a
	// sandbox whose tools come back through the gate (Pi's codemode).
	callScript callKind = "script"
)

// toolCall is what the fake model asks the host to do, host-neutral; each
// host's pick turns it into that host's tool and input.
type toolCall struct {
	kind    callKind
	command string // bash, script: the command line
	tool    string // mcp: touch or touch_denied
	file    string // mcp: the file the tool creates; write, edit: the path, relative to the work folder
	content string // write: the file's new content; edit: the text that replaces old
	old     string // edit: the text replaced
}

// scenario is one row of the table every host plays.
type scenario struct {
	name         string
	call         toolCall
	file         string        // the file, relative to the work folder, the call creates (or changes) when it runs
	seed         string        // the file's content before the run; empty: there is no file
	runs         bool          // the policy lets the call run
	resultHas    string        // the tool result the model sees carries this (regate's reason, or its deadline's)
	policy       string        // the policy regate is installed with; empty: testPolicy
	policyInWork bool          // the policy lies in the work folder (projectPolicy), not under HOME
	brokenPolicy string        // written over the policy after install
	delay        time.Duration // REGATE_TEST_DELAY in the host's environment
	deadline     time.Duration // regate install --deadline; the run must take about this long
}

func scenarios() []scenario {
	return []scenario{
		{name: "allowed", call: toolCall{kind: callBash, command: "touch allowed.txt"}, file: "allowed.txt", runs: true},
		{name: "denied", call: toolCall{kind: callBash, command: "touch denied.txt"}, file: "denied.txt", resultHas: "off limits"},
		{name: "asked", call: toolCall{kind: callBash, command: "touch asked.txt"}, file: "asked.txt"},
		{name: "malformed-policy", call: toolCall{kind: callBash, command: "touch allowed.txt"}, file: "allowed.txt", brokenPolicy: brokenPolicy},
		{name: "slow-decision", call: toolCall{kind: callBash, command: "touch allowed.txt"}, file: "allowed.txt", delay: slowDelay, deadline: slowDeadline, resultHas: "did not"},
		{name: "mcp-allowed", call: toolCall{kind: callMCP, tool: "touch", file: "mcp-allowed.txt"}, file: "mcp-allowed.txt", runs: true},
		{name: "mcp-denied", call: toolCall{kind: callMCP, tool: "touch_denied", file: "mcp-denied.txt"}, file: "mcp-denied.txt", resultHas: "off limits"},
		{name: "write-allowed", call: toolCall{kind: callWrite, file: "written.txt", content: "written by regate's e2e test\n"}, file: "written.txt", runs: true},
		{name: "write-denied", call: toolCall{kind: callWrite, file: "deps.lock", content: "written by regate's e2e test\n"}, file: "deps.lock", resultHas: "off limits"},
		{name: "edit-denied", call: toolCall{kind: callEdit, file: "deps.lock", old: "version 1", content: "version 2"}, file: "deps.lock", seed: "locked at version 1\n", resultHas: "off limits"},
		// The agent widens the policy it runs under, by the edit tool and
		// by the shell, or unregisters the hook, under a policy that
		// allows everything in yolo mode: the self floor asks, which a
		// headless host cannot answer, and the agent reads why.
		{name: "self-policy-edit", call: toolCall{kind: callEdit, file: projectPolicy, old: `"yoloMode": true`, content: `"yoloMode": false`},
			file: projectPolicy, seed: openPolicy, policy: openPolicy, policyInWork: true, resultHas: selfFloorNote},
		{name: "self-policy-bash", call: toolCall{kind: callBash, command: "echo '{}' > " + projectPolicy},
			file: projectPolicy, seed: openPolicy, policy: openPolicy, policyInWork: true, resultHas: selfFloorNote},
		{name: "self-unregister", call: toolCall{kind: callBash, command: "echo '{}' > " + hostSettings},
			file: hostSettings, policy: openPolicy, resultHas: selfFloorNote},
	}
}
