package profile

import (
	"regexp"
	"strings"
)

// Scopes, most specific first.
const (
	Project = "project"
	Global  = "global"
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidID reports whether id can name a profile or a binding: a letter or
// digit, then letters, digits, ".", "_" or "-", at most 64 long, no "..".
func ValidID(id string) bool {
	return len(id) <= 64 && idPattern.MatchString(id) && !strings.Contains(id, "..")
}

// ParseRef reads a profile reference written in scope: "global:id",
// "project:id", or a bare id, which belongs to scope. It returns the
// normalized "scope:id".
func ParseRef(ref, scope string) (string, bool) {
	s, id, ok := strings.Cut(ref, ":")
	if !ok {
		s, id = scope, ref
	}
	if (s != Global && s != Project) || !ValidID(id) {
		return "", false
	}
	return s + ":" + id, true
}
