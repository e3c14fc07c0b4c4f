package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestCredentialStores: both bundled policies deny the credentials
// command-line tools keep in the home folder (git's and curl's, the
// package registries' tokens, docker's, kubectl's, gh's, gcloud's, az's,
// vault's, the GnuPG keyring), to the read tool and to a shell read alike,
// and a recursive read that reaches one asks; they were allowed by "*"
// before the sixth stop of 2026-12-07, where only ~/.ssh and ~/.aws were
// kept. The rest of the home's configuration stays readable.
func TestCredentialStores(t *testing.T) {
	stores := []string{
		".netrc", ".git-credentials", ".npmrc", ".pypirc", ".cargo/credentials.toml",
		".docker/config.json", ".kube/config", ".config/gh/hosts.yml", ".vault-token",
		".config/gcloud/application_default_credentials.json", ".azure/msal_token_cache.json",
		".gnupg/private-keys-v1.d/key.key", ".gnupg/x.env.example",
	}
	fixture := facts.MapFS{"/home/u/.gitconfig": "file", "/home/u/.config/git/ignore": "file"}
	for _, s := range stores {
		fixture["/home/u/"+s] = "file"
	}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fixture))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fixture))
	var rows []policyRow
	for _, s := range stores {
		rows = append(rows, policyRow{"cat ~/" + s, "deny", "deny"})
		for name, e := range map[string]*runtime.Engine{"developer": developer, "default": def} {
			d, err := e.Decide(context.Background(), facts.Call{Tool: "read", Input: map[string]any{"path": "/home/u/" + s}})
			if err != nil || d.Action != "deny" {
				t.Errorf("%s: read ~/%s: %s (%s, %v); want deny", name, s, d.Action, d.Matched, err)
			}
		}
	}
	rows = append(rows,
		policyRow{"grep -r token ~/.config", "ask", "ask"},
		policyRow{"cat ~/.gitconfig", "allow", "allow"},
		policyRow{"cat ~/.config/git/ignore", "allow", "allow"},
		policyRow{"ls ~/.config", "allow", "allow"},
	)
	decideUnderBoth(t, developer, def, rows)
}
