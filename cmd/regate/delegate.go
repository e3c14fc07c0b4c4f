package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/internal/rulefile"
)

func newDelegateCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "delegate",
		Short: "narrow delegation policies, prove a child within its parent, check policy files",
		Long: `delegate works on delegation policies: the policy a host gives a child agent, no wider than its
parent's. narrow derives a child from a parent and a request, subset proves a child within a parent,
and check validates policy files. Problems are printed with file:line:col; a widening request or an
unproven subset exits 7. The keys of a policy file are in docs/policy.md ("Delegation policy files");
how the proofs work is in docs/delegation.md.`,
	}
	cmd.AddCommand(newDelegateNarrowCmd(a), newDelegateSubsetCmd(a), newDelegateCheckCmd(a))
	return cmd
}

// readPolicy decodes a delegation policy file; a file that cannot be read
// or decoded is exit 2, with every error positioned.
func readPolicy(path string) (*delegation.Policy, error) {
	b, err := readDelegationFile(path)
	if err != nil {
		return nil, err
	}
	p, err := delegation.Decode(path, b)
	if err != nil {
		return nil, withCode(exitBadRules, err)
	}
	return p, nil
}

// readDelegationFile reads a policy or request file as every rule file is
// read (rulefile.Read, as readSource): a regular file only, opened without
// waiting (a FIFO or a device is an error, not a hang), and no larger than
// compiler.MaxFileSize. A file past the limit goes to the decoder as read,
// whose file_too_large error refuses it with its position.
func readDelegationFile(path string) ([]byte, error) {
	b, err := rulefile.Read(path, compiler.MaxFileSize)
	if err != nil && !errors.Is(err, rulefile.ErrTooLarge) {
		return nil, withCode(exitBadRules, err)
	}
	return b, nil
}

// problemCount is "1 problem", "3 problems".
func problemCount(n int) string {
	if n == 1 {
		return "1 problem"
	}
	return fmt.Sprintf("%d problems", n)
}

// printProblems prints problems in file order (those without a position
// last, as found).
func printProblems(w io.Writer, ps []delegation.Problem) {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b delegation.Problem) int {
		if a.Pos.File == "" || b.Pos.File == "" {
			return cmp.Compare(b.Pos.File, a.Pos.File) // positioned first
		}
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	for _, p := range ps {
		fmt.Fprintln(w, p)
	}
}
