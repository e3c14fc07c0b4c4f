package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/printable"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
	"github.com/regate/regate/runtime/suggest"
)

type suggestParams struct {
	rules    ruleFlags
	reviews  []string
	logs     []string
	min      int
	cwd      string
	write    bool
	format   string
	sessions bool
	state    stateFlags
	// unsigned takes review-log lines without a MAC as evidence.
	unsigned bool
}

func newSuggestCmd(a *app) *cobra.Command {
	p := &suggestParams{}
	cmd := &cobra.Command{
		Use:   "suggest",
		Short: "propose rules that turn what people approved again and again into allows",
		Long: `suggest reads review logs (permission-review.jsonl: every ask with its answer, session and time)
and decision logs, and proposes rules that would have allowed the asks people approved at least
--min times: grouped by a command's program and subcommand (then by its program alone), a path's
folder or an MCP target's server, and never wider than the words every approval shares
("git checkout -b *", not "git checkout *").

Nothing is suggested that matches a call that was denied, that a person rejected, or that a floor or
a hard guard decided; each suggestion is checked by deciding every call of the logs again with it
added (as regate diff does), and dropped if any such call would be decided more loosely. Each comes
with its evidence (approvals, sessions, first and last seen) and the calls it changes.

--sessions adds the patterns regate approve recorded for whole sessions (the state folder, under
this policy): one approved in --min sessions is a candidate exactly as it was written.

The suggestions are printed as JSONC to paste into the policy, or written into it with --write,
after its surface's last rule, with a comment, leaving the rest of the file as it was.`,
		Example: `  regate suggest --policy policy.jsonc --review ~/.local/state/regate/logs/permission-review.jsonl
  regate suggest --policy policy.jsonc --review review.jsonl --log decisions.jsonl --write
  regate diff policy.jsonc.orig policy.jsonc --calls calls.jsonl`,
		Args: cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) error {
			if len(p.reviews) == 0 && !p.sessions {
				return withCode(exitUsage, fmt.Errorf("give at least one --review log, or --sessions"))
			}
			if p.write && p.rules.policy == "" {
				return withCode(exitUsage, fmt.Errorf("--write needs --policy: the bundled default policy is not a file to write"))
			}
			if p.format != "jsonc" && p.format != "json" {
				return withCode(exitUsage, fmt.Errorf("--format is %q; use jsonc or json", p.format))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSuggest(cmd.Context(), p, a.stdout, a.stderr)
		},
	}
	p.rules.bind(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&p.reviews, "review", nil, "a review log, permission-review.jsonl (repeatable)")
	fl.StringArrayVar(&p.logs, "log", nil, "a decision log, decisions.jsonl, whose denied and floored calls no suggestion may match (repeatable)")
	fl.IntVar(&p.min, "min", 2, "how many approvals a suggestion needs")
	fl.StringVar(&p.cwd, "cwd", "", "the working directory the calls are decided in again (default: the current one)")
	fl.BoolVar(&p.write, "write", false, "write the suggestions into the --policy file")
	fl.StringVarP(&p.format, "format", "f", "jsonc", "jsonc or json")
	fl.BoolVar(&p.sessions, "sessions", false, "also read the patterns regate approve recorded for whole sessions under this policy, in the state folder")
	fl.BoolVar(&p.unsigned, "trust-unsigned", false, "take review-log lines that carry no valid MAC as evidence too (logs of a host that does not sign them; docs/self-protection.md)")
	fl.StringVar(&p.state.dir, "state-dir", "", "the state folder --sessions reads (default $REGATE_STATE_DIR, else regate's folder in the user cache folder)")
	return cmd
}

