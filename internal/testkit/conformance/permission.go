package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// PermissionCase is one case of the permission suite (FORMAT.md).
type PermissionCase struct {
	ID         string          `json:"id"`
	Policy     json.RawMessage `json:"policy"`
	HardGuards json.RawMessage `json:"hardGuards"`
	Agent      *struct {
		Name       string          `json:"name"`
		Permission json.RawMessage `json:"permission"`
	} `json:"agent"`
	Session *struct {
		Approvals []compiler.Approval `json:"approvals"`
	} `json:"session"`
	Env struct {
		Cwd   string            `json:"cwd"`
		Home  string            `json:"home"`
		Files map[string]string `json:"files"`
	} `json:"env"`
	Call struct {
		Tool       string         `json:"tool"`
		Input      map[string]any `json:"input"`
		Registered []string       `json:"registered"`
	} `json:"call"`
	Expect struct {
		Decision       string `json:"decision"`
		Matched        string `json:"matched"`
		ReasonContains string `json:"reasonContains"`
	} `json:"expect"`
}

// Setup is what a case means to regate: the rule files, the host's
// environment and the call.
type Setup struct {
	Input     compiler.Input
	Cwd, Home string
	FS        facts.FS
	Call      facts.Call
}

// Setup turns the case into compiler input, an environment and a call.
func (c *PermissionCase) Setup() Setup {
	cwd, home := c.Env.Cwd, c.Env.Home
	if cwd == "" {
		cwd = "/home/u/repo"
	}
	if home == "" {
		home = "/home/u"
	}
	var in compiler.Input
	if len(c.Policy) > 0 {
		in.Policy = &compiler.Source{Name: "policy.jsonc", Data: c.Policy}
	}
	if len(c.HardGuards) > 0 {
		in.HardGuards = &compiler.Source{Name: "hard-guards.jsonc", Data: c.HardGuards}
	}
	call := facts.Call{Tool: c.Call.Tool, Input: c.Call.Input, Registered: c.Call.Registered}
	if c.Agent != nil {
		// JSON is YAML, so the agent's map is its frontmatter as it stands.
		md := fmt.Sprintf("---\nname: %s\npermission: %s\n---\n", c.Agent.Name, c.Agent.Permission)
		in.Agents = []compiler.Source{{Name: "agents/" + c.Agent.Name + ".md", Data: []byte(md)}}
		call.Agent = c.Agent.Name
	}
	fsys := facts.MapFS(c.Env.Files)
	if fsys == nil {
		fsys = facts.MapFS{}
	}
	return Setup{Input: in, Cwd: cwd, Home: home, FS: fsys, Call: call}
}

func runPermission(ctx context.Context, pool *runtime.Pool, raw []byte) Result {
	var c PermissionCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return Result{Want: "a valid case", Got: "an error", Detail: err.Error()}
	}
	r := Result{Want: summary(c.Expect.Decision, c.Expect.Matched)}
	d, err := DecidePermission(ctx, pool, &c)
	if err != nil {
		r.Got, r.Detail = "error", err.Error()
		return r
	}
	matched := ""
	if c.Expect.Matched != "" {
		matched = d.Matched
	}
	r.Got = summary(string(d.Action), matched)
	r.Passed = string(d.Action) == c.Expect.Decision && matched == c.Expect.Matched
	if r.Passed && c.Expect.ReasonContains != "" && !strings.Contains(d.Message, c.Expect.ReasonContains) {
		r.Passed = false
		r.Detail = fmt.Sprintf("message %q lacks %q", d.Message, c.Expect.ReasonContains)
	}
	return r
}

// DecidePermission compiles the case's rule files and decides its call.
// Cases that share rules share one prepared query through pool.
func DecidePermission(ctx context.Context, pool *runtime.Pool, c *PermissionCase) (runtime.Decision, error) {
	eng, call, err := c.Engine(ctx, pool)
	if err != nil {
		return runtime.Decision{}, err
	}
	return eng.Decide(ctx, call)
}

// Engine compiles the case's rule files into an engine with the case's
// environment and session, and returns it with the case's call. Extra
// options come last.
func (c *PermissionCase) Engine(ctx context.Context, pool *runtime.Pool, opts ...runtime.Option) (*runtime.Engine, facts.Call, error) {
	return c.EngineWith(ctx, pool, nil, opts...)
}

// EngineWith is Engine with the compiled output edited first (a test turns
// strict mode on this way). An edited output must not share a pool with
// the unedited one: its hash is the same.
func (c *PermissionCase) EngineWith(ctx context.Context, pool *runtime.Pool, edit func(*compiler.Output), opts ...runtime.Option) (*runtime.Engine, facts.Call, error) {
	s := c.Setup()
	out, err := compiler.Compile(s.Input, compiler.WithHome(s.Home))
	if err != nil {
		return nil, s.Call, err
	}
	if edit != nil {
		edit(out)
	}
	opts = append([]runtime.Option{runtime.WithCwd(s.Cwd), runtime.WithFS(s.FS), runtime.WithPool(pool)}, opts...)
	eng, err := runtime.New(ctx, out, opts...)
	if err != nil {
		return nil, s.Call, err
	}
	if c.Session != nil && len(c.Session.Approvals) > 0 {
		if err := eng.Session().Approve(c.Session.Approvals...); err != nil {
			return nil, s.Call, err
		}
	}
	return eng, s.Call, nil
}

// PermissionCases reads every permission case of a JSON Lines file.
func PermissionCases(path string) ([]*PermissionCase, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []*PermissionCase
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c PermissionCase
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("%s:%d:1: %w", path, i+1, err)
		}
		out = append(out, &c)
	}
	return out, nil
}
