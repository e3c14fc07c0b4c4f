package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	profilerules "github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/internal/testkit/stockopa"
	regolib "github.com/regate/regate/rego"
	"github.com/regate/regate/runtime/delegate"
	"github.com/regate/regate/runtime/profile"
)

// TestStockOPAAgreesOnCeilingsAndProfiles sends the input document of
// every call of the delegation suite's ceiling cases, and of every profile
// case, to an unmodified opa server holding the library and the case's
// compiled data, and requires the embedded runtime's answer.
//
// The server recompiles every module when one changes, and a case's
// generated module only names its policies or config files: cases run
// grouped by that module, so 139 recompilations become 9.
func TestStockOPAAgreesOnCeilingsAndProfiles(t *testing.T) {
	t.Parallel()
	srv := stockopa.Start(t)
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.PutModules(lib); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	loaded := &loadedModules{srv: srv, text: map[string]string{}}
	var ceilingCases []delegationCase
	for _, raw := range caseLines(t, "delegation.jsonl") {
		var c delegationCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if c.Op == "ceiling" {
			ceilingCases = append(ceilingCases, c)
		}
	}
	ceilings, profiles := 0, 0
	for _, c := range groupedCeilings(t, ceilingCases) {
		ceilings += stockCeiling(ctx, t, loaded, c)
	}
	var profileCases []*profileCase
	for _, raw := range caseLines(t, "profile.jsonl") {
		var c profileCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		profileCases = append(profileCases, &c)
	}
	for _, c := range groupedProfiles(t, profileCases) {
		stockProfile(ctx, t, loaded, c)
		profiles++
	}
	t.Logf("stock OPA agreed on %d ceiling calls and %d profile cases (%d module loads)", ceilings, profiles, loaded.puts)
	if ceilings < 45 || profiles < 93 {
		t.Errorf("compared %d ceiling calls and %d profile cases; the suites hold more", ceilings, profiles)
	}
}

// loadedModules puts a module on the server only when its text changed.
type loadedModules struct {
	srv  *stockopa.Server
	text map[string]string
	puts int
}

func (l *loadedModules) put(path, text string) error {
	if l.text[path] == text {
		return nil
	}
	if err := l.srv.PutPolicy(path, text); err != nil {
		return err
	}
	l.text[path] = text
	l.puts++
	return nil
}

// groupedCeilings orders ceiling cases by their generated module.
func groupedCeilings(t *testing.T, cases []delegationCase) []delegationCase {
	key := func(c delegationCase) string {
		var in struct {
			Policies map[string]json.RawMessage `json:"policies"`
		}
		if err := json.Unmarshal(c.Inputs, &in); err != nil {
			t.Fatal(err)
		}
		_, out, err := compilePolicies(c.ID, in.Policies)
		if err != nil {
			t.Fatal(err)
		}
		return out.Module.Text
	}
	keys := map[string]string{}
	for _, c := range cases {
		keys[c.ID] = key(c)
	}
	slices.SortStableFunc(cases, func(a, b delegationCase) int { return strings.Compare(keys[a.ID], keys[b.ID]) })
	return cases
}

// groupedProfiles orders profile cases by their generated module.
func groupedProfiles(t *testing.T, cases []*profileCase) []*profileCase {
	keys := map[*profileCase]string{}
	for _, c := range cases {
		out, err := profilerules.Compile(profileInput(t, c))
		if err != nil {
			t.Fatal(err)
		}
		keys[c] = out.Module.Text
	}
	slices.SortStableFunc(cases, func(a, b *profileCase) int { return strings.Compare(keys[a], keys[b]) })
	return cases
}

func profileInput(t *testing.T, c *profileCase) profilerules.Input {
	in := profilerules.Input{ProjectTrusted: c.ProjectTrusted, Profiles: c.files()}
	var err error
	if in.Global, err = configSource("global/config.json", c.Global); err != nil {
		t.Fatal(err)
	}
	if in.Project, err = configSource("project/config.json", c.Project); err != nil {
		t.Fatal(err)
	}
	return in
}

// corpusDir is the copy of the conformance cases (the external tests' corpus).
const corpusDir = "../../../testdata/conformance"

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
func stockCeiling(ctx context.Context, t *testing.T, loaded *loadedModules, c delegationCase) int {
	srv := loaded.srv
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
	if err := loaded.put(out.Module.Path, out.Module.Text); err != nil {
		t.Fatal(err)
	}
	if err := srv.PutData("regate/delegation", out.Data); err != nil {
		t.Fatal(err)
	}
	ceiling, err := delegate.NewCeiling(ctx, out)
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

func stockProfile(ctx context.Context, t *testing.T, loaded *loadedModules, c *profileCase) {
	srv := loaded.srv
	out, err := profilerules.Compile(profileInput(t, c))
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.put(out.Module.Path, out.Module.Text); err != nil {
		t.Fatal(err)
	}
	if err := srv.PutData("regate/profile", out.Data); err != nil {
		t.Fatal(err)
	}
	resolver, err := profile.NewProfiles(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	req := profile.ProfileRequest{Model: c.Model, Subagent: c.Subagent, Flags: c.flags(), Session: c.session()}
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