func runSuggest(ctx context.Context, p *suggestParams, stdout, stderr io.Writer) error {
	out, err := p.rules.compile(stderr)
	if err != nil {
		return err
	}
	if err := refuseBrokenRules(out, "nothing was suggested"); err != nil {
		return err
	}
	in, err := p.rules.input()
	if err != nil {
		return err
	}
	verify, err := p.reviewVerifier()
	if err != nil {
		return err
	}
	var evidence []suggest.Record
	for _, name := range p.reviews {
		recs, unverified, err := readEvidence(name, func(r io.Reader, name string) ([]suggest.Record, []string, error) {
			return suggest.ReadReviews(r, name, verify)
		})
		if err != nil {
			return withCode(exitUsage, err)
		}
		if len(unverified) > 0 {
			fmt.Fprintf(stderr, "suggest: %d line(s) of %s ignored: a repeat of an earlier line, or no MAC that verifies under the state folder's key (written by something other than the host, or by a host that does not sign; --trust-unsigned takes those): %s\n",
				len(unverified), name, strings.Join(firstN(unverified, 5), ", "))
		}
		evidence = append(evidence, recs...)
	}
	for _, name := range p.logs {
		recs, _, err := readEvidence(name, func(r io.Reader, name string) ([]suggest.Record, []string, error) {
			recs, err := suggest.ReadDecisions(r, name)
			return recs, nil, err
		})
		if err != nil {
			return withCode(exitUsage, err)
		}
		evidence = append(evidence, recs...)
	}
	cwd, err := workingDir(p.cwd)
	if err != nil {
		return err
	}
	opts := suggest.Options{
		MinApprovals: p.min,
		Engine: func(ctx context.Context, out *compiler.Output) (*runtime.Engine, error) {
			return engine(ctx, out, cwd, nil)
		},
	}
	if out.Home != "" {
		opts.Compile = []compiler.Option{compiler.WithHome(out.Home)}
	}
	if p.sessions {
		dir, err := p.state.dirAt()
		if err != nil {
			return withCode(exitUsage, err)
		}
		policy, err := p.rules.policyID()
		if err != nil {
			return err
		}
		if opts.Sessions, err = dir.AllApprovals(policy); err != nil {
			return withCode(exitUsage, err)
		}
	}
	res, err := suggest.Suggest(ctx, in, evidence, opts)
	if err != nil {
		return withCode(exitFault, err)
	}
	if p.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res.Suggestions); err != nil {
			return err
		}
	} else {
		writeSuggestions(stdout, res.Suggestions)
	}
	if p.write && len(res.Suggestions) > 0 {
		if err := writeFileAtomic(p.rules.policy, res.Policy, false); err != nil {
			return withCode(exitFault, err)
		}
		fmt.Fprintf(stderr, "suggest: %d rule(s) written into %s\n", len(res.Suggestions), p.rules.policy)
	}
	return nil
}

func readEvidence(name string, read func(io.Reader, string) ([]suggest.Record, []string, error)) ([]suggest.Record, []string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return read(f, name)
}

// reviewVerifier checks the review logs' lines against the state folder's
// log key (statedir.LogKey): an approval an agent appended carries no MAC
// that verifies, and a line that repeats an earlier one (a signed line
// copied again, to reach --min) counts once. With --trust-unsigned, a line
// without a MAC is taken as it is, and a signed line still has to verify.
func (p *suggestParams) reviewVerifier() (suggest.Verify, error) {
	dir, err := p.state.dirAt()
	if err != nil {
		if p.unsigned {
			return nil, nil
		}
		return nil, withCode(exitUsage, fmt.Errorf("the state folder holds the key that review logs are signed with: %w", err))
	}
	key, err := dir.LogKey()
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	seen := map[string]bool{}
	return func(line []byte) ([]byte, bool) {
		if seen[string(line)] {
			return line, false // a signed line copied again counts once
		}
		seen[string(line)] = true
		if unsigned, ok := runtime.VerifyLine(key, ask.ReviewLogFile, line); ok {
			return unsigned, true
		}
		return line, p.unsigned && !bytes.Contains(line, []byte(`"mac":`))
	}, nil
}

// firstN is at most the first n of xs, with "…" when there were more.
func firstN(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(xs[:n:n], "…")
}

// writeSuggestions prints each suggestion as a JSONC member of its surface
// map, with its evidence and the calls it changes as comments.
func writeSuggestions(w io.Writer, ss []suggest.Suggestion) {
	if len(ss) == 0 {
		fmt.Fprintln(w, "// no suggestion: no group of approvals is large enough, or each would loosen a denied, rejected or floored call")
		return
	}
	for _, s := range ss {
		asks := 0
		for _, c := range s.Changes {
			if c.Before.Action == "ask" && c.After.Action == "allow" {
				asks++
			}
		}
		fmt.Fprintf(w, "// %q map: %d approvals in %d sessions", s.Surface, s.Approvals, len(s.Sessions))
		if s.First != "" {
			fmt.Fprintf(w, ", %s to %s", s.First, s.Last)
		}
		fmt.Fprintf(w, "; %d asks of the logs become allows, %d calls change in all\n", asks, len(s.Changes))
		pattern, _ := json.Marshal(s.Pattern)
		fmt.Fprintf(w, "%s: %q,\n", printable.String(string(pattern)), s.Action)
	}
}
