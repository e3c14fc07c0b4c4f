package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/opaprep"
	regolib "github.com/regate/regate/rego"
)

// Query is the Rego query of a decision: what stock OPA, opa eval and the
// pure-Rego engine (WithPureRego) evaluate.
const Query = "data.regate.lib.permission.decision"

// fastQuery is Query as the embedded runtime evaluates it. In its library
// (rego/fast), permission.decision is gate.decide(input, sets.compiled),
// which is regate_decide(input, data.regate.rules); the engine queries that
// builtin directly, with the rules bound when the query is prepared
// (regate_decide_bound), which spares OPA two rule evaluations, their
// caches and a read of the rules: about 70 allocations a decision. When it
// is undefined (no check has an outcome), the decision is permission.rego's
// default: faultDecision.
const fastQuery = "regate_decide_bound(input)"

// ResponseQuery is the decision with the agent's message, as an OPA server
// would be asked for it.
const ResponseQuery = "data.regate.lib.message.response"

// ErrNoDecision is returned when the policy produced no decision at all, a
// fault the host must turn into a block.
var ErrNoDecision = errors.New("runtime: the policy produced no decision")

// Engine decides tool calls against one compiled policy. Build it once with
// New; Decide is safe for concurrent use.
type Engine struct {
	query   rego.PreparedEvalQuery
	env     facts.Env
	session *Session
	hash    string
	pool    *Pool
	out     *compiler.Output
	pure    bool
	cache   *decisionCache
	cacheN  int
	// folds remembers, per working directory other than the engine's
	// own, whether its file system folds case (a call's Scope).
	folds *boundedCache[bool]

	log *DecisionLog

	responseOnce sync.Once
	response     rego.PreparedEvalQuery
	responseErr  error
}

// Option configures New.
type Option func(*Engine)

// WithDecisionLog writes every decision Decide makes to l.
func WithDecisionLog(l *DecisionLog) Option { return func(e *Engine) { e.log = l } }

// WithCwd sets the session's working directory (default "/").
func WithCwd(cwd string) Option { return func(e *Engine) { e.env.Cwd = path.Clean(cwd) } }

// WithFS sets the file system that symbolic links are resolved through
// (default the host's).
func WithFS(fsys facts.FS) Option { return func(e *Engine) { e.env.FS = fsys } }

// WithPureRego makes the engine evaluate the pure-Rego library, exactly as
// stock OPA would, instead of matching patterns with regate's Go builtin.
// Decisions are the same (a test holds the two together); it exists for
// that test and for checking a policy against what an OPA server decides.
func WithPureRego() Option { return func(e *Engine) { e.pure = true } }

// WithCacheSize bounds the decision cache (default DefaultCacheSize); 0
// turns it off. See decisionCache for what a cached decision is keyed by.
func WithCacheSize(n int) Option { return func(e *Engine) { e.cacheN = n } }

// WithSession shares session state (approvals) with the engine. Without it
// the engine keeps a session of its own.
func WithSession(s *Session) Option { return func(e *Engine) { e.session = s } }

// New prepares the compiled policy for evaluation: the Rego library and the
// generated modules are parsed, compiled and prepared once here, never at
// decision time.
func New(ctx context.Context, out *compiler.Output, opts ...Option) (*Engine, error) {
	if err := checkShape(out); err != nil {
		return nil, err
	}
	e := &Engine{hash: out.Hash, env: facts.Env{Cwd: "/", Home: out.Home}, out: out, cacheN: DefaultCacheSize}
	e.env.ShellTools = map[string]facts.ShellTool{}
	for name, st := range out.Knobs.ShellTools {
		e.env.ShellTools[name] = facts.ShellTool{
			CommandArgument: st.CommandArgument,
			WorkdirArgument: st.WorkdirArgument,
			DecisionFloor:   st.DecisionFloor,
		}
	}
	for _, o := range opts {
		o(e)
	}
	e.env.FoldCase = foldsCase(out.Knobs.CaseInsensitive, e.env)
	if e.session == nil {
		e.session = NewSession(out.Home)
	}
	e.cache = newDecisionCache(e.cacheN, DefaultCacheBytes)
	e.env.Extract = cachedExtract(e.cacheN, DefaultCacheBytes)
	e.folds = newBoundedCache(maxFoldDirs, maxFoldDirs*256, func(string, bool) int { return 0 })
	var q rego.PreparedEvalQuery
	var err error
	if e.pool != nil {
		q, err = e.pool.get(ctx, out, e.pure)
	} else {
		q, err = prepareQuery(ctx, Query, out, e.pure)
	}
	if err != nil {
		return nil, err
	}
	e.query = q
	return e, nil
}

