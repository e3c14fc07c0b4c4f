package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/regate/regate/runtime"
)

// Result is the outcome of one case.
type Result struct {
	ID     string
	Suite  string
	Passed bool
	// Want and Got are "<decision> [<matched>]" style summaries.
	Want, Got string
	// Detail says why a case failed beyond Want and Got.
	Detail string
}

// Line renders a failure the way `regate conformance` prints it.
func (r Result) Line() string {
	s := fmt.Sprintf("FAIL %s: want %s, got %s", r.ID, r.Want, r.Got)
	if r.Detail != "" {
		s += " (" + r.Detail + ")"
	}
	return s
}

// header is what every case has in common.
type header struct {
	ID    string `json:"id"`
	Suite string `json:"suite"`
}

// RunFile runs every case of a JSON Lines file.
func RunFile(ctx context.Context, path string) ([]Result, error) {
	return RunFileProgress(ctx, path, nil)
}

// Progress is told, after each case, how many cases ran of how many.
type Progress func(done, total int)

// RunFileProgress is RunFile telling progress (nil: nobody) how far it got:
// a large file takes a while.
func RunFileProgress(ctx context.Context, path string, progress Progress) ([]Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return run(ctx, path, b, progress)
}

// Run runs every case in src, one JSON object per line. A case whose suite
// regate cannot run yet fails; it is never counted as passed. A line that is
// not a case is an error naming the file and line.
func Run(ctx context.Context, name string, src []byte) ([]Result, error) {
	return run(ctx, name, src, nil)
}

func run(ctx context.Context, name string, src []byte, progress Progress) ([]Result, error) {
	var out []Result
	pool := runtime.NewPool()
	total := 0
	for line := range bytes.SplitSeq(src, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			total++
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var h header
		if err := json.Unmarshal(raw, &h); err != nil {
			return out, fmt.Errorf("%s:%d:1: not a conformance case: %w", name, line, err)
		}
		var r Result
		switch h.Suite {
		case "permission":
			r = runPermission(ctx, pool, raw)
		case "delegation":
			r = runDelegation(ctx, raw)
		case "profile":
			r = runProfile(ctx, raw)
		default:
			r = Result{Want: "a " + h.Suite + " outcome", Got: "nothing", Detail: fmt.Sprintf("suite %q is not implemented yet", h.Suite)}
		}
		r.ID, r.Suite = h.ID, h.Suite
		out = append(out, r)
		if progress != nil {
			progress(len(out), total)
		}
	}
	return out, sc.Err()
}

// Count returns how many results passed and failed.
func Count(rs []Result) (passed, failed int) {
	for _, r := range rs {
		if r.Passed {
			passed++
		} else {
			failed++
		}
	}
	return passed, failed
}

func summary(decision, matched string) string {
	if matched == "" {
		return decision
	}
	return fmt.Sprintf("%s [%s]", decision, matched)
}
