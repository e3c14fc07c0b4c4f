package bashfacts

import "strings"

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
