package runbudget_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/regate/regate/runtime/delegate/runbudget"
)

// The root opens a budget of one level of nesting and 10 turns. A nested
// run reserves 4 turns, spends 3 and gives the unspent one back when it
// closes; it may not nest further. Spending past what is left spends
// nothing, and once no turn is left a nested run is refused.
func ExampleOpen() {
	ctx, root, err := runbudget.Open(context.Background(), runbudget.Limits{MaxDepth: 1, MaxTurns: 10})
	if err != nil {
		panic(err)
	}
	if err := runbudget.SpendTurn(ctx); err != nil { // the root's own turn
		panic(err)
	}

	child, run, err := runbudget.Nested(ctx, runbudget.Turns(4))
	if err != nil {
		panic(err)
	}
	fmt.Println("root left while the child runs:", root.TurnsLeft(), "child left:", run.TurnsLeft())
	fmt.Println("spend 3:", run.Spend(3), "spend 5:", run.Spend(5))
	_, _, err = runbudget.Nested(child)
	fmt.Println("the child nests:", err)
	fmt.Println("root left after the child closes:", run.Close())

	fmt.Println("root spends 6:", root.Spend(6), "then 1 more:", root.Spend(1))
	_, _, err = runbudget.Nested(ctx)
	fmt.Println("a run with no turns left:", err)
	// Output:
	// root left while the child runs: 5 child left: 4
	// spend 3: <nil> spend 5: run budget exhausted
	// the child nests: run budget exhausted
	// root left after the child closes: 6
	// root spends 6: <nil> then 1 more: run budget exhausted
	// a run with no turns left: run budget exhausted
}

// Outside any budget a nested run is refused, never unlimited.
func ExampleNested() {
	_, _, err := runbudget.Nested(context.Background())
	fmt.Println(errors.Is(err, runbudget.ErrNoBudget), err)
	// Output:
	// true no run budget in the context
}

// Tool wraps a tool that runs an agent: exhaustion is the tool's failed
// result, so the calling agent can finish with what it has; under a root
// with HardStop it is the error that ends the whole run.
func ExampleTool() {
	agent := func(ctx context.Context, r *runbudget.Run) error {
		return runbudget.SpendTurn(ctx)
	}
	for _, hardStop := range []bool{false, true} {
		ctx, _, err := runbudget.Open(context.Background(), runbudget.Limits{MaxDepth: 1, MaxTurns: 1, HardStop: hardStop})
		if err != nil {
			panic(err)
		}
		for range 2 {
			exhausted, err := runbudget.Tool(ctx, agent)
			fmt.Printf("hard stop %v: exhausted %v, err %v\n", hardStop, exhausted, err)
		}
	}
	// Output:
	// hard stop false: exhausted false, err <nil>
	// hard stop false: exhausted true, err <nil>
	// hard stop true: exhausted false, err <nil>
	// hard stop true: exhausted true, err run budget exhausted
}
