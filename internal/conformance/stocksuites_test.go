package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/internal/stockopa"
	regolib "github.com/regate/regate/rego"
	"github.com/regate/regate/runtime"
)

// TestStockOPAAgreesOnCeilingsAndProfiles sends the input document of
// every call of the delegation suite's ceiling cases, and of every profile
// case, to an unmodified opa server holding the library and the case's
// compiled data, and requires the embedded runtime's answer.
func TestStockOPAAgreesOnCeilingsAndProfiles(t *testing.T) {
	srv := stockopa.Start(t)
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.PutModules(lib); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ceilings, profiles := 0, 0
	for _, raw := range caseLines(t, "delegation.jsonl") {
		var c delegationCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if c.Op == "ceiling" {
			ceilings += stockCeiling(ctx, t, srv, c)
		}
	}
	for _, raw := range caseLines(t, "profile.jsonl") {
		var c profileCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		stockProfile(ctx, t, srv, &c)
		profiles++
	}
	t.Logf("stock OPA agreed on %d ceiling calls and %d profile cases", ceilings, profiles)
	if ceilings < 45 || profiles < 93 {
		t.Errorf("compared %d ceiling calls and %d profile cases; the suites hold more", ceilings, profiles)
	}
}

// corpusDir is the copy of the conformance cases (the external tests' corpus).
const corpusDir = "../../testdata/conformance"

func caseLines(t *testing.T, name string) [][]byte {
	f, err := os.Open(filepath.Join(corpusDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			out = append(out, append([]byte(nil), sc.Bytes()...))
		}
	}
	return out
}

// stockCeiling runs a ceiling case's calls through the embedded ceiling,
// asking stock OPA first with the same input, and returns the calls
// compared.
func stockCeiling(ctx context.Context, t *testing.T, srv *stockopa.Server, c delegationCase) int {
	var in struct {
		Policies   map[string]json.RawMessage `json:"policies"`
		Chain      []string                   `json:"chain"`
		ToolPolicy string                     `json:"toolPolicy"`
		Call       *ceilingCall               `json:"call"`
		Steps      []struct {
			Chain []string    `json:"chain"`
			Call  ceilingCall `json:"call"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(c.Inputs, &in); err != nil {
		t.Fatal(err)
	}
	_, out, err := compilePolicies(c.ID, in.Policies)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.PutPolicy(out.Module.Path, out.Module.Text); err != nil {
		t.Fatal(err)
	}
	if err := srv.PutData("regate/delegation", out.Data); err != nil {
		t.Fatal(err)
	}
	ceiling, err := runtime.NewCeiling(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		chain []string
		call  ceilingCall
	}
	steps := []step{}
	if in.Call != nil {
		steps = append(steps, step{in.Chain, *in.Call})
	}
	for _, s := range in.Steps {
		steps = append(steps, step{s.Chain, s.Call})
	}
	for i, s := range steps {
		rc, err := s.call.runtimeCall(s.chain, in.ToolPolicy)
		if err != nil {
			t.Fatal(err)
		}
		got, err := srv.Query("regate/lib/ceiling/decision", ceiling.Input(rc))
		if err != nil {
			t.Fatal(err)
		}
		want, err := ceiling.Decide(ctx, rc)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := got.(map[string]any)
		str := func(k string) string { s, _ := g[k].(string); return s }
		if str("decision") != want.Decision || str("violation") != want.Violation || str("layer") != want.Layer || str("policy") != want.Policy {
			t.Errorf("%s step %d: stock OPA %v; embedded %+v", c.ID, i, g, want)
		}
	}
	return len(steps)
}

func stockProfile(ctx context.Context, t *testing.T, srv *stockopa.Server, c *profileCase) {
	in := profile.Input{ProjectTrusted: c.ProjectTrusted, Profiles: c.files()}
	var err error
	if in.Global, err = configSource("global/config.json", c.Global); err != nil {
		t.Fatal(err)
	}
	if in.Project, err = configSource("project/config.json", c.Project); err != nil {
		t.Fatal(err)
	}
	out, err := profile.Compile(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.PutPolicy(out.Module.Path, out.Module.Text); err != nil {
		t.Fatal(err)
	}
	if err := srv.PutData("regate/profile", out.Data); err != nil {
		t.Fatal(err)
	}
	resolver, err := runtime.NewProfiles(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	req := runtime.ProfileRequest{Model: c.Model, Subagent: c.Subagent, Flags: c.flags(), Session: c.session()}
	got, err := srv.Query("regate/lib/profile/decision", resolver.Input(req))
	if err != nil {
		t.Fatal(err)
	}
	want, err := resolver.Resolve(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := got.(map[string]any)
	str := func(k string) string { s, _ := g[k].(string); return s }
	if str("profile") != want.Profile || str("mode") != want.Mode || str("selection_from") != want.SelectionFrom || str("binding") != want.Binding {
		t.Errorf("%s: stock OPA %v; embedded %+v", c.ID, g, want)
	}
}
