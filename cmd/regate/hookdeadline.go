package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/regate/regate/hosts"
)

// defaultHookDeadline is how long a hook may take to decide before it
// answers a block itself. Several hosts run the tool when their hook times
// out (Gemini CLI always; Claude Code and Codex treat a killed hook as a
// non-blocking error), so regate must answer before any host gives up. The
// shortest host default is Copilot CLI's 30 s (timeoutSec), Gemini CLI's
// is 60,000 ms, Claude Code's and Codex's are longer; regate install
// writes a host timeout of three times the deadline. A warm decision takes
// milliseconds and a cold compile of a large policy well under a second, so
// ten seconds blocks only a hook that is stuck (a policy on a hung network
// mount or a FIFO, a machine out of memory).
const defaultHookDeadline = 10 * time.Second

// testDelayEnv makes the hook sleep that long (a Go duration) after reading
// its input and before deciding, so end-to-end tests can prove that a slow
// decision is blocked by the deadline rather than run by the host.
const testDelayEnv = "REGATE_TEST_DELAY"

// bindHookDeadline adds --deadline to the hook command.
func bindHookDeadline(cmd *cobra.Command) {
	cmd.Flags().Duration("deadline", defaultHookDeadline,
		"answer a block if no decision is made within this time (well under the host's own hook timeout)")
}

// runHookWithin runs runHook on its own goroutine and waits for it at most
// the --deadline. Past it, the host gets the codec's block for the request
// as far as it was read, and the caller exits: the worker may be stuck in a
// system call (an open of a FIFO, a read of a hung mount) that no context
// can interrupt, and the process exit ends it.
func runHookWithin(cmd *cobra.Command, p *hookParams, codec hosts.Codec, stdin io.Reader, stderr io.Writer) hosts.Answer {
	deadline, err := cmd.Flags().GetDuration("deadline")
	if err != nil || deadline <= 0 {
		return codec.Fail(hosts.Request{}, fmt.Sprintf("--deadline must be a positive duration, not %q", cmd.Flag("deadline").Value))
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	w := &hookWatch{}
	ctx = context.WithValue(ctx, hookWatchKey{}, w)
	// The worker's diagnostics are held back until it is done, so that a
	// worker still running past the deadline writes nothing after the
	// answer.
	var held lockedBuffer
	done := make(chan hosts.Answer, 1)
	go func() { done <- runHook(ctx, p, codec, stdin, &held) }()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case ans := <-done:
		held.copyTo(stderr)
		return ans
	case <-timer.C:
		return codec.Fail(w.request(), fmt.Sprintf("regate did not decide within %s", deadline))
	}
}

// A hookWatch is what the main goroutine learns from the worker: the request
// once decoded, so that a block past the deadline answers the event that was
// asked (Claude Code's PermissionRequest needs its own deny shape).
type hookWatch struct{ req atomic.Pointer[hosts.Request] }

type hookWatchKey struct{}

func (w *hookWatch) request() hosts.Request {
	if r := w.req.Load(); r != nil {
		return *r
	}
	return hosts.Request{}
}

// hookDecoded tells the hook's watcher the request, then sleeps the test
// delay. The watcher travels in ctx so that runHook keeps its signature.
// A test delay that is not a duration is a fault: the hook blocks.
func hookDecoded(ctx context.Context, req hosts.Request) error {
	if w, ok := ctx.Value(hookWatchKey{}).(*hookWatch); ok {
		w.req.Store(&req)
	}
	v := os.Getenv(testDelayEnv)
	if v == "" {
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("%s=%q is not a duration", testDelayEnv, v)
	}
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A lockedBuffer is a bytes.Buffer safe for one writer and one reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) copyTo(w io.Writer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, _ = w.Write(b.buf.Bytes())
}
