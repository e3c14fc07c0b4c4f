package main

import (
	"fmt"

	"github.com/regate/regate/compiler"
)

// Exit codes, one contract for every command (exitCodesHelp, README.md).
// A command that validates or ships rule files (check, test, compile,
// bundle, export, diff) never exits 0 on a rule file with an error: a
// policy with an error fails closed, which is not what its author wrote.
// A command that decides (decide, facts, bench, hook, serve)
// decides under the fail-closed policy, as a host would, and prints the
// diagnostics on standard error.
const (
	exitOK = 0
	// exitDeny is a "no" the caller asked for: decide --exit-code, a call
	// was denied; diff --exit-code, some decision changed.
	exitDeny    = 1
	exitChanged = 1
	// exitBadRules: a rule file has an error (a failed inline example or
	// test included), or a file that was named cannot be read.
	exitBadRules = 2
	exitAsk      = 3 // decide --exit-code: a call asks, none was denied
	exitUsage    = 4 // bad flags or arguments, or an input that cannot be read (a call, a key)
	exitFault    = 5 // regate could not decide: the host must block
	exitFailed   = 6 // conformance: some case failed
	// exitNotWithin: delegate, a request widens its parent, or a child is
	// not proven within it.
	exitNotWithin = 7
	// exitBlock is the hook's block: every host blocks the call on exit 2.
	// It is the host's protocol, not this contract (docs/hosts.md).
	exitBlock = 2
)

// exitCodesHelp is the contract as the root command's help prints it.
const exitCodesHelp = `Exit codes, the same for every command:
  0  done; for decide and diff, also when nothing was denied or changed
  1  decide --exit-code: a call was denied; diff --exit-code: a decision changed
  2  a rule file has an error (check, test, compile, bundle, export, diff; a failed
     inline example or test counts), or a rule file that was named cannot be read
  3  decide --exit-code: a call asks and none was denied
  4  bad flags or arguments, or an input that cannot be read (a call, a calls file, a key)
  5  regate could not decide or write (a host must block the call)
  6  conformance: a case failed
  7  delegate: a request widens its parent, or a child is not proven within it
decide, facts and bench decide under a policy with errors as a host would (it fails closed)
and print its diagnostics on standard error. hook answers in its host's protocol: exit
0 with the answer, or exit 2, which every host takes as a block.`

// exitError carries an exit code out of a command's RunE.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// refuseBrokenRules is exit 2 when the compiled rule files have an error
// (their diagnostics are already printed): what stops is what fails
// closed. An error in an inline example leaves the rules in force, but a
// policy whose own proof is broken is not shipped either. doing says what
// the command did not do.
func refuseBrokenRules(out *compiler.Output, doing string) error {
	fatal := out.Diagnostics.Fatal()
	if len(fatal) == 0 {
		return nil
	}
	return withCode(exitBadRules, fmt.Errorf("%s in the rule files (printed above), so %s; fix %s and run it again",
		plural(len(fatal), "error"), doing, pronoun(len(fatal))))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