// maxFoldDirs bounds how many working directories an engine remembers the
// case folding of (Scope.Cwd); past it the oldest is probed again when it
// comes back.
const maxFoldDirs = 1024

// foldsCase is the policy's "caseInsensitive" when it sets it, else what
// a probe of the file system holding the working directory finds, once per
// engine for its own directory and once per directory a call's Scope names
// (facts.FoldsCase).
func foldsCase(knob *bool, env facts.Env) bool {
	if knob != nil {
		return *knob
	}
	fsys := env.FS
	if fsys == nil {
		fsys = facts.OSFS{}
	}
	return facts.FoldsCase(fsys, env.Cwd)
}

// prepareQuery prepares query over the library, the generated modules and
// the compiled data, which goes into an in-memory store that returns AST
// values on read, so evaluation never converts it. Unless pure, the
// library's matcher is the Go builtin (fastmatch.go).
func prepareQuery(ctx context.Context, query string, out *compiler.Output, pure bool) (rego.PreparedEvalQuery, error) {
	query, lib, err := queryModules(query, pure)
	if err != nil {
		return rego.PreparedEvalQuery{}, err
	}
	store := inmem.NewFromObjectWithOpts(out.Data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	opts := []func(*rego.Rego){rego.Query(query), rego.Store(store)}
	switch {
	case pure:
	case query == fastQuery: // the query is the bound builtin's one call
		rules, err := readRules(ctx, store)
		if err != nil {
			return rego.PreparedEvalQuery{}, err
		}
		opts = append(opts, boundDecideBuiltin(newFastState(), rules))
	default: // rego/fast/gate.rego calls regate_decide
		opts = append(opts, decideBuiltin(newFastState()))
	}
	opts = append(opts, moduleOptions(lib, out.Modules)...)
	q, err := opaprep.Prepare(ctx, rego.New(opts...))
	if err != nil {
		return rego.PreparedEvalQuery{}, fmt.Errorf("runtime: prepare: %w", err)
	}
	return q, nil
}

// queryModules returns the query the engine prepares for query and the
// library modules it loads beside the generated ones: those the query
// reaches, with the fast twins unless pure, and none for the permission
// query's bound builtin.
func queryModules(query string, pure bool) (string, map[string]string, error) {
	load := regolib.FastModules
	if pure {
		load = regolib.Modules
	}
	lib, err := load()
	if err != nil {
		return "", nil, fmt.Errorf("runtime: load library: %w", err)
	}
	lib = regolib.Reachable(lib, query)
	if !pure && query == Query {
		return fastQuery, nil, nil // the builtin is the library
	}
	return query, lib, nil
}

// moduleOptions are the library's modules, in path order so that
// preparation is deterministic, then the extra (generated) modules.
func moduleOptions(lib map[string]string, extra []compiler.Module) []func(*rego.Rego) {
	opts := make([]func(*rego.Rego), 0, len(lib)+len(extra))
	for _, p := range slices.Sorted(maps.Keys(lib)) {
		opts = append(opts, rego.Module(p, lib[p]))
	}
	for _, m := range extra {
		opts = append(opts, rego.Module(m.Path, m.Text))
	}
	return opts
}

// readRules reads data.regate.rules; nil when absent, which leaves
// regate_decide_bound undefined as regate_decide would be.
func readRules(ctx context.Context, store storage.Store) (ast.Value, error) {
	v, err := storage.ReadOne(ctx, store, storage.MustParsePath("/regate/rules"))
	if storage.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("runtime: read the rules: %w", err)
	}
	av, ok := v.(ast.Value)
	if !ok {
		return nil, fmt.Errorf("runtime: read the rules: %T is not an AST value", v)
	}
	return av, nil
}

