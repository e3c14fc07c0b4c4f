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
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/opaprep"
	regolib "github.com/regate/regate/rego"
)

// Query is the Rego query of a decision: what the engine evaluates, and
// what stock OPA, opa eval and opa test evaluate on the same modules.
const Query = "data.regate.lib.permission.decision"

// ResponseQuery is the decision as an OPA server was asked for it before
// the decision carried its message; it is the same document.
//
// Deprecated: query Query; the decision carries the message.
const ResponseQuery = "data.regate.lib.message.response"

// decisionQuery is the rule Query stands for: the compiled policy's own
// decision (regate.gen.decision), with the same default. The engine asks
// it directly, sparing the library's alias.
const decisionQuery = "data.regate.gen.decision.decision"

// ErrNoDecision is returned when the policy produced no decision at all, a
// fault the host must turn into a block.
var ErrNoDecision = errors.New("runtime: the policy produced no decision")

// Engine decides tool calls against one compiled policy. Build it once with
// New; Decide is safe for concurrent use.
type Engine struct {
	// query is prepared by New, or on the first decision no cache answers
	// when the engine loads its policy lazily (WithLoader).
	query   rego.PreparedEvalQuery
	prepare func(context.Context) error
	env     facts.Env
	session *Session
	hash    string
	pool    *Pool
	out     *compiler.Output
	cache   *decisionCache
	cacheN  int
	store   DecisionStore
	load    func() (*compiler.Output, error)
	// folds remembers, per working directory other than the engine's
	// own, whether its file system folds case (a call's Scope).
	folds *boundedCache[bool]

	log *DecisionLog
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

// WithCacheSize bounds the decision cache (default DefaultCacheSize); 0
// turns it off. See decisionCache for what a cached decision is keyed by.
func WithCacheSize(n int) Option { return func(e *Engine) { e.cacheN = n } }

// WithSession shares session state (approvals) with the engine. Without it
// the engine keeps a session of its own.
func WithSession(s *Session) Option { return func(e *Engine) { e.session = s } }

// WithLoader builds the engine from out's metadata alone (its hash, home,
// knobs and examples; Data and Modules may be nil): the whole compiled
// policy is load's, called and prepared on the first decision that neither
// the decision cache nor the store answers. A hook process that finds its
// call in the store (WithDecisionStore) so never reads the rules nor
// prepares OPA; a fault while loading is that decision's error.
func WithLoader(load func() (*compiler.Output, error)) Option {
	return func(e *Engine) { e.load = load }
}

// New prepares the compiled policy for evaluation: the Rego library and the
// generated modules are parsed, compiled and prepared once here, never at
// decision time (or on the first decision that needs them, WithLoader).
func New(ctx context.Context, out *compiler.Output, opts ...Option) (*Engine, error) {
	e := &Engine{hash: out.Hash, env: facts.Env{Cwd: "/", Home: out.Home}, out: out, cacheN: DefaultCacheSize}
	// A recursive read's walk keeps only the paths a non-allow path rule
	// may match (compiler.PathHint), a recursive write's those a path or
	// write rule may.
	hint, writeHint := out.Hint(), out.WriteHint()
	e.env.PathHint = facts.NewPathHint(hint.Fragments, hint.Exact, hint.All)
	e.env.WriteHint = facts.NewPathHint(writeHint.Fragments, writeHint.Exact, writeHint.All)
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
	if e.load == nil {
		if err := e.prepareWith(ctx, out); err != nil {
			return nil, err
		}
		return e, nil
	}
	var once sync.Once
	var err error
	e.prepare = func(ctx context.Context) error {
		once.Do(func() {
			var whole *compiler.Output
			if whole, err = e.load(); err != nil {
				err = fmt.Errorf("runtime: load the policy: %w", err)
				return
			}
			if whole.Hash != e.hash {
				err = fmt.Errorf("runtime: the policy loaded is not the one the engine was built for")
				return
			}
			err = e.prepareWith(ctx, whole)
		})
		return err
	}
	return e, nil
}

// prepareWith prepares the decision query over out, whole.
func (e *Engine) prepareWith(ctx context.Context, out *compiler.Output) error {
	if err := checkShape(out); err != nil {
		return err
	}
	var q rego.PreparedEvalQuery
	var err error
	if e.pool != nil {
		q, err = e.pool.get(ctx, out)
	} else {
		q, err = prepareQuery(ctx, decisionQuery, out)
	}
	if err != nil {
		return err
	}
	e.query = q
	return nil
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
// values on read, so evaluation never converts it.
func prepareQuery(ctx context.Context, query string, out *compiler.Output) (rego.PreparedEvalQuery, error) {
	lib, err := queryModules(query, out.Modules)
	if err != nil {
		return rego.PreparedEvalQuery{}, err
	}
	store := inmem.NewFromObjectWithOpts(out.Data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	opts := []func(*rego.Rego){rego.Query(query), rego.Store(store)}
	opts = append(opts, moduleOptions(lib, out.Modules)...)
	q, err := opaprep.Prepare(ctx, rego.New(opts...))
	if err != nil {
		return rego.PreparedEvalQuery{}, fmt.Errorf("runtime: prepare: %w", err)
	}
	return q, nil
}

// queryModules returns the library modules query reaches, directly or
// through the generated modules.
func queryModules(query string, extra []compiler.Module) (map[string]string, error) {
	lib, err := regolib.Modules()
	if err != nil {
		return nil, fmt.Errorf("runtime: load library: %w", err)
	}
	var seeds []string
	for _, m := range extra {
		seeds = append(seeds, m.Deps...)
	}
	return regolib.Reachable(lib, query, seeds...), nil
}

// moduleOptions are the library's modules, in path order so that
// preparation is deterministic, then the extra (generated) modules. The
// library's are parsed once per process (OPA's compiler copies the
// modules it is given, so one parse serves every preparation).
func moduleOptions(lib map[string]string, extra []compiler.Module) []func(*rego.Rego) {
	opts := make([]func(*rego.Rego), 0, len(lib)+len(extra))
	for _, p := range slices.Sorted(maps.Keys(lib)) {
		if m := parsedLibrary(p, lib[p]); m != nil {
			opts = append(opts, rego.ParsedModule(m))
		} else {
			opts = append(opts, rego.Module(p, lib[p])) // preparation reports the error
		}
	}
	for _, m := range extra {
		opts = append(opts, rego.Module(m.Path, m.Text))
	}
	return opts
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
	d, err := e.decideFacts(ctx, facts.Unindexed(call, env), sess)
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
	var key, stored string
	if e.cache != nil || e.store != nil {
		var err error
		if key, err = documentKey(in, stamp); err != nil {
			return Decision{}, fmt.Errorf("runtime: cache key: %w", err)
		}
		if d, ok := e.cache.get(key); ok {
			return d, nil
		}
		if e.store != nil {
			stored = storeKey(e.hash, key)
			if d, ok := e.store.Get(stored); ok {
				e.cache.put(key, d)
				return d, nil
			}
		}
	}
	if e.prepare != nil {
		if err := e.prepare(ctx); err != nil {
			return Decision{}, err
		}
	}
	in.Index()
	obj, err := evalTerm(ctx, e.query, inputValue(in, approvals))
	if err != nil {
		return Decision{}, err
	}
	d, err := decisionFrom(obj)
	if err != nil {
		return Decision{}, err
	}
	e.cache.put(key, d)
	if e.store != nil {
		e.store.Put(stored, d)
	}
	return d, nil
}

// Response is the decision of a call as the plain document an OPA server
// answers for Query on the same modules: the decision with its message.
func (e *Engine) Response(ctx context.Context, call facts.Call) (map[string]any, error) {
	if e.prepare != nil {
		if err := e.prepare(ctx); err != nil {
			return nil, err
		}
	}
	approvals, _ := e.session.current()
	return evalObject(ctx, e.query, inputValue(facts.Build(call, e.env), approvals))
}

// evalTerm evaluates q and returns its one result as the AST object OPA
// produced, sparing the conversion to Go maps.
func evalTerm(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value) (ast.Object, error) {
	cancel, stop := watch(ctx)
	caches := evalCaches.Get().(*evalCache)
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input), rego.EvalGenerateJSON(keepTerm), rego.EvalMetrics(noMetrics),
		rego.EvalExternalCancel(cancel), rego.EvalVirtualCache(caches.rules), rego.EvalBaseCache(&caches.data))
	stop()
	caches.release()
	if err == nil {
		// A context cancelled as the evaluation ended is still no decision.
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

// watch is the cancellation of one evaluation, fired when ctx is done, and
// the function that stops watching. OPA would otherwise start a goroutine
// per evaluation to watch the context; a context that is never done (a
// test's, a benchmark's) needs no cancellation of its own.
func watch(ctx context.Context) (topdown.Cancel, func() bool) {
	if ctx.Done() == nil {
		return neverCancelled, noStop
	}
	c := topdown.NewCancel()
	return c, context.AfterFunc(ctx, c.Cancel)
}

// neverCancelled is shared by every evaluation under a context that is
// never done: nothing calls its Cancel.
var neverCancelled = topdown.NewCancel()

func noStop() bool { return true }

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
		keys := b.slice(len(c.Keys))
		for j, ks := range c.Keys {
			vals := b.slice(len(ks))
			for k, v := range ks {
				vals[k] = b.str(v)
			}
			keys[j] = b.term(ast.NewArray(vals...))
		}
		// NewObject copies its items, so one scratch array serves every check;
		// it holds surface, value, forms, keys, any_keys and every member
		// checkMembers lists.
		var kv [5 + checkStrings + checkFlags][2]*ast.Term
		n := 0
		add := func(key string, value *ast.Term) {
			kv[n] = ast.Item(term(key), value)
			n++
		}
		add("surface", b.str(c.Surface))
		add("value", b.str(c.Value))
		add("forms", b.term(ast.NewArray(forms...)))
		if len(c.Keys) > 0 {
			add("keys", b.term(ast.NewArray(keys...)))
		}
		switch {
		case len(c.AnyKeys) == 0:
		case len(c.Keys) == 1:
			add("any_keys", keys[0]) // the one group's keys
		default:
			vals := b.slice(len(c.AnyKeys))
			for k, v := range c.AnyKeys {
				vals[k] = b.str(v)
			}
			add("any_keys", b.term(ast.NewArray(vals...)))
		}
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
		// up to 9 strings, the forms and keys arrays, the check, an array per
		// form and per group of keys
		nTerms += 13 + len(c.Forms) + len(c.Keys)
		nPtrs += 2 + len(c.Forms) + len(c.Keys)
		if len(c.Keys) > 1 {
			nTerms += len(c.AnyKeys)
			nPtrs += len(c.AnyKeys)
		}
		for _, f := range c.Forms {
			nTerms += len(f)
			nPtrs += len(f)
		}
		for _, ks := range c.Keys {
			nTerms += len(ks)
			nPtrs += len(ks)
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
	if len(s) <= maxRecentString {
		return recentString(s)
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

// parsedModules are the library's modules as parsed, by path and text.
var parsedModules sync.Map // [2]string{path, text} → *ast.Module

// parsedLibrary is the library module text at path, parsed as Rego v1;
// nil when it does not parse.
func parsedLibrary(path, text string) *ast.Module {
	key := [2]string{path, text}
	if m, ok := parsedModules.Load(key); ok {
		return m.(*ast.Module)
	}
	m, err := ast.ParseModuleWithOpts(path, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return nil
	}
	parsedModules.Store(key, m)
	return m
}
