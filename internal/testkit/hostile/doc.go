// Package hostile holds the hostile-input suite: the inputs an attacker or a
// careless host can send to regate's outside doors (the hook, serve, and the
// profile commands), each run against the real binary as its own process.
// Every case must end within its deadline, without a crash, under the
// documented memory ceiling, and with a block or an ask where the input is a
// fault. The package has no code of its own beyond this comment: the suite is
// its tests (go test ./internal/testkit/hostile; REGATE_HOSTILE_LONG=1 for the longer
// run of .ci/fuzz-long).
package hostile
