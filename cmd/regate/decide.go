package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/jsonwords"
	"github.com/regate/regate/runtime"
)

type decideParams struct {
	rules      ruleFlags
	tool       string
	input      string
	call       string
	calls      string
	agent      string
	cwd        string
	registered []string
	approvals  []string
	format     string
	exitCode   bool
	logDir     string
}

func newDecideCmd(a *app) *cobra.Command {
	p := &decideParams{}
	cmd := &cobra.Command{
		Use:   "decide",
		Short: "decide tool calls: allow, ask or deny",
		Long: `decide decides one call (--tool and --input, or --call) or every call of a JSON Lines file
(--calls FILE, - for standard input), against the rule files named by the flags or the bundled
default policy, and prints each decision as a table or as JSON.

A call is {"tool": NAME, "input": {…}, "registered": […], "agent": NAME}.

Exit codes: 0 decided; with --exit-code, 1 when a call was denied and 3 when a call asks and
none was denied; 2 a rule file cannot be read; 4 bad flags or call; 5 regate could not decide
(the host must block the call).`,
		Example: `  regate decide --calls testdata/calls.jsonl
  regate decide --tool bash --input '{"command":"npm install"}' --format json
  regate decide --policy policy.jsonc --call '{"tool":"read","input":{"path":".env"}}'`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if err := p.oneCallSource(); err != nil {
				return err
			}
			if p.format != "table" && p.format != "json" {
				return withCode(exitUsage, fmt.Errorf("--format is %q; use table or json", p.format))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDecide(cmd.Context(), p, a.stdin, a.stdout, a.stderr)
		},
	}
	p.rules.bind(cmd)
	fl := cmd.Flags()
	fl.StringVar(&p.tool, "tool", "", "the tool's registered name")
	fl.StringVar(&p.input, "input", "{}", "the tool's arguments as a JSON object (with --tool)")
	fl.StringVar(&p.call, "call", "", "one call as a JSON object")
	fl.StringVar(&p.calls, "calls", "", "a JSON Lines file of calls, or - for standard input")
	fl.StringVar(&p.agent, "agent", "", "the active agent (overrides a call's own)")
	fl.StringVar(&p.cwd, "cwd", "", "the session's working directory (default: the current directory)")
	fl.StringSliceVar(&p.registered, "registered", nil, "tools registered in the session; others are blocked")
	fl.StringArrayVar(&p.approvals, "approve", nil, "a session approval SURFACE=PATTERN (repeatable)")
	fl.StringVarP(&p.format, "format", "f", "table", "output format: table or json")
	fl.BoolVar(&p.exitCode, "exit-code", false, "exit 1 when a call is denied, 3 when one asks")
	fl.StringVar(&p.logDir, "decision-log", "", "append every decision, in OPA's decision-log shape, to DIR/decisions.jsonl (owner-only, sensitive keys masked)")
	return cmd
}

// decided is one call and its decision, as --format json prints it.
type decided struct {
	Call     facts.Call       `json:"call"`
	Decision runtime.Decision `json:"decision"`
}

func runDecide(ctx context.Context, p *decideParams, stdin io.Reader, stdout, stderr io.Writer) error {
	calls, err := p.readCalls(stdin)
	if err != nil {
		return err
	}
	p.rules.cwd = p.cwd
	if p.logDir != "" {
		p.rules.logDirs = []string{p.logDir}
	}
	out, err := p.rules.compile(stderr)
	if err != nil {
		return err
	}
	cwd, err := workingDir(p.cwd)
	if err != nil {
		return err
	}
	var eng *runtime.Engine
	if p.logDir != "" {
		l, err := runtime.OpenDecisionLog(p.logDir, out.Knobs.ReviewLogFieldMaxWidth)
		if err != nil {
			return withCode(exitFault, err)
		}
		defer l.Close()
		eng, err = runtime.New(ctx, out, runtime.WithCwd(cwd), runtime.WithDecisionLog(l))
		if err != nil {
			return withCode(exitFault, err)
		}
	} else if eng, err = engine(ctx, out, cwd, nil); err != nil {
		return err
	}
	if err := approveFlags(eng, p.approvals); err != nil {
		return err
	}
	results := make([]decided, 0, len(calls))
	pr := newProgress(stderr, "decide: calls")
	for _, c := range calls {
		d, err := eng.Decide(ctx, c)
		if err != nil {
			pr.finish()
			return withCode(exitFault, fmt.Errorf("%s: %w (block this call)", callSummary(c), err))
		}
		results = append(results, decided{Call: c, Decision: d})
		pr.update(len(results), len(calls))
	}
	pr.finish()
	if err := printDecisions(stdout, p.format, results); err != nil {
		return withCode(exitFault, err)
	}
	return p.exitFor(results)
}

