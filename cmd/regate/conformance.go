package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/regate/regate/internal/testkit/conformance"
)

type conformanceParams struct {
	quiet bool
}

func newConformanceCmd(a *app) *cobra.Command {
	p := &conformanceParams{}
	cmd := &cobra.Command{
		Use:   "conformance PATH…",
		Short: "run conformance case files and print N passed, N failed",
		Long: `conformance runs every case of the given JSON Lines files (any suite: permission,
delegation, profile). Each failure is printed on one line as
FAIL <id>: want <decision> [<matched>], got <decision> [<matched>]; each file ends with its
counts and the run with the total, N passed, N failed. A suite regate cannot run yet counts
its cases as failed. Exit 6 when a case failed. Progress goes to stderr: a live line on a
terminal, otherwise a line every few seconds once the run has taken five.`,
		Example: `  regate conformance testdata/conformance/*.jsonl`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConformance(cmd.Context(), p, args, a.stdout, a.stderr)
		},
	}
	cmd.Flags().BoolVarP(&p.quiet, "quiet", "q", false, "print only the counts")
	return cmd
}

func runConformance(ctx context.Context, p *conformanceParams, paths []string, stdout, stderr io.Writer) error {
	total, totalFailed := 0, 0
	for _, path := range paths {
		pr := newProgress(stderr, "conformance "+path)
		rs, err := conformance.RunFileProgress(ctx, path, pr.update)
		pr.finish()
		if err != nil {
			return withCode(exitUsage, err)
		}
		for _, r := range rs {
			if !r.Passed && !p.quiet {
				fmt.Fprintln(stdout, r.Line())
			}
		}
		passed, failed := conformance.Count(rs)
		fmt.Fprintf(stdout, "%s: %d passed, %d failed\n", path, passed, failed)
		total += passed
		totalFailed += failed
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", total, totalFailed)
	if totalFailed > 0 {
		return withCode(exitFailed, nil)
	}
	return nil
}
