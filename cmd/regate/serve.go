package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/server"
)

type serveParams struct {
	rules    ruleFlags
	addr     string
	socket   string
	token    string
	logDir   string
	cwd      string
	interval time.Duration
}

func newServeCmd(a *app) *cobra.Command {
	p := &serveParams{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "serve decisions over HTTP, shaped like OPA's Data API, for hosts in any language",
		Long: `serve answers decisions for hosts that do not embed the Go library:

  POST /v1/data/regate/decision     {"input": {"tool", "input", "agent"?, "session"?, "cwd"?}}
                                    → {"result": DECISION, "decision_id": ID}
  POST /v1/sessions/ID/approvals    {"surface", "pattern"} → 204: approve for that session
  GET  /health                      the policy's revision, and a reload error if an edit was kept out

It listens on a Unix socket (--socket, mode 0600) or on loopback TCP (--addr, default
127.0.0.1:8182); another interface needs an explicit --addr and a --token that every request
sends as "Authorization: Bearer TOKEN". The rule files are watched: an edit is compiled and
swapped in atomically, and a broken edit keeps the last good policy in force and is reported.
A request is bounded to 1 MiB and 10 s; an error status means the host must block the call.
SIGINT or SIGTERM shuts down gracefully: requests in flight finish and the decision log is
flushed.`,
		Example: `  regate serve --policy policy.jsonc --socket $XDG_RUNTIME_DIR/regate.sock --decision-log ~/.local/state/regate
  curl -s --unix-socket $XDG_RUNTIME_DIR/regate.sock -d '{"input":{"tool":"bash","input":{"command":"ls"}}}' \
    http://regate/v1/data/regate/decision`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), p, a)
		},
	}
	p.rules.bind(cmd)
	f := cmd.Flags()
	f.StringVar(&p.addr, "addr", "127.0.0.1:8182", "the TCP address to listen on (loopback unless --token is set)")
	f.StringVar(&p.socket, "socket", "", "a Unix socket to listen on instead of TCP (created 0600)")
	f.StringVar(&p.token, "token", "", "a bearer token every request must carry (required off loopback)")
	f.StringVar(&p.logDir, "decision-log", "", "append every decision, in OPA's decision-log shape, to DIR/decisions.jsonl")
	f.StringVar(&p.cwd, "cwd", "", "the working directory of a call that names none (default: the current one)")
	f.DurationVar(&p.interval, "watch-interval", time.Second, "how often the rule files are checked for edits")
	return cmd
}

func runServe(ctx context.Context, p *serveParams, a *app) error {
	l, err := p.listen()
	if err != nil {
		return withCode(exitUsage, err)
	}
	defer l.Close()
	cwd := p.cwd
	if cwd == "" {
		if cwd, err = os.Getwd(); err != nil {
			return withCode(exitFault, err)
		}
	}
	p.rules.cwd = cwd
	cfg := server.Config{
		Compile: func() (*compiler.Output, error) { return p.rules.compile(a.stderr) },
		Token:   p.token,
		Cwd:     cwd,
		Report:  func(format string, args ...any) { fmt.Fprintf(a.stderr, format+"\n", args...) },
	}
	out, err := cfg.Compile()
	if err != nil {
		return err
	}
	cfg.Initial, cfg.Watch = out, p.rules.watched() // --pi fills the paths in while compiling
	if p.logDir != "" {
		if cfg.Log, err = runtime.OpenDecisionLog(p.logDir, out.Knobs.ReviewLogFieldMaxWidth); err != nil {
			return withCode(exitFault, err)
		}
		defer cfg.Log.Close()
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go srv.Watch(ctx, p.interval)
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second,
		WriteTimeout: 15 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(l) }()
	fmt.Fprintf(a.stderr, "regate serve: listening on %s\n", l.Addr())
	select {
	case err := <-errc:
		return withCode(exitFault, err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return withCode(exitFault, err)
	}
	return nil
}

// listen opens the socket or the TCP address, refusing an address off
// loopback without a token.
func (p *serveParams) listen() (net.Listener, error) {
	if p.socket != "" {
		_ = os.Remove(p.socket)
		l, err := net.Listen("unix", p.socket)
		if err != nil {
			return nil, err
		}
		if err := os.Chmod(p.socket, 0o600); err != nil {
			l.Close()
			return nil, err
		}
		return l, nil
	}
	host, _, err := net.SplitHostPort(p.addr)
	if err != nil {
		return nil, fmt.Errorf("--addr %q: %w", p.addr, err)
	}
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" && p.token == "" {
		return nil, fmt.Errorf("--addr %q is not loopback: serving another interface needs --token", p.addr)
	}
	return net.Listen("tcp", p.addr)
}
