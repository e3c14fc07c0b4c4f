package bashfacts

import "strings"

// opaqueShells run their -c payload as a new shell program.
var opaqueShells = map[string]bool{"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true}

// shellValueFlags are the short options of those shells that take a value,
// so that `bash -o pipefail -c …` finds its -c.
var shellValueFlags = "oO"

// transparent programs run their operand as if they were absent (R12), with
// these options skipped.
var transparent = map[string]string{"command": "", "builtin": "", "exec": "a"}

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// skipOptions returns the index of the first word after the wrapper's own
// options, as the program reads them: a cluster -abc ends at a value option
// (-n5 carries its value, -n takes the next word); "--" ends the options.
// The index is at most len(args), even when a value is missing.
func skipOptions(args []string, valueShort string, valueLong map[string]bool) int {
	return min(skipOptionsRaw(args, valueShort, valueLong), len(args))
}

func skipOptionsRaw(args []string, valueShort string, valueLong map[string]bool) int {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--":
			return i + 1
		case strings.HasPrefix(a, "--"):
			if _, _, hasValue := strings.Cut(a, "="); !hasValue && valueLong[a] {
				i++
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(valueShort, a[j]) >= 0 {
					if j == len(a)-1 {
						i++ // the value is the next word
					}
					break
				}
			}
		default:
			return i
		}
		i++
	}
	return i
}

// shellPayload finds the -c payload of an opaque shell: the index of the
// payload word, or -1 when the shell runs a script (not opaque).
func shellPayload(args []string) int {
	hasC := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') || strings.HasPrefix(a, "--") {
			if strings.HasPrefix(a, "--") {
				continue // long options (--norc, --login) take no value
			}
			break
		}
		if a[0] == '-' && strings.IndexByte(a[1:], 'c') >= 0 {
			hasC = true
		}
		if strings.IndexByte(shellValueFlags, a[len(a)-1]) >= 0 {
			i++
		}
	}
	if !hasC {
		return -1
	}
	return i
}