// Session returns the engine's session state.
func (e *Engine) Session() *Session { return e.session }

// Hash identifies the compiled policy the engine decides with.
func (e *Engine) Hash() string { return e.hash }

// Facts extracts the input document of a call without deciding it.
func (e *Engine) Facts(call facts.Call) *facts.Input {
	return facts.Build(call, e.env)
}

// Input returns the input document of a call as plain JSON values: what a
// host that asks a stock OPA server (running regate's bundle) sends to its
// Data API, POST /v1/data/regate/lib/permission/decision {"input": …}. Bash
// decomposition and path resolution happen here, in Go, so the server
// needs nothing but the document.
func (e *Engine) Input(call facts.Call) (map[string]any, error) {
	return e.InputIn(call, Scope{})
}

// Decide decides one call. The decision is data; an error means regate could
// not decide, and the host must block the call.
func (e *Engine) Decide(ctx context.Context, call facts.Call) (Decision, error) {
	return e.DecideIn(ctx, call, Scope{})
}

// Scope is where one call runs: its working directory and the session
// whose approvals apply. A field left empty is the engine's own (WithCwd,
// WithSession). One engine, with one prepared query and one pair of
// caches, can so decide for any number of sessions and folders, as regate
// serve does.
type Scope struct {
	// Cwd is the call's working directory, an absolute path.
	Cwd string
	// Session holds the approvals the call is decided under.
	Session *Session
}

// DecideIn decides one call in the given scope, as Decide does in the
// engine's own. A Cwd that is not absolute is an error (the host blocks):
// relative paths would resolve against nothing.
func (e *Engine) DecideIn(ctx context.Context, call facts.Call, sc Scope) (Decision, error) {
	env, sess, err := e.scope(sc)
	if err != nil {
		return Decision{}, err
	}
	d, err := e.decideFacts(ctx, facts.Build(call, env), sess)
	if err == nil && e.log != nil {
		if _, lerr := e.log.Log(call, d, e.hash); lerr != nil {
			return d, fmt.Errorf("runtime: decision log: %w", lerr)
		}
	}
	return d, err
}

// InputIn is Input for a call in the given scope: the document DecideIn
// would decide on, with the scope's session approvals.
func (e *Engine) InputIn(call facts.Call, sc Scope) (map[string]any, error) {
	env, sess, err := e.scope(sc)
	if err != nil {
		return nil, err
	}
	approvals, _ := sess.current()
	v, err := ast.JSON(inputValue(facts.Build(call, env), approvals))
	if err != nil {
		return nil, fmt.Errorf("runtime: input document: %w", err)
	}
	doc, _ := v.(map[string]any)
	return doc, nil
}

// scope is the environment and session of a call in sc: the engine's own
// where sc leaves them out.
func (e *Engine) scope(sc Scope) (facts.Env, *Session, error) {
	env, sess := e.env, e.session
	if sc.Session != nil {
		sess = sc.Session
	}
	if sc.Cwd != "" {
		if !path.IsAbs(sc.Cwd) {
			return env, nil, fmt.Errorf("runtime: the working directory %.64q is not absolute", sc.Cwd)
		}
		if cwd := path.Clean(sc.Cwd); cwd != env.Cwd {
			env.Cwd = cwd
			env.FoldCase = e.foldsCaseAt(env)
		}
	}
	return env, sess, nil
}

