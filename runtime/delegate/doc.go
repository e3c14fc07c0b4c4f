// Package delegate decides the calls of delegated runs: a child agent's
// calls held to its parent's policy, at any depth. The policies themselves
// (decoding, Narrow, the subset proof, compiling) are package
// compiler/delegation's; this package is where they are enforced. See
// docs/delegation.md.
//
// # The ceiling
//
// A Ceiling decides one call (a CeilingCall) against a chain of compiled
// delegation policies with regate's Rego library (regate.lib.ceiling), the
// same query a stock OPA server holding the library answers. The answer is
// data, a CeilingDecision: allow, deny or escalate, the policy that
// refused or escalated and why. An error means no decision: the host
// blocks the call.
//
// # State
//
// Token buckets and call ledgers live in a CeilingState (in memory by
// default, NewMemoryCeilingState). Rego decides and returns the charges;
// Go commits them only when the call is allowed, so a call refused anywhere
// or escalated charges nothing. A Ceiling serializes its decisions, so that
// concurrent siblings never both spend a parent's last token.
//
// # Runs, leases and chains
//
// A Run is the root of a tree of delegated runs. Run.Delegate proves a
// child within its parent (a refusal is a *RefusedError) and issues a
// single-use Delegation; Enter starts the ChildRun, whose calls
// (ChildRun.Decide) are decided against every policy of its chain, the
// root's parent as it is now, then each frozen child down to its own.
// ChildRun.Delegate delegates further. Policies are keyed by identity:
// delegations from one parent object share its buckets and ledger, and
// each lease's frozen child has its own (ceilingchain.go).
//
// # Escalations
//
// An escalation is charged only once approved: ChildRun.Decide returns
// escalate and charges nothing; ChildRun.Approve (an EscalationApproval)
// decides the call again when it will run, with the approval in the input,
// and charges it as any allow only when no policy refuses it then.
//
// # Capability leases
//
// A CapabilityEngine holds the argument leases agents hold and the caps on
// capability uses (delegate_to_agent bounds how many children a parent
// starts). CheckArgument decides an ArgumentCall in Rego
// (regate.lib.lease) and returns a LeaseDecision.
//
// # Run budgets
//
// Package runbudget, beneath this one, is the nested-run budget of a tree
// of agent runs (depth and turns), carried in a context.Context.
package delegate
