package conformance_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/bundle"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/conformance"
	"github.com/regate/regate/internal/testkit/stockopa"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
	regolib "github.com/regate/regate/rego"
	"github.com/regate/regate/runtime"
)

// decisionFields are what a stock server's decision and the embedded
// runtime's must agree on: the whole decision, message included.
func decisionFields(d runtime.Decision) map[string]any {
	return map[string]any{
		"action": string(d.Action), "matched": d.Matched, "layer": d.Layer, "surface": d.Surface, "value": d.Value,
		"origin": d.Origin, "at": d.At, "pos": d.Pos, "reason": d.Reason, "floor": d.Floor, "yolo": d.Yolo,
		"message": d.Message,
	}
}

func sameDecision(t *testing.T, id string, got any, want runtime.Decision) bool {
	t.Helper()
	w := decisionFields(want)
	g, _ := got.(map[string]any)
	for k, v := range w {
		if g[k] != v {
			gb, _ := json.Marshal(got)
			t.Errorf("%s: stock OPA decided %s; the embedded runtime %s=%v", id, gb, k, v)
			return false
		}
	}
	return true
}

// TestStockOPAAgrees sends the input document of every permission case to
// an unmodified opa server, built from the pinned module, that holds the
// library, the case's generated modules and its compiled rules, and
// requires the embedded runtime's decision. The server recompiles every
// module when one changes (a tenth of a second), so cases run grouped by
// their generated module: cases that share a policy share a compilation.
func TestStockOPAAgrees(t *testing.T) {
	t.Parallel()
	srv := stockopa.Start(t)
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.PutModules(lib); err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pool := runtime.NewPool()
	type compiledCase struct {
		c       *conformance.PermissionCase
		out     *compiler.Output
		modules string
	}
	var all []compiledCase
	for _, c := range cases {
		s := c.Setup()
		out, err := compiler.Compile(s.Input, compiler.WithHome(s.Home))
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		var mods strings.Builder
		for _, m := range out.Modules {
			mods.WriteString(m.Path + "\x00" + m.Text + "\x00")
		}
		all = append(all, compiledCase{c, out, mods.String()})
	}
	slices.SortStableFunc(all, func(a, b compiledCase) int { return strings.Compare(a.modules, b.modules) })
	loaded := map[string]string{}
	agreed := 0
	for _, cc := range all {
		c, out := cc.c, cc.out
		eng, call, err := c.Engine(ctx, pool)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		for _, m := range out.Modules {
			if loaded[m.Path] != m.Text {
				if err := srv.PutPolicy(m.Path, m.Text); err != nil {
					t.Fatalf("%s: %v", c.ID, err)
				}
				loaded[m.Path] = m.Text
			}
		}
		data, err := plainData(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.PutData("regate/rules", data["regate"].(map[string]any)["rules"]); err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		doc, err := eng.Input(call)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		got, err := srv.Query("regate/lib/permission/decision", doc)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		want, err := eng.Decide(ctx, call)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		if sameDecision(t, c.ID, got, want) {
			agreed++
		}
	}
	t.Logf("stock OPA agreed with the embedded runtime on %d of %d permission cases", agreed, len(cases))
}

// TestStockOPALoadsTheBundle writes the bundle of the bundled default
// policy, signed with OPA's signing, serves it with an unmodified opa
// server that verifies it, and requires the embedded runtime's decision for
// the workload's calls.
func TestStockOPALoadsTheBundle(t *testing.T) {
	t.Parallel()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policies/default.jsonc", Data: policies.Default()}},
		compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := out.Bundle()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	priv := filepath.Join(dir, "private.pem")
	pubPath := filepath.Join(dir, "public.pem")
	if err := os.WriteFile(priv, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pubPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := b.GenerateSignature(bundle.NewSigningConfig(priv, "RS256", ""), "regate", false); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "regate.tar.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := bundle.NewWriter(f).Write(*b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	srv := stockopa.Start(t, "--bundle", path, "--verification-key", pubPath, "--verification-key-id", "regate")
	ctx := context.Background()
	eng, err := runtime.New(ctx, out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}), runtime.WithCacheSize(0))
	if err != nil {
		t.Fatal(err)
	}
	calls := workload.Calls(workload.Seed, 300)
	for i, call := range calls {
		doc, err := eng.Input(call)
		if err != nil {
			t.Fatal(err)
		}
		got, err := srv.Query("regate/lib/permission/decision", doc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := eng.Decide(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(call)
		sameDecision(t, fmt.Sprintf("call %d %s", i, b), got, want)
	}
}
