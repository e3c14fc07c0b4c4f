package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/spf13/cobra"
)

type bundleParams struct {
	rules      ruleFlags
	out        string
	signingKey string
	signingAlg string
	keyID      string
}

func newBundleCmd(a *app) *cobra.Command {
	p := &bundleParams{}
	cmd := &cobra.Command{
		Use:   "bundle",
		Short: "write the compiled policy as an OPA bundle that a stock OPA server loads unchanged",
		Long: `bundle compiles the rule files and writes an OPA bundle (.tar.gz): a .manifest with the root
"regate" and the policy's hash as revision, the static library as stock OPA runs it, the
generated modules and the compiled rules as data. With --signing-key the bundle is signed with
OPA's own signing (a .signatures.json); the key is always a file (a PEM private key, or a file
holding an HMAC secret), and one that cannot be read is an error. Serve it with

  opa run --server --bundle regate.tar.gz

and send the input documents of regate facts to POST /v1/data/regate/lib/permission/decision,
or /v1/data/regate/lib/message/response for the decision with the agent's message.

A policy is never shipped broken: a rule file with an error, or an inline example the policy
does not satisfy, is exit 2 and no bundle is written.`,
		Example: `  regate bundle --policy policy.jsonc -o regate.tar.gz
  regate bundle --policy policy.jsonc -o regate.tar.gz --signing-key private.pem --signing-alg RS256`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			if p.out == "" {
				return withCode(exitUsage, errors.New("--out is required"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBundle(cmd.Context(), p, a.stdout, a.stderr)
		},
	}
	p.rules.bind(cmd)
	f := cmd.Flags()
	f.StringVarP(&p.out, "out", "o", "", "the bundle file to write (.tar.gz)")
	f.StringVar(&p.signingKey, "signing-key", "", "a file holding the key to sign the bundle with: a PEM private key, or an HMAC secret")
	f.StringVar(&p.signingAlg, "signing-alg", "RS256", "the signing algorithm (RS256, ES256, HS256, …)")
	f.StringVar(&p.keyID, "key-id", "", "the key id recorded in the signature")
	return cmd
}

func runBundle(ctx context.Context, p *bundleParams, stdout, stderr io.Writer) error {
	var signing *bundle.SigningConfig
	if p.signingKey != "" {
		key, err := signingKey(p.signingKey)
		if err != nil {
			return err
		}
		signing = bundle.NewSigningConfig(key, p.signingAlg, "")
	}
	out, err := p.rules.compile(stderr)
	if err != nil {
		return err
	}
	if err := refuseBrokenRules(out, "no bundle was written"); err != nil {
		return err
	}
	failed, err := failedExamples(ctx, out, stderr)
	if err != nil {
		return err
	}
	if failed > 0 {
		return withCode(exitBadRules, fmt.Errorf("%s the policy does not satisfy (printed above), so no bundle was written",
			plural(failed, "inline example")))
	}
	b, err := out.Bundle()
	if err != nil {
		return withCode(exitFault, err)
	}
	if signing != nil {
		if err := b.GenerateSignature(signing, p.keyID, false); err != nil {
			return withCode(exitUsage, fmt.Errorf("sign the bundle: %w", err))
		}
	}
	f, err := os.Create(p.out)
	if err != nil {
		return withCode(exitFault, err)
	}
	if err := bundle.NewWriter(f).Write(*b); err != nil {
		f.Close()
		return withCode(exitFault, err)
	}
	if err := f.Close(); err != nil {
		return withCode(exitFault, err)
	}
	fmt.Fprintf(stdout, "%s: revision %s, %d modules\n", p.out, b.Manifest.Revision, len(b.Modules))
	return nil
}

// signingKey is what OPA's signing config takes for the key file at path.
// OPA reads its Key as a file when a file of that name exists, and as the
// key itself otherwise, so a misspelt path would sign with the path's own
// text as an HMAC secret. regate reads the file first, and a path that
// cannot be read is an error. A PEM key is handed over as its text; any
// other key (an HMAC secret) as the path, which OPA reads as opa build
// --signing-key does, so both sign alike.
func signingKey(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", withCode(exitUsage, fmt.Errorf("--signing-key: %w", err))
	}
	if !info.Mode().IsRegular() {
		return "", withCode(exitUsage, fmt.Errorf("--signing-key: %s is not a regular file", path))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", withCode(exitUsage, fmt.Errorf("--signing-key: %w", err))
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return "", withCode(exitUsage, fmt.Errorf("--signing-key: %s is empty", path))
	}
	if text := string(b); strings.HasPrefix(strings.TrimSpace(text), "-----BEGIN") {
		return strings.TrimSpace(text), nil
	}
	return path, nil
}
