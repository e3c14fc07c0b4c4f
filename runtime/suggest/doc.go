// Package suggest turns what people approved into rules that would have
// spared them the prompts, and proves each rule loosens nothing it must not.
//
// # Evidence
//
// The evidence is the review log (runtime/ask's permission-review.jsonl:
// every ask with its decision, its answer, the session and the time) and,
// when given, the decision log. An approval counts when a person or a link
// answered allow to an ask a written rule or the fallback made; an ask a
// floor raised (strict mode, a wrapper, an unparseable command, a rule file
// that failed to load) or a hard guard's never counts.
//
// # Generalising, and how far
//
// Approvals are grouped by the value they were decided on, cut at the
// surface's delimiter: a bash command by its program and subcommand ("git
// commit *"), then by its program alone ("cat *"); a path by its folder
// ("src/*"); an MCP target by its server ("github:*"); anything else only
// by its exact value. A group becomes a suggestion when it holds at least
// Options.MinApprovals approvals, so the literal part of a suggested
// pattern is what every approval it stands for shares: never wider than
// what was approved in the words a person saw.
//
// # What is never suggested
//
// A pattern that matches a call that was denied, that a person rejected, or
// that a floor or a hard guard decided. Each surviving candidate is then
// checked for real: the policy is compiled with the rule added and every
// call of the evidence is decided again with the new policy and the old
// (regate diff's comparison); a candidate that loosens any call that was
// denied, rejected or floored is dropped. The calls whose decision the
// rule changes come with the suggestion.
package suggest