// foldsCaseAt is foldsCase for env's working directory, remembered.
func (e *Engine) foldsCaseAt(env facts.Env) bool {
	if knob := e.out.Knobs.CaseInsensitive; knob != nil {
		return *knob
	}
	if v, ok := e.folds.get(env.Cwd); ok {
		return v
	}
	v := foldsCase(nil, env)
	e.folds.put(env.Cwd, v)
	return v
}

// DecideFacts decides a call whose facts the host built itself (with
// Engine.Facts or facts.Build), under the engine's session.
func (e *Engine) DecideFacts(ctx context.Context, in *facts.Input) (Decision, error) {
	return e.decideFacts(ctx, in, e.session)
}

func (e *Engine) decideFacts(ctx context.Context, in *facts.Input, sess *Session) (Decision, error) {
	if err := ctx.Err(); err != nil {
		// A cancelled call is not decided: the host blocks it.
		return Decision{}, fmt.Errorf("runtime: %w", err)
	}
	approvals, stamp := sess.current()
	var key string
	if e.cache != nil {
		var err error
		if key, err = documentKey(in, stamp); err != nil {
			return Decision{}, fmt.Errorf("runtime: cache key: %w", err)
		}
		if d, ok := e.cache.get(key); ok {
			return d, nil
		}
	}
	var opts []rego.EvalOption
	if !e.pure {
		opts = fastEval[:]
	}
	obj, err := evalTerm(ctx, e.query, inputValue(in, approvals), opts...)
	if errors.Is(err, ErrNoDecision) && !e.pure {
		obj, err = faultDecision, nil
	}
	if err != nil {
		return Decision{}, err
	}
	d, err := decisionFrom(obj)
	if err != nil {
		return Decision{}, err
	}
	d.Message = message(d, in.Tool, in.Agent)
	e.cache.put(key, d)
	return d, nil
}

// Response evaluates regate.lib.message.response, the decision with the
// message as the Rego library renders it: what an OPA server answers for
// the same policy. Decide builds the same message in Go; the first call
// prepares the query.
func (e *Engine) Response(ctx context.Context, call facts.Call) (map[string]any, error) {
	e.responseOnce.Do(func() {
		e.response, e.responseErr = prepareQuery(ctx, ResponseQuery, e.out, e.pure)
	})
	if e.responseErr != nil {
		return nil, e.responseErr
	}
	approvals, _ := e.session.current()
	return evalObject(ctx, e.response, inputValue(facts.Build(call, e.env), approvals))
}

