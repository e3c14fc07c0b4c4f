// Package hosts holds the codecs between coding-agent hosts' command hooks
// and regate: each reads its host's hook JSON (the tool call, the working
// directory, the agent, the session) into regate calls, and writes a
// decision back as the host's answer (stdout and exit code).
//
// A hook that crashes or times out lets the host run the call, so every
// codec has a Fail answer: an explicit block with a one-line reason, which
// the hook writes for bad input, an unreadable policy, an internal fault or
// a panic.
package hosts
