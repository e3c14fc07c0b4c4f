package runbudget_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/regate/regate/runtime/delegate/runbudget"
)

// 64 goroutines, half in nested runs with their own shares and half
// spending from the root's turns as they go, never spend more than the
// tree holds, and the turns not spent are all still there at the end.
func TestConcurrentRunsNeverOverspend(t *testing.T) {
	const turns = 100
	ctx, root, err := runbudget.Open(context.Background(), runbudget.Limits{MaxDepth: 2, MaxTurns: turns})
	if err != nil {
		t.Fatal(err)
	}
	var spent atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var opts []runbudget.NestedOption
			if i%2 == 0 {
				opts = append(opts, runbudget.Turns(3))
			}
			nctx, r, err := runbudget.Nested(ctx, opts...)
			if errors.Is(err, runbudget.ErrExhausted) {
				return
			}
			if err != nil {
				t.Error(err)
				return
			}
			defer r.Close()
			for range 4 {
				if runbudget.SpendTurn(nctx) == nil {
					spent.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := spent.Load(); n > turns {
		t.Fatalf("spent %d turns of %d", n, turns)
	}
	if left := root.TurnsLeft(); int64(left)+spent.Load() != turns {
		t.Fatalf("%d left + %d spent != %d: turns were lost or made", left, spent.Load(), turns)
	}
}

func TestNoBudgetIsRefused(t *testing.T) {
	if _, _, err := runbudget.Nested(context.Background()); !errors.Is(err, runbudget.ErrNoBudget) {
		t.Fatalf("Nested without a budget: %v", err)
	}
	if err := runbudget.SpendTurn(context.Background()); !errors.Is(err, runbudget.ErrNoBudget) {
		t.Fatalf("SpendTurn without a budget: %v", err)
	}
}

func TestSpendPastZeroRefuses(t *testing.T) {
	_, root, _ := runbudget.Open(context.Background(), runbudget.Limits{MaxDepth: 1, MaxTurns: 1})
	if err := root.Spend(2); !errors.Is(err, runbudget.ErrExhausted) || root.TurnsLeft() != 1 {
		t.Fatalf("Spend(2) of 1: %v, %d left", err, root.TurnsLeft())
	}
}

func TestInnerBudgetOnlyTightens(t *testing.T) {
	ctx, root, _ := runbudget.Open(context.Background(), runbudget.Limits{MaxDepth: 1, MaxTurns: 4})
	if _, _, err := runbudget.Open(ctx, runbudget.Limits{MaxTurns: 1, HardStop: true}); !errors.Is(err, runbudget.ErrInnerHardStop) {
		t.Fatalf("inner hard stop: %v", err)
	}
	ictx, inner, err := runbudget.Open(ctx, runbudget.Limits{MaxDepth: 9, MaxTurns: 50})
	if err != nil || inner.TurnsLeft() != 4 || root.TurnsLeft() != 0 {
		t.Fatalf("inner: %v, %d, root %d", err, inner.TurnsLeft(), root.TurnsLeft())
	}
	actx, _, err := runbudget.Nested(ictx)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := runbudget.Nested(actx); !errors.Is(err, runbudget.ErrExhausted) {
		t.Fatalf("a grandchild under depth 1: %v", err)
	}
	if got := inner.Close(); got != 4 {
		t.Fatalf("closing the inner budget returned the root to %d; want 4", got)
	}
}
