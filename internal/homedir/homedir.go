// Package homedir expands home-directory prefixes the one way regate reads
// them, for rule patterns (compiler) and call values (facts) alike.
package homedir

import "strings"

// Expand expands a leading home prefix (~, $HOME or ${HOME}, alone or before
// a "/") to home. A longer name (~user, $HOMEDIR) or a braced form with an
// operator (${HOME:-/tmp}) is not a home prefix and is left alone (R15).
func Expand(s, home string) string {
	if home == "" {
		return s
	}
	for _, p := range [...]string{"${HOME}", "$HOME", "~"} {
		if rest, ok := strings.CutPrefix(s, p); ok && (rest == "" || rest[0] == '/') {
			return strings.TrimSuffix(home, "/") + rest
		}
	}
	return s
}
