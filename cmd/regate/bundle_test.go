package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/bundle"
)

// TestBundleSigningKey: a bundle is signed with the key in the file
// --signing-key names (an HMAC secret or a PEM key) and verifies with that
// key; a path that is not a readable file signs nothing.
func TestBundleSigningKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	policy := write("policy.jsonc", `{"permission": {"*": "ask"}}`)
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalECPrivateKey(priv)
	pubDER, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	privPEM := string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))
	pubPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))

	for _, c := range []struct {
		name, key, alg, verifyWith string
		wantCode                   int
	}{
		{name: "an HMAC secret in a file", key: write("secret", "s3cret\n"), alg: "HS256", verifyWith: "s3cret\n"},
		{name: "a PEM key", key: write("ec.pem", privPEM), alg: "ES256", verifyWith: pubPEM},
		{name: "a misspelt path", key: filepath.Join(dir, "secrte"), alg: "HS256", wantCode: exitUsage},
		{name: "a folder", key: dir, alg: "HS256", wantCode: exitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "b.tar.gz")
			var stdout, stderr bytes.Buffer
			code := Main([]string{"bundle", "--policy", policy, "-o", out, "--signing-key", c.key, "--signing-alg", c.alg},
				strings.NewReader(""), &stdout, &stderr)
			if code != c.wantCode {
				t.Fatalf("exit %d; want %d: %s", code, c.wantCode, stderr.String())
			}
			if c.wantCode != 0 {
				if _, err := os.Stat(out); err == nil {
					t.Error("a bundle was written")
				}
				return
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			keys := map[string]*bundle.KeyConfig{"k": {Key: c.verifyWith, Algorithm: c.alg}}
			_, err = bundle.NewReader(f).WithBundleVerificationConfig(bundle.NewVerificationConfig(keys, "k", "", nil)).Read()
			if err != nil {
				t.Errorf("the bundle does not verify with the key in the file: %v", err)
			}
		})
	}
}
