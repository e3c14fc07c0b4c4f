package conformance_test

import (
	"context"
	"fmt"
	"maps"
	goruntime "runtime"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/internal/opaprep"
	regolib "github.com/regate/regate/rego"
	"github.com/regate/regate/runtime"
)

// pureLibrary evaluates the Rego library as stock OPA runs it (rego/lib,
// none of the embedded runtime's Go builtins) for any compiled policy. The
// library is prepared once; each evaluation first writes the policy's
// compiled rules to the store, as a stock server takes PUT /v1/data. The
// generated modules hold only the names of the rule files (nothing in the
// library reads them), so the rules are the whole policy.
//
// Preparing the library for each policy, as runtime.WithPureRego and
// Engine.Response do, costs 25 to 30 ms a policy; an evaluation here about
// a millisecond. The conformance tests hold every case and every mutant to
// it (runtime.WithPureRego, a test option, is the runtime's own
// TestFastPathAgreesOnWorkload's). It is safe for concurrent use: each
// evaluation takes an evaluator (a prepared query and its store) of its own.
type pureLibrary struct {
	lib  map[string]string
	free chan *pureEvaluator // evaluators not in use; parallel cases take one each
}

// pureEvaluator is the library prepared against a store of its own.
type pureEvaluator struct {
	store storage.Store
	query rego.PreparedEvalQuery // regate.lib.message.response: the decision and its message
}

// newPureLibrary reads the library; evaluators are prepared as parallel
// cases need them, at most one per CPU.
func newPureLibrary(t testing.TB) *pureLibrary {
	t.Helper()
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	return &pureLibrary{lib: lib, free: make(chan *pureEvaluator, goruntime.GOMAXPROCS(0))}
}

func (p *pureLibrary) evaluator(ctx context.Context) (*pureEvaluator, error) {
	select {
	case e := <-p.free:
		return e, nil
	default:
	}
	e := &pureEvaluator{store: inmem.NewWithOpts(inmem.OptRoundTripOnWrite(false))}
	opts := []func(*rego.Rego){rego.Query(runtime.ResponseQuery), rego.Store(e.store)}
	for _, path := range slices.Sorted(maps.Keys(p.lib)) {
		opts = append(opts, rego.Module(path, p.lib[path]))
	}
	// opaprep serialises this preparation with the runtime's own: OPA's
	// type checker writes to types that preparations share.
	var err error
	e.query, err = opaprep.Prepare(ctx, rego.New(opts...))
	return e, err
}

func (p *pureLibrary) release(e *pureEvaluator) {
	select {
	case p.free <- e:
	default: // more evaluators than CPUs: let this one go
	}
}

// plainRules are the compiled rules of out as JSON values, what a bundle's
// data and regate compile's data.json files hold.
func plainRules(out *compiler.Output) (map[string]any, error) {
	rules, _ := out.Data["regate"].(map[string]any)["rules"].(map[string]any)
	v, err := ast.InterfaceToValue(rules)
	if err != nil {
		return nil, err
	}
	plain, err := ast.JSON(v)
	if err != nil {
		return nil, err
	}
	m, _ := plain.(map[string]any)
	return m, nil
}

// response evaluates regate.lib.message.response for the input document
// doc under the rules of out: the decision, with the message as the Rego
// library renders it.
func (p *pureLibrary) response(ctx context.Context, out *compiler.Output, doc map[string]any) (runtime.Decision, error) {
	rules, err := plainRules(out)
	if err != nil {
		return runtime.Decision{}, err
	}
	e, err := p.evaluator(ctx)
	if err != nil {
		return runtime.Decision{}, err
	}
	defer p.release(e)
	if err := storage.WriteOne(ctx, e.store, storage.AddOp, storage.MustParsePath("/regate"), map[string]any{"rules": rules}); err != nil {
		return runtime.Decision{}, err
	}
	rs, err := e.query.Eval(ctx, rego.EvalInput(doc))
	if err != nil {
		return runtime.Decision{}, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return runtime.Decision{}, fmt.Errorf("%s is undefined", runtime.ResponseQuery)
	}
	m, _ := rs[0].Expressions[0].Value.(map[string]any)
	str := func(k string) string { s, _ := m[k].(string); return s }
	yolo, _ := m["yolo"].(bool)
	return runtime.Decision{Action: action.Action(str("action")), Matched: str("matched"), Layer: str("layer"), Surface: str("surface"),
		Value: str("value"), Origin: str("origin"), At: str("at"), Pos: str("pos"), Reason: str("reason"), Floor: str("floor"),
		Yolo: yolo, Message: str("message")}, nil
}
