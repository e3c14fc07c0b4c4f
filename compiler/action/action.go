// Package action is regate's one word for what a rule decides and what a
// decision is: allow, ask or deny, and the one order of restriction between
// them (deny > ask > allow). The compiler writes rules with it, the runtime
// returns decisions with it, the hosts answer several calls with the most
// restrictive of their decisions, and the rule import ranks host rules by
// it. It sits beneath compiler, the lowest package all of them import, and
// imports nothing, so even a package that needs nothing else of regate
// (hosts/importrules) can use it.
//
// An Action is a string, so a decision encodes in JSON as it always has:
// "allow", "ask" or "deny".
package action

// Action is what a rule decides: allow, ask or deny.
type Action string

const (
	Allow Action = "allow"
	Ask   Action = "ask"
	Deny  Action = "deny"
)

// Parse reads an action as written in a rule file or a decision; ok is
// false for anything but allow, ask or deny.
func Parse(s string) (a Action, ok bool) {
	a = Action(s)
	return a, a.Valid()
}

// Valid reports whether a is allow, ask or deny.
func (a Action) Valid() bool { return a == Allow || a == Ask || a == Deny }

// Severity is a's place in the order of restriction: allow 0, ask 1,
// deny 2. An action regate does not know ranks above deny, so that
// whatever keeps the most restrictive of several keeps it and fails
// closed (a decision never carries one: the runtime refuses it as a
// fault).
func (a Action) Severity() int {
	switch a {
	case Allow:
		return 0
	case Ask:
		return 1
	case Deny:
		return 2
	}
	return 3
}

// Stricter reports whether a restricts more than b.
func (a Action) Stricter(b Action) bool { return a.Severity() > b.Severity() }

// String is the action as written.
func (a Action) String() string { return string(a) }
