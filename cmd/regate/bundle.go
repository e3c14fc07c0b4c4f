package main

import (
	"errors"
	"fmt"
	"os"

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
OPA's own signing (a .signatures.json). Serve it with

  opa run --server --bundle regate.tar.gz

and send the input documents of regate facts to POST /v1/data/regate/lib/permission/decision,
or /v1/data/regate/lib/message/response for the decision with the agent's message.`,
		Example: `  regate bundle --policy policy.jsonc -o regate.tar.gz
  regate bundle --policy policy.jsonc -o regate.tar.gz --signing-key private.pem --signing-alg RS256`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if p.out == "" {
				return withCode(exitUsage, errors.New("--out is required"))
			}
			out, err := p.rules.compile(a.stderr)
			if err != nil {
				return err
			}
			b, err := out.Bundle()
			if err != nil {
				return withCode(exitFault, err)
			}
			if p.signingKey != "" {
				if err := b.GenerateSignature(bundle.NewSigningConfig(p.signingKey, p.signingAlg, ""), p.keyID, false); err != nil {
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
			fmt.Fprintf(a.stdout, "%s: revision %s, %d modules\n", p.out, b.Manifest.Revision, len(b.Modules))
			return nil
		},
	}
	p.rules.bind(cmd)
	f := cmd.Flags()
	f.StringVarP(&p.out, "out", "o", "", "the bundle file to write (.tar.gz)")
	f.StringVar(&p.signingKey, "signing-key", "", "a PEM private key (or an HMAC secret) to sign the bundle with")
	f.StringVar(&p.signingAlg, "signing-alg", "RS256", "the signing algorithm (RS256, ES256, HS256, …)")
	f.StringVar(&p.keyID, "key-id", "", "the key id recorded in the signature")
	return cmd
}
