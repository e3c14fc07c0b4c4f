// Package e2e holds regate's end-to-end tests: each runs a real coding-agent
// host (Claude Code, Codex, Gemini CLI, Pi, OpenCode, GitHub Copilot CLI),
// installed pinned from npm, headless and offline against a scripted fake
// model server on loopback that answers with one chosen tool call, with
// regate installed into a temporary HOME by `regate install HOST --write`.
// The tests assert on the file system (did the call's side effect happen?)
// and on the tool result the host sent back to the fake model (did the host
// really process the call?).
//
// The hosts come from the npm folder REGATE_E2E_NPM (default
// ~/.cache/regate-e2e, filled by .ci/e2e from hosts/e2e/npm). They run only
// with REGATE_E2E=1 (as .ci/e2e sets it), and then a missing host fails;
// otherwise they skip, so the README's go test ./... stays quick. Each host
// runs with
// stdin closed, under a timeout, inside a network namespace of its own
// (unshare -n, loopback only) when the machine allows one.
//
// The package has no code outside its tests; internal/fakemcp is the stdio
// MCP server the tests configure in every host.
package e2e
