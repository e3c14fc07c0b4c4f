package bashfacts

import "strings"

// jqCode is why a jq program floors, or "": $ENV and the builtin env hold
// every variable of the environment, tokens included, so jq -n env prints
// what a bare printenv prints. One read by its name ($ENV.HOME, env.PATH,
// env["X"]) is as echo $HOME, and stays allowed. The program is scanned as
// jq's lexer would: text in a string literal is not code, but a string's
// interpolation \(…) is.
func jqCode(prog, code string) string {
	// interp holds, for each interpolation the scan is in, the depth of
	// parentheses at which its ")" returns to the string.
	var interp []int
	depth := 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == '"':
			i = jqString(code, i+1)
			if i < len(code) && code[i] == '(' {
				interp = append(interp, depth) // \( opens code
				depth++
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
			if n := len(interp); n > 0 && depth == interp[n-1] {
				interp = interp[:n-1]
				i = jqString(code, i+1) // back in the string
				if i < len(code) && code[i] == '(' {
					interp = append(interp, depth)
					depth++
				}
			}
		case c == '#':
			for i < len(code) && code[i] != '\n' {
				i++ // a comment
			}
		case jqWord(code, i, "$ENV") || (jqWord(code, i, "env") && (i == 0 || code[i-1] != '$' && code[i-1] != '.')):
			n := 3
			if c == '$' {
				n = 4
			}
			if !jqByName(code[i+n:]) {
				return prog + " program reads the whole environment ($ENV or env), tokens included"
			}
		}
	}
	return ""
}

// jqWord reports whether code holds the identifier w at i, not as part of
// a longer one.
func jqWord(code string, i int, w string) bool {
	if !strings.HasPrefix(code[i:], w) {
		return false
	}
	before := i == 0 || !jqIdent(code[i-1])
	after := i+len(w) == len(code) || !jqIdent(code[i+len(w)])
	return before && after
}

func jqIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// jqByName reports whether what follows $ENV or env reads one variable by
// its name: .NAME, ."NAME" or ["NAME"].
func jqByName(rest string) bool {
	rest = strings.TrimLeft(rest, " \t\n")
	switch {
	case strings.HasPrefix(rest, `."`), strings.HasPrefix(rest, `["`):
		return true
	case len(rest) > 1 && rest[0] == '.' && jqIdent(rest[1]) && (rest[1] < '0' || rest[1] > '9'):
		return true
	}
	return false
}

// jqString returns the index of the quote that closes the string whose
// text starts at i, or of the "(" of an interpolation \( in it, skipping
// escapes (len(code) when neither comes).
func jqString(code string, i int) int {
	for ; i < len(code); i++ {
		switch code[i] {
		case '\\':
			if i+1 < len(code) && code[i+1] == '(' {
				return i + 1
			}
			i++
		case '"':
			return i
		}
	}
	return i
}
