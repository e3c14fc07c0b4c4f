package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/regate/regate/runtime/delegate/runbudget"
)

// budgetStep is one step of the budget op (FORMAT.md, op budget).
type budgetStep struct {
	Action   string                     `json:"action"`
	Run      string                     `json:"run"`
	In       string                     `json:"in"`
	MaxDepth *int                       `json:"max_depth"`
	MaxTurns *int                       `json:"max_turns"`
	HardStop bool                       `json:"hard_stop"`
	Turns    *int                       `json:"turns"`
	Spend    int                        `json:"spend"`
	Kind     string                     `json:"kind"`
	Expect   map[string]json.RawMessage `json:"expect"`
}

type budgetRun struct {
	ctx context.Context
	run *runbudget.Run
}

func runBudget(ctx context.Context, c delegationCase) error {
	var in struct {
		Steps []budgetStep `json:"steps"`
	}
	var want map[string]json.RawMessage
	if err := decodeBoth(c, &in, &want); err != nil {
		return err
	}
	runs := map[string]budgetRun{}
	var root *runbudget.Run
	where := func(name string) (budgetRun, error) {
		if name == "" {
			name = "root"
		}
		r, ok := runs[name]
		if !ok {
			return budgetRun{}, fmt.Errorf("no run %q", name)
		}
		return r, nil
	}
	for i, s := range in.Steps {
		got, err := budgetOutcome(ctx, s, runs, &root, where)
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", i, s.Action, err)
		}
		if err := checkOutcome(got, s.Expect); err != nil {
			return fmt.Errorf("step %d (%s): %w", i, s.Action, err)
		}
	}
	summary := map[string]any{}
	if root != nil {
		summary["rootTurnsLeft"] = root.TurnsLeft()
	}
	return checkSummary(want, len(in.Steps), summary)
}

// budgetOutcome runs one step and returns its outcome in the case's terms.
func budgetOutcome(ctx context.Context, s budgetStep, runs map[string]budgetRun, root **runbudget.Run,
	where func(string) (budgetRun, error)) (map[string]any, error) {
	ok := func(r *runbudget.Run) map[string]any { return map[string]any{"ok": true, "turnsLeft": r.TurnsLeft()} }
	switch s.Action {
	case "run_budget":
		parent := ctx
		if *root != nil {
			p, err := where(s.In)
			if err != nil {
				return nil, err
			}
			parent = p.ctx
		}
		l := runbudget.Limits{HardStop: s.HardStop}
		if s.MaxDepth != nil {
			l.MaxDepth = *s.MaxDepth
		}
		if s.MaxTurns != nil {
			l.MaxTurns = *s.MaxTurns
		}
		rctx, r, err := runbudget.Open(parent, l)
		if errors.Is(err, runbudget.ErrInnerHardStop) {
			return map[string]any{"error": "hard_stop"}, nil
		}
		if err != nil {
			return nil, err
		}
		name := s.Run
		if *root == nil {
			*root, name = r, "root"
		}
		runs[name] = budgetRun{rctx, r}
		return ok(r), nil
	case "enter":
		p, err := where(s.In)
		if err != nil {
			return nil, err
		}
		var opts []runbudget.NestedOption
		if s.MaxTurns != nil {
			opts = append(opts, runbudget.Turns(*s.MaxTurns))
		}
		if s.MaxDepth != nil {
			opts = append(opts, runbudget.Depth(*s.MaxDepth))
		}
		rctx, r, err := runbudget.Nested(p.ctx, opts...)
		if errors.Is(err, runbudget.ErrExhausted) {
			return map[string]any{"raises": "RunBudgetExhausted"}, nil
		}
		if err != nil {
			return nil, err
		}
		runs[s.Run] = budgetRun{rctx, r}
		return ok(r), nil
	case "spend":
		p, err := where(s.Run)
		if err != nil {
			return nil, err
		}
		n := 1
		if s.Turns != nil {
			n = *s.Turns
		}
		if err := p.run.Spend(n); err != nil {
			return map[string]any{"raises": "RunBudgetExhausted"}, nil
		}
		return ok(p.run), nil
	case "exit":
		p, err := where(s.Run)
		if err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "turnsLeft": p.run.Close()}, nil
	case "tool":
		p, err := where("")
		if err != nil {
			return nil, err
		}
		var opts []runbudget.NestedOption
		if s.MaxTurns != nil {
			opts = append(opts, runbudget.Turns(*s.MaxTurns))
		}
		exhausted, err := runbudget.Tool(p.ctx, func(_ context.Context, r *runbudget.Run) error { return r.Spend(s.Spend) }, opts...)
		switch {
		case errors.Is(err, runbudget.ErrExhausted) && exhausted:
			return map[string]any{"raises": "RunBudgetExhausted"}, nil
		case err != nil:
			return nil, err
		case exhausted:
			return map[string]any{"result": "run_budget_exhausted"}, nil
		}
		return map[string]any{"result": "ok"}, nil
	}
	return nil, fmt.Errorf("unknown action %q", s.Action)
}

// checkOutcome compares each key of want with the step's outcome, as JSON.
func checkOutcome(got map[string]any, want map[string]json.RawMessage) error {
	b, _ := json.Marshal(got)
	var g map[string]any
	_ = json.Unmarshal(b, &g)
	for k, raw := range want {
		var w any
		if err := json.Unmarshal(raw, &w); err != nil {
			return err
		}
		if w == nil && g[k] == nil {
			continue
		}
		if !sameJSON(g[k], w) {
			return fmt.Errorf("%s is %v; want %s (outcome %s)", k, g[k], raw, b)
		}
	}
	return nil
}
