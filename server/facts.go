package server

import (
	"net/http"

	"github.com/regate/regate/runtime"
)

// InputPath is the route that answers the input document of a call, the
// body a host sends to a stock OPA server running regate's bundle at
// /v1/data/regate/lib/permission/decision.
const InputPath = "/v1/data/regate/input"

// input answers POST /v1/data/regate/input: for a request shaped as a
// decision request ({"input": {"tool", "input", "session", "cwd", …}}),
// the input document regate would decide on, {"result": <document>},
// decided on nothing. Bash is decomposed and paths resolved against the
// call's working directory, and the document's "session" member carries
// the approvals this server holds for the call's session, so that a stock
// OPA server given the document decides as POST /v1/data/regate/decision
// does. It holds the session a decision of that call would.
func (s *Server) input(w http.ResponseWriter, r *http.Request) {
	in, cwd, size, ok := s.readCall(w, r)
	if !ok {
		return
	}
	// Building the document costs what a decision's facts cost: it waits
	// for room as a decision does.
	release, err := s.admit(r.Context(), size)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "unavailable", err.Error())
		return
	}
	defer release()
	// The call's session and working directory: the same approvals and the
	// same resolution as its decision.
	p := s.current.Load()
	doc, err := p.engine.InputIn(in.Call, runtime.Scope{Cwd: cwd, Session: s.session(in.Session, p.out.Home)})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal_error", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": doc})
}
