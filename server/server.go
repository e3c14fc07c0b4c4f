package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// Limits on one request.
const (
	MaxBody        = 1 << 20
	RequestTimeout = 10 * time.Second
)

// Config configures a Server.
type Config struct {
	// Compile compiles the policy as it is now on disk; Watch names the
	// files whose changes trigger it.
	Compile func() (*compiler.Output, error)
	Watch   []string
	// Initial, when set, is the policy already compiled at start.
	Initial *compiler.Output
	// Token, when set, must come as "Authorization: Bearer TOKEN" (guard.go).
	// Leave it empty only behind a Unix socket, whose 0600 mode is the
	// access check: over TCP any local process could call.
	Token string
	// AllowWide lets the approvals endpoint take a pattern with * or ?
	// (approve.go).
	AllowWide bool
	// Log, when set, receives every decision.
	Log *runtime.DecisionLog
	// Cwd is the working directory of a call that names none.
	Cwd string
	// Report receives reload events (a new policy, a broken edit kept out).
	Report func(format string, args ...any)
}

// Server answers decisions with the current policy.
type Server struct {
	cfg     Config
	current atomic.Pointer[policy]
	loadErr atomic.Pointer[string] // the last broken edit kept out, or nil

	sessions *sessions
	inFlight *semaphore.Weighted // room for decisions being made (budget.go)

	asks  askMemory  // the recent asks of each session, which approvals must match
	watch watchState // what the watcher last found wrong with a rule file
}

// policy is one generation of the compiled policy and its one engine,
// which decides for every session and folder (runtime.Scope): what the
// server holds grows with the policy, not with its callers.
type policy struct {
	out    *compiler.Output
	engine *runtime.Engine
}

// newPolicy prepares the engine of a compiled policy.
func (s *Server) newPolicy(out *compiler.Output) (*policy, error) {
	eng, err := runtime.New(context.Background(), out, runtime.WithCwd(s.cfg.Cwd))
	if err != nil {
		return nil, err
	}
	return &policy{out: out, engine: eng}, nil
}

// New compiles the policy; an error here means there is no policy to serve.
func New(cfg Config) (*Server, error) {
	if cfg.Report == nil {
		cfg.Report = func(string, ...any) {}
	}
	if cfg.Cwd == "" {
		cfg.Cwd = "/"
	}
	out := cfg.Initial
	if out == nil {
		var err error
		if out, err = cfg.Compile(); err != nil {
			return nil, err
		}
	}
	s := &Server{cfg: cfg, sessions: newSessions(MaxSessions, MaxApprovalsHeld), inFlight: semaphore.NewWeighted(MaxInFlightBytes)}
	p, err := s.newPolicy(out)
	if err != nil {
		return nil, err
	}
	s.current.Store(p)
	return s, nil
}

// Handler routes the API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/data/regate/decision", s.decide)
	mux.HandleFunc("POST "+InputPath, s.input)
	mux.HandleFunc("POST /v1/sessions/{id}/approvals", s.approve)
	mux.HandleFunc("GET /health", s.health)
	s.delegationRoutes(mux)
	return s.guard(mux)
}

// call is the input of a decision request.
type call struct {
	facts.Call
	Session string `json:"session"`
	Cwd     string `json:"cwd"`
}

// readCall decodes the call of a decision request and checks its scope,
// answering 400 itself when either is wrong (ok is then false). cwd is the
// call's working directory, the server's when the call names none; size is
// the body's length, the weight admit gives the call.
func (s *Server) readCall(w http.ResponseWriter, r *http.Request) (in *call, cwd string, size int64, ok bool) {
	var req struct {
		Input *call `json:"input"`
	}
	body := &countingBody{ReadCloser: r.Body}
	r.Body = body
	if err := decodeBody(r, &req); err != nil || req.Input == nil || req.Input.Tool == "" {
		writeError(w, http.StatusBadRequest, "invalid_parameter", "want {\"input\": {\"tool\": …, \"input\": {…}}}"+errSuffix(err))
		return nil, "", 0, false
	}
	in = req.Input
	if msg := checkScope(in.Session, in.Cwd); msg != "" {
		writeError(w, http.StatusBadRequest, "invalid_parameter", msg)
		return nil, "", 0, false
	}
	if cwd = in.Cwd; cwd == "" {
		cwd = s.cfg.Cwd
	}
	return in, cwd, body.n, true
}

func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	in, cwd, size, ok := s.readCall(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	p := s.current.Load()
	release, err := s.admit(ctx, size)
	if err != nil {
		s.abandoned(in.Call, nil, p.out.Hash)
		writeError(w, http.StatusServiceUnavailable, "unavailable", err.Error()+" (block the call)")
		return
	}
	defer release()
	d, err := p.engine.DecideIn(ctx, in.Call, runtime.Scope{Cwd: cwd, Session: s.session(in.Session, p.out.Home)})
	if ctx.Err() != nil {
		// The client left, or the deadline passed: nobody receives this
		// decision, so the log must not show it as answered.
		var reached *runtime.Decision
		if err == nil {
			reached = &d
		}
		s.abandoned(in.Call, reached, p.out.Hash)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "the decision was not made within the request's time (block the call)")
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal_error", err.Error()+" (block the call)")
		return
	}
	s.asks.remember(in.Session, d)
	id := ""
	if s.cfg.Log != nil {
		if id, err = s.cfg.Log.Log(in.Call, d, p.out.Hash); err != nil {
			writeError(w, http.StatusInternalServerError, "internal_error", "decision log: "+err.Error())
			return
		}
	} else if id, err = runtime.NewDecisionID(); err != nil {
		writeError(w, http.StatusInternalServerError, "internal_error", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": d, "decision_id": id})
}

// abandoned logs a call whose client got no answer; a failure to log it
// changes nothing for a client that is gone.
func (s *Server) abandoned(c facts.Call, d *runtime.Decision, revision string) {
	if s.cfg.Log != nil {
		_, _ = s.cfg.Log.LogAbandoned(c, d, revision)
	}
}

// session returns the session of an id, creating it when the server holds
// none (sessions.go).
func (s *Server) session(id, home string) *runtime.Session {
	return s.sessions.get(id, home)
}

func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	p := s.current.Load()
	body := map[string]any{"revision": p.out.Hash}
	if msg := s.loadErr.Load(); msg != nil {
		body["reload_error"] = *msg
	}
	s.watch.report(body)
	writeJSON(w, http.StatusOK, body)
}

// Reload compiles the policy again and swaps it in atomically. A policy
// that cannot be compiled, or whose files have errors, is kept out: the
// last good one stays in force, and the error is reported.
func (s *Server) Reload() {
	old := s.current.Load()
	out, err := s.cfg.Compile()
	if err == nil {
		if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
			err = fatal
		}
	}
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		s.cfg.Report("regate serve: the policy edit is not used, the last good policy stays in force: %s", msg)
		s.loadErr.Store(&msg)
		return
	}
	if out.Hash == old.out.Hash {
		s.loadErr.Store(nil)
		return
	}
	p, err := s.newPolicy(out)
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		s.cfg.Report("regate serve: the policy edit is not used, the last good policy stays in force: %s", msg)
		s.loadErr.Store(&msg)
		return
	}
	s.loadErr.Store(nil)
	s.current.Store(p)
	s.cfg.Report("regate serve: policy %s in force", out.Hash[:12])
}

func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON body")
	}
	_, err := io.Copy(io.Discard, r.Body)
	return err
}

func errSuffix(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeError writes an error in OPA's shape ({"code", "message"}).
func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"code": code, "message": fmt.Sprintf("[regate] %s", msg)})
}