func (p *decideParams) exitFor(results []decided) error {
	if !p.exitCode {
		return nil
	}
	code := exitOK
	for _, r := range results {
		switch r.Decision.Action {
		case "deny":
			return withCode(exitDeny, nil)
		case "ask":
			code = exitAsk
		}
	}
	if code != exitOK {
		return withCode(code, nil)
	}
	return nil
}

// oneCallSource checks that exactly one of --tool, --call and --calls
// names the calls.
func (p *decideParams) oneCallSource() error {
	n := 0
	for _, set := range []bool{p.tool != "", p.call != "", p.calls != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return withCode(exitUsage, errors.New("give exactly one of --tool, --call or --calls (- for standard input)"))
	}
	return nil
}

func (p *decideParams) readCalls(stdin io.Reader) ([]facts.Call, error) {
	var calls []facts.Call
	switch {
	case p.tool != "":
		var in map[string]any
		if err := json.Unmarshal([]byte(p.input), &in); err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--input: %w", jsonwords.Problem(err)))
		}
		calls = []facts.Call{{Tool: p.tool, Input: in}}
	case p.call != "":
		c, err := parseCall([]byte(p.call))
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--call: %w", err))
		}
		calls = []facts.Call{c}
	default:
		var err error
		if calls, err = readCallsFile(p.calls, stdin); err != nil {
			return nil, withCode(exitUsage, err)
		}
	}
	for i := range calls {
		if p.agent != "" {
			calls[i].Agent = p.agent
		}
		if p.registered != nil {
			calls[i].Registered = p.registered
		}
	}
	return calls, nil
}

func readCallsFile(name string, stdin io.Reader) ([]facts.Call, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	var calls []facts.Call
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		c, err := parseCall(b)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:1: %w", name, line, err)
		}
		calls = append(calls, c)
	}
	return calls, sc.Err()
}

func parseCall(b []byte) (facts.Call, error) {
	var c facts.Call
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&c); err != nil {
		return c, jsonwords.Problem(err)
	}
	if c.Tool == "" {
		return c, errors.New(`a call needs "tool"`)
	}
	return c, nil
}

func printDecisions(w io.Writer, format string, results []decided) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CALL\tDECISION\tMATCHED\tLAYER\tRULE AT\tDECIDED ON\tREASON")
	for _, r := range results {
		d := r.Decision
		action := d.Action
		if d.Yolo {
			action += " (yolo)"
		}
		matched := d.Matched
		if matched == "" {
			matched = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", truncate(callSummary(r.Call), 48), action, matched, d.Layer, d.Pos, decidedOn(d), reasonCell(d))
	}
	return tw.Flush()
}

// decidedOn names the check that decided: the surface, the value (a bash
// unit or a path token), where a unit was found and where it stands in the
// command.
func decidedOn(d runtime.Decision) string {
	s := fmt.Sprintf("%s %s", d.Surface, strconv.Quote(truncate(d.Value, 40)))
	if d.Origin != "" {
		s += " " + d.Origin
	}
	if d.At != "" {
		s += " @" + d.At
	}
	return s
}

// reasonCell is the decision's reason for the table: the rule's own
// reason, else the floor that raised an allow to ask, else "-". A reason is
// one line of at most 60 characters here; --format json has it whole.
func reasonCell(d runtime.Decision) string {
	r := d.Reason
	if r == "" && d.Floor != "" {
		r = "floor: " + d.Floor
	}
	if r == "" {
		return "-"
	}
	return truncate(oneLine(r), 60)
}

// callSummary names a call by its tool and the argument that identifies it.
func callSummary(c facts.Call) string {
	for _, k := range []string{"command", "cmd", "path", "name", "tool", "connect", "describe", "search", "server", "prompt", "url"} {
		if s, ok := c.Input[k].(string); ok && s != "" {
			return c.Tool + " " + s
		}
	}
	return c.Tool
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
