package main

import (
	"context"
	"fmt"
	"io"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/hosts/importrules"
	"github.com/regate/regate/internal/printable"
	"github.com/regate/regate/runtime"
)

// printImport prints what an import read, wrote and left out. Every rule
// is quoted from a file the user may not have written, so it is printed
// with its non-printable characters escaped.
func printImport(w io.Writer, host string, res importrules.Result) {
	if len(res.Files) == 0 {
		fmt.Fprintf(w, "%s: no rule files found; the starter files are the bundled ones.\n", hostTitle(host))
		return
	}
	imported, left := res.Imported(), res.LeftOut()
	fmt.Fprintf(w, "%s's rules: %d imported, %d left out, from\n", hostTitle(host), len(imported), len(left))
	for _, f := range res.Files {
		fmt.Fprintf(w, "  %s\n", printable.String(f))
	}
	if len(imported) > 0 {
		fmt.Fprintln(w, "Imported:")
		for _, r := range imported {
			fmt.Fprintf(w, "  %s: %s (%s) -> %s\n", r.From, printable.String(r.Text), r.Action, printable.String(r.Describe()))
			if r.Note != "" {
				fmt.Fprintf(w, "      note: %s\n", printable.String(r.Note))
			}
		}
	}
	if len(left) > 0 {
		fmt.Fprintln(w, "Left out:")
		for _, r := range left {
			action := ""
			if r.Action != "" {
				action = " (" + string(r.Action) + ")"
			}
			fmt.Fprintf(w, "  %s: %s%s: %s\n", r.From, printable.String(r.Text), action, printable.String(r.Skipped))
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "Note: %s\n", printable.String(n))
	}
}

// dropFailingExamples decides the starter's inline examples under the
// imported rules and takes out each one they no longer hold, saying so:
// the examples describe the bundled starter, and an imported rule may
// rightly decide one of their calls otherwise. A policy that does not
// compile is returned as it is, for check to report.
func dropFailingExamples(ctx context.Context, policyPath, guardsPath string, st importrules.Starter, w io.Writer) ([]byte, error) {
	out, err := compiler.Compile(compiler.Input{
		Policy:     &compiler.Source{Name: policyPath, Data: st.Policy},
		HardGuards: &compiler.Source{Name: guardsPath, Data: st.HardGuards},
	})
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	if len(out.Diagnostics.Fatal()) > 0 || len(out.Examples) == 0 {
		return st.Policy, nil
	}
	eng, err := engine(ctx, out, "/", nil)
	if err != nil {
		return nil, err
	}
	results, err := eng.CheckExamples(ctx)
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	var at []importrules.Pos
	for _, r := range results {
		if r.Passed {
			continue
		}
		if len(at) == 0 {
			fmt.Fprintln(w, "The starter's examples the imported rules decide otherwise (taken out):")
		}
		at = append(at, importrules.Pos{Line: r.Example.Pos.Line, Col: r.Example.Pos.Col})
		fmt.Fprintf(w, "  %s %s expected %s%s, now %s (matched %q)\n", r.Example.Tool, printable.String(exampleInput(r)),
			r.Example.Expect, matchedNote(r.Example.Matched), r.Decision.Action, r.Decision.Matched)
	}
	if len(at) == 0 {
		return st.Policy, nil
	}
	src, _, err := importrules.DropExamples(st.Policy, at)
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	return src, nil
}

// exampleInput is an example's call input in one line.
func exampleInput(r runtime.ExampleResult) string {
	for _, k := range []string{"command", "path"} {
		if s, ok := r.Example.Input[k].(string); ok {
			return fmt.Sprintf("%q", s)
		}
	}
	return fmt.Sprint(r.Example.Input)
}
