# Package sets, the embedded runtime's variant: the compiled rule sets in
# one lookup of their prefix. regate_decide treats a missing set as {}, as
# lib/sets.rego does; the embedded runtime has no `with` to honour.
package regate.lib.sets

default compiled := {}

compiled := data.regate.rules
