package server

import (
	"context"
	"fmt"
	"io"
	"path"
)

// What decision requests may cost the server, besides MaxBody and
// RequestTimeout. The work of one decision is bounded by the runtime's
// budget (bashfacts' and facts' limits: a command past them asks), and
// the decisions made at once by MaxInFlightBytes, so the memory they use
// is bounded whatever the callers send.
const (
	// MaxInFlightBytes bounds the decisions made at once by the size of
	// their requests: a decision's cost grows with its command (the
	// parser alone allocates about 150 bytes per byte of a command of
	// many short words), so two 1 MiB calls may run together, or 128 of
	// 16 KiB or less (minDecisionWeight). A request beyond waits for room
	// within its own deadline and gets 503 (the host blocks) when none
	// frees in time. Decisions are CPU work: more at once adds memory, not
	// throughput.
	MaxInFlightBytes = 2 << 20
	// MaxSessionID and MaxCwd bound the session id and the working
	// directory a call names (the kernel's PATH_MAX is 4096): longer ones
	// are refused with 400, so the session map cannot hold megabyte keys.
	MaxSessionID = 256
	MaxCwd       = 4096
)

// minDecisionWeight is what the smallest request weighs against
// MaxInFlightBytes.
const minDecisionWeight = 16 << 10

// checkScope says what is wrong with a call's session id and working
// directory, "" when nothing is.
func checkScope(session, cwd string) string {
	switch {
	case len(session) > MaxSessionID:
		return fmt.Sprintf("the session id is %d bytes, more than %d", len(session), MaxSessionID)
	case len(cwd) > MaxCwd:
		return fmt.Sprintf("the working directory is %d bytes, more than %d", len(cwd), MaxCwd)
	case cwd != "" && !path.IsAbs(cwd):
		return "the working directory must be an absolute path"
	}
	return ""
}

// admit takes room for a decision whose request was size bytes, waiting
// for it until ctx ends; release gives it back.
func (s *Server) admit(ctx context.Context, size int64) (release func(), err error) {
	n := min(max(size, minDecisionWeight), MaxInFlightBytes)
	if err := s.inFlight.Acquire(ctx, n); err != nil {
		return nil, fmt.Errorf("no room for the decision freed within the request's time: %w", err)
	}
	return func() { s.inFlight.Release(n) }, nil
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n += int64(n)
	return n, err
}
