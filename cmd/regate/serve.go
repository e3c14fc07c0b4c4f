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
	rules     ruleFlags
	addr      string
	socket    string
	token     string // deprecated: visible to every local user in ps
	tokenFile string
	allowWide bool
	logDir    string
	cwd       string
	interval  time.Duration
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

Where it listens, and who may call:
  --socket FILE   a Unix socket, 0600 from the moment it exists (made in a private folder and
                  linked into place). A file there that is not a socket is never removed; a socket
                  another serve still answers on is refused; a stale one is replaced. A token is
                  optional here: the socket's mode is the access check.
  --addr ADDR     TCP, loopback by default (127.0.0.1:8182). Every request must then carry
                  "Authorization: Bearer TOKEN", loopback too (any local user can reach loopback).
                  The token comes from --token-file FILE (created 0600 with a new token if it does
                  not exist; refused if other users can read it) or $REGATE_TOKEN; with neither,
                  serve writes a new token to a 0600 file in a private folder, prints its path and
                  removes it on exit. An address off loopback needs a token given, not generated.

Every POST must be Content-Type: application/json, and a request carrying Origin or
Sec-Fetch-Site (a browser's) is refused, so a web page cannot call serve. After 5 wrong tokens
an address is refused (429) for 1 s, doubling with each further wrong token up to 1 min.

An approval must be the exact value (no * or ?) of an ask that session was shown recently (the
last 16 asks of each of the 4,096 most recent sessions are remembered); anything else is refused
with 403. --allow-wide-approvals also takes patterns with * or ?, for a host whose dialog shows
the pattern it records.

The rule files are watched by content (an edit that keeps the size and time is seen): an edit is
compiled and swapped in atomically, and a broken edit keeps the last good policy in force and is
reported by /health (reload_error, and reload_file and reload_reason for a file the watcher was
refused, such as a FIFO). A request is bounded to 1 MiB and 10 s; an error status means the
host must block the call. SIGINT or SIGTERM shuts down gracefully: requests in flight finish and
the decision log is flushed.`,
		Example: `  regate serve --policy policy.jsonc --socket $XDG_RUNTIME_DIR/regate.sock --decision-log ~/.local/state/regate
  curl -s --unix-socket $XDG_RUNTIME_DIR/regate.sock -H 'Content-Type: application/json' \
    -d '{"input":{"tool":"bash","input":{"command":"ls"}}}' http://regate/v1/data/regate/decision

  regate serve --policy policy.jsonc --token-file ~/.config/regate/serve.token
  curl -s -H "Authorization: Bearer $(cat ~/.config/regate/serve.token)" http://127.0.0.1:8182/health`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), p, a)
		},
	}
	p.rules.bind(cmd)
	f := cmd.Flags()
	f.StringVar(&p.addr, "addr", "127.0.0.1:8182", "the TCP address to listen on (loopback unless a token is given)")
	f.StringVar(&p.socket, "socket", "", "a Unix socket to listen on instead of TCP (created 0600)")
	f.StringVar(&p.tokenFile, "token-file", "", "read the bearer token every request must carry from FILE (0600; created with a new token if missing); else $REGATE_TOKEN")
	f.StringVar(&p.token, "token", "", "Deprecated: use --token-file or $REGATE_TOKEN; a token on the command line is visible to every local user")
	_ = f.MarkHidden("token")
	f.BoolVar(&p.allowWide, "allow-wide-approvals", false, "let the approvals endpoint take patterns with * or ? (approving more than the value shown)")
	f.StringVar(&p.logDir, "decision-log", "", "append every decision, in OPA's decision-log shape, to DIR/decisions.jsonl")
	f.StringVar(&p.cwd, "cwd", "", "the working directory of a call that names none (default: the current one)")
	f.DurationVar(&p.interval, "watch-interval", time.Second, "how often the rule files are checked for edits")
	return cmd
}

func runServe(ctx context.Context, p *serveParams, a *app) error {
	tok, err := p.resolveToken(a.stderr)
	if err != nil {
		return withCode(exitUsage, err)
	}
	defer tok.cleanup()
	l, err := p.listen(tok.given)
	if err != nil {
		return withCode(exitUsage, err)
	}
	defer l.Close()
	cwd, err := workingDir(p.cwd)
	if err != nil {
		return err
	}
	p.rules.cwd = cwd
	if p.logDir != "" {
		p.rules.logDirs = []string{p.logDir}
	}
	cfg := server.Config{
		Compile:   func() (*compiler.Output, error) { return p.rules.compile(a.stderr) },
		Token:     tok.value,
		AllowWide: p.allowWide,
		Cwd:       cwd,
		Report:    func(format string, args ...any) { fmt.Fprintf(a.stderr, format+"\n", args...) },
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
// loopback unless the token was given (not generated: serving another
// interface is a choice made explicitly).
func (p *serveParams) listen(tokenGiven bool) (net.Listener, error) {
	if p.socket != "" {
		return listenSocket(p.socket)
	}
	host, _, err := net.SplitHostPort(p.addr)
	if err != nil {
		return nil, fmt.Errorf("--addr %q: %w", p.addr, err)
	}
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" && !tokenGiven {
		return nil, fmt.Errorf("--addr %q is not loopback: serving another interface needs --token-file or $REGATE_TOKEN", p.addr)
	}
	return net.Listen("tcp", p.addr)
}