// evalTerm evaluates q and returns its one result as the AST object OPA
// produced, sparing the conversion to Go maps.
func evalTerm(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value, opts ...rego.EvalOption) (ast.Object, error) {
	opts = append(opts, rego.EvalParsedInput(input), rego.EvalGenerateJSON(keepTerm), rego.EvalMetrics(noMetrics))
	rs, err := q.Eval(ctx, opts...)
	if err == nil {
		// A context cancelled while OPA was not watching it (fastEval) is
		// still no decision.
		err = ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("runtime: evaluate: %w", err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, ErrNoDecision
	}
	obj, ok := rs[0].Expressions[0].Value.(ast.Object)
	if !ok {
		return nil, ErrNoDecision
	}
	return obj, nil
}

// faultDecision is permission.rego's default decision: no check had an
// outcome, so the call is blocked as a fault.
var faultDecision = ast.NewObject(
	item("action", term("deny")),
	item("matched", term("<no-decision>")),
	item("layer", term("fault")),
	item("surface", term("")),
	item("value", term("")),
	item("origin", term("")),
	item("at", term("")),
	item("pos", term("-")),
	item("reason", ast.StringTerm("regate reached no decision for this call; it is blocked")),
	item("floor", term("")),
	item("yolo", ast.InternedTerm(false)),
)

// noMetrics spares each evaluation the timers OPA would otherwise allocate
// and nobody reads.
var noMetrics = metrics.NoOp()

func keepTerm(t *ast.Term, _ *rego.EvalContext) (any, error) { return t.Value, nil }

func evalObject(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value) (map[string]any, error) {
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return nil, fmt.Errorf("runtime: evaluate: %w", err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, ErrNoDecision
	}
	obj, ok := rs[0].Expressions[0].Value.(map[string]any)
	if !ok {
		return nil, ErrNoDecision
	}
	return obj, nil
}

// inputValue builds the input document directly as an AST value, which
// spares the evaluator a JSON round trip on every decision. session is the
// document's "session" member (Session.current).
func inputValue(in *facts.Input, session *ast.Term) ast.Value {
	b := newDocBuilder(in)
	checks := b.slice(len(in.Checks))
	for i, c := range in.Checks {
		forms := b.slice(len(c.Forms))
		for j, f := range c.Forms {
			vals := b.slice(len(f))
			for k, v := range f {
				vals[k] = b.str(v)
			}
			forms[j] = b.term(ast.NewArray(vals...))
		}
		// NewObject copies its items, so one scratch array serves every check;
		// it holds surface, value, forms and every member checkMembers lists.
		var kv [3 + checkStrings + checkFlags][2]*ast.Term
		n := 0
		add := func(key string, value *ast.Term) {
			kv[n] = ast.Item(term(key), value)
			n++
		}
		add("surface", b.str(c.Surface))
		add("value", b.str(c.Value))
		add("forms", b.term(ast.NewArray(forms...)))
		strs, flags := checkMembers(&c)
		for _, f := range strs {
			if f.value != "" {
				add(f.key, b.str(f.value))
			}
		}
		for _, f := range flags {
			if f.on {
				add(f.key, ast.InternedTerm(true))
			}
		}
		checks[i] = b.term(ast.NewObject(kv[:n]...))
	}
	kv := [...][2]*ast.Term{
		ast.Item(term("tool"), b.str(in.Tool)),
		ast.Item(term("unregistered"), ast.InternedTerm(in.Unregistered)),
		ast.Item(term("checks"), b.term(ast.NewArray(checks...))),
		ast.Item(term("session"), session),
		{},
		{},
	}
	n := 4
	if in.Agent != "" {
		kv[n] = ast.Item(term("agent"), b.str(in.Agent))
		n++
	}
	if in.Floor != "" {
		kv[n] = ast.Item(term("floor"), b.str(in.Floor))
		n++
	}
	return ast.NewObject(kv[:n]...)
}

// docBuilder hands out the terms and term slices of one input document
// from two blocks sized for it, which spares an allocation per term and
// per slice. Should a block run out, appending moves on to a new one; the
// terms already handed out stay where they are.
type docBuilder struct {
	terms []ast.Term
	ptrs  []*ast.Term
}

func newDocBuilder(in *facts.Input) docBuilder {
	nTerms, nPtrs := 3, 0
	for _, c := range in.Checks {
		nTerms += 11 + len(c.Forms) // up to 9 strings, the forms array, the check, an array per form
		nPtrs += 1 + len(c.Forms)
		for _, f := range c.Forms {
			nTerms += len(f)
			nPtrs += len(f)
		}
	}
	return docBuilder{terms: make([]ast.Term, 0, nTerms), ptrs: make([]*ast.Term, 0, nPtrs)}
}

func (b *docBuilder) term(v ast.Value) *ast.Term {
	b.terms = append(b.terms, ast.Term{Value: v})
	return &b.terms[len(b.terms)-1]
}

// str is the term of a string: a prebuilt one for the document's common
// values, else one from the block.
func (b *docBuilder) str(s string) *ast.Term {
	if t, ok := terms[s]; ok {
		return t
	}
	return b.term(ast.String(s))
}

// slice returns n fresh term pointers whose capacity ends at n, so that
// nothing appended to one can reach the next.
func (b *docBuilder) slice(n int) []*ast.Term {
	if len(b.ptrs)+n > cap(b.ptrs) {
		b.ptrs = make([]*ast.Term, 0, max(n, cap(b.ptrs)))
	}
	start := len(b.ptrs)
	b.ptrs = b.ptrs[:start+n]
	return b.ptrs[start : start+n : start+n]
}
