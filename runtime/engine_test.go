package runtime_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

const testPolicy = `{
  "permission": {
    "*": "ask",
    "read": "allow",
    "path": {"*": "allow", "*.env": "deny"},
    "bash": {
      "*": "ask",
      "git status": "allow",
      "npm *": {"action": "deny", "reason": "Use pnpm instead"}
    }
  }
}`

func newEngine(t testing.TB, policy string, opts ...runtime.Option) *runtime.Engine {
	t.Helper()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(policy)}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
		t.Fatal(fatal)
	}
	opts = append([]runtime.Option{runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{})}, opts...)
	e, err := runtime.New(context.Background(), out, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var sampleCalls = []facts.Call{
	{Tool: "read", Input: map[string]any{"path": "src/a.go"}},
	{Tool: "read", Input: map[string]any{"path": ".env"}},
	{Tool: "bash", Input: map[string]any{"command": "git status"}},
	{Tool: "bash", Input: map[string]any{"command": "npm install"}},
	{Tool: "bash", Input: map[string]any{"command": "make"}},
	{Tool: "write", Input: map[string]any{"path": "a.txt"}},
}

func TestDecideIsSafeForConcurrentUse(t *testing.T) {
	e := newEngine(t, testPolicy)
	ctx := context.Background()
	want := make([]runtime.Decision, len(sampleCalls))
	for i, c := range sampleCalls {
		d, err := e.Decide(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = d
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 50; n++ {
				i := (n + g) % len(sampleCalls)
				d, err := e.Decide(ctx, sampleCalls[i])
				if err != nil || d != want[i] {
					errs <- fmt.Errorf("call %d: got %+v, %v; want %+v", i, d, err, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestSessionApprovals(t *testing.T) {
	e := newEngine(t, testPolicy)
	ctx := context.Background()
	make_ := facts.Call{Tool: "bash", Input: map[string]any{"command": "make build"}}
	if d, _ := e.Decide(ctx, make_); d.Action != "ask" {
		t.Fatalf("before approval: %s, want ask", d.Action)
	}
	if err := e.Session().Approve(compiler.Approval{Surface: "bash", Pattern: "make *"}); err != nil {
		t.Fatal(err)
	}
	d, err := e.Decide(ctx, make_)
	if err != nil || d.Action != "allow" || d.Layer != "session" || d.Matched != "make *" {
		t.Fatalf("after approval: %+v, %v", d, err)
	}
	// An approval belongs to its surface: a bash approval does not lift a
	// path deny, and a write approval does not reach bash.
	if err := e.Session().Approve(compiler.Approval{Surface: "write", Pattern: "*"}); err != nil {
		t.Fatal(err)
	}
	if d, _ := e.Decide(ctx, facts.Call{Tool: "write", Input: map[string]any{"path": ".env"}}); d.Action != "deny" {
		t.Errorf("write .env after a write approval: %s, want deny (path)", d.Action)
	}
	if d, _ := e.Decide(ctx, facts.Call{Tool: "bash", Input: map[string]any{"command": "rm x"}}); d.Action != "ask" {
		t.Errorf("bash after a write approval: %s, want ask", d.Action)
	}
	if err := e.Session().Approve(compiler.Approval{Pattern: "x"}); err == nil {
		t.Error("an approval without a surface must be refused")
	}
}

func TestDenyMessage(t *testing.T) {
	e := newEngine(t, testPolicy)
	d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": "npm install"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "[regate] the agent is not permitted to run 'bash' command 'npm install' (matched 'npm *'). Reason: Use pnpm instead."
	if d.Message != want {
		t.Errorf("message\n got %q\nwant %q", d.Message, want)
	}
	if d.Pos != "policy.jsonc:9:7" {
		t.Errorf("pos %q, want policy.jsonc:9:7", d.Pos)
	}
}

func ExampleEngine_Decide() {
	out, _ := compiler.Compile(compiler.Input{Policy: &compiler.Source{
		Name: "policy.jsonc",
		Data: []byte(`{"permission": {"*": "ask", "path": {"*.env": "deny"}, "read": "allow"}}`),
	}}, compiler.WithHome("/home/me"))
	eng, _ := runtime.New(context.Background(), out, runtime.WithCwd("/home/me/project"))
	for _, p := range []string{"main.go", "config/.env"} {
		d, err := eng.Decide(context.Background(), facts.Call{Tool: "read", Input: map[string]any{"path": p}})
		if err != nil {
			panic(err) // a host blocks the call here
		}
		fmt.Printf("%s: %s (matched %q, %s layer, %s)\n", p, d.Action, d.Matched, d.Layer, d.Pos)
	}
	// Output:
	// main.go: allow (matched "*", policy layer, policy.jsonc:1:64)
	// config/.env: deny (matched "*.env", policy layer, policy.jsonc:1:38)
}

func TestPoolPreparesEachPolicyOnce(t *testing.T) {
	pool := runtime.NewPool()
	compile := func(src string) *compiler.Output {
		out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(src)}}, compiler.WithHome("/h"))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	ctx := context.Background()
	for _, want := range []string{"deny", "deny", "allow"} {
		src := `{"permission": {"read": "` + want + `"}}`
		e, err := runtime.New(ctx, compile(src), runtime.WithPool(pool), runtime.WithFS(facts.MapFS{}))
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.Decide(ctx, facts.Call{Tool: "read", Input: map[string]any{"path": "a"}})
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Action) != want {
			t.Errorf("pooled engine for %s decided %s", src, d.Action)
		}
	}
	if pool.Len() != 2 {
		t.Errorf("pool prepared %d policies, want 2", pool.Len())
	}
}

func TestBrokenPolicyKeepsHardGuards(t *testing.T) {
	out, err := compiler.Compile(compiler.Input{
		Policy:     &compiler.Source{Name: "policy.jsonc", Data: []byte(`{"permission": {"*": "allow",}}`)},
		HardGuards: &compiler.Source{Name: "hard-guards.jsonc", Data: []byte(`{"permission": {"path": {"*.env": "deny"}}}`)},
	}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := runtime.New(context.Background(), out, runtime.WithCwd("/r"), runtime.WithFS(facts.MapFS{}))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{".env": "deny", "a.txt": "ask"} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "read", Input: map[string]any{"path": path}})
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Action) != want {
			t.Errorf("read %s: %s [%s], want %s", path, d.Action, d.Matched, want)
		}
	}
}

// TestSessionApprovalLiftsWrapperFloor: "approve for this session" on a
// floored wrapper lets the same command through afterwards, while what the
// wrapper runs is still decided on its own.
func TestSessionApprovalLiftsWrapperFloor(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "allow", "bash": {"*": "allow", "rm *": "deny"}}}`)
	ctx := context.Background()
	decide := func(cmd string) runtime.Decision {
		t.Helper()
		d, err := e.Decide(ctx, facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := decide("sudo make install"); d.Action != "ask" || d.Matched != "<indirection-bash-wrapper>" {
		t.Fatalf("before the approval: %+v", d)
	}
	if err := e.Session().Approve(compiler.Approval{Surface: "bash", Pattern: "sudo make install"}); err != nil {
		t.Fatal(err)
	}
	if d := decide("sudo make install"); d.Action != "allow" || d.Layer != "session" {
		t.Fatalf("after the approval: %+v", d)
	}
	if d := decide("sudo make uninstall"); d.Action != "ask" {
		t.Fatalf("an approval of one command lifted the floor of another: %+v", d)
	}
	if err := e.Session().Approve(compiler.Approval{Surface: "bash", Pattern: "sudo *"}); err != nil {
		t.Fatal(err)
	}
	if d := decide("sudo rm -rf build"); d.Action != "deny" || d.Matched != "rm *" {
		t.Fatalf("the wrapped command must still be decided: %+v", d)
	}
}

// TestNoOutcomeIsTheFaultDefault: when no check has an outcome (a path no
// rule names, and nothing else), the decision is permission.rego's
// default, a deny that reports the fault.
func TestNoOutcomeIsTheFaultDefault(t *testing.T) {
	in := &facts.Input{Tool: "x", Checks: []facts.Check{{Surface: "path", Value: "/a", Forms: [][]string{{"/a"}}}}}
	e := newEngine(t, `{"permission": {"read": "allow"}}`)
	d, err := e.DecideFacts(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != "deny" || d.Matched != "<no-decision>" || d.Layer != "fault" || d.Message == "" {
		t.Fatalf("%+v", d)
	}
}
