// Package coverage tells which rules of a policy decide calls: from a
// decision log, from calls decided on the spot, or from the policy's own
// examples.
//
// # Counting
//
// A Counter starts from the compiled policy's export (compiler.Output.Export:
// every rule with its layer, surface, rank, position and the compiler's
// analysis) and takes one Observation per decision: the layer, the
// position and the surface of the rule that decided, and the values of the
// check it decided on. A decision is the rule's whose position it names (a
// floor that raised the rule's allow to ask still names the rule); a
// decision no written rule made (the built-in fallback, an unregistered
// tool, a fault, a floor of regate's own) is counted apart, by layer.
//
// # What a report says of each rule
//
// Decided is how many calls the rule decided. Dead is the compiler's
// analysis: a hard guard or a more specific rule covers every value the
// rule matches, so it can never decide. Shadowed counts the calls the rule
// matched but a more specific rule of its layer and surface decided, in
// practice: the rule is not dead, yet on these calls it lost. A rule
// neither dead nor ever deciding is unused.
//
// # Output
//
// Report.WriteTable, Report.WriteJSON and Report.WriteHTML render a report;
// the HTML page lists the rules in file order, coloured by use, each linked
// to its line in the policy's source, which the page carries.
package coverage
