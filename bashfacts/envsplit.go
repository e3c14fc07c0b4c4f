package bashfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// envSplit splits the string of env -S as GNU env does (env.c's
// build_argv, not a shell): blanks separate words outside quotes; single
// quotes keep their text but for \\ and \'; double quotes keep theirs
// with escapes; \_ separates words outside double quotes and is a space
// inside them; \c ends the string; # at the start of a word starts a
// comment; \f \n \r \t \v are those characters; ${NAME} is the
// environment's value, never split. Each word is returned in bash's
// quoting, ${NAME} as an expansion, so that the words can be read back as
// the command line env runs. ok is false when env refuses the string:
// $NAME without braces, an unknown escape, \c inside double quotes, a
// backslash at the end, a quote left open (and a NUL byte, which no bash
// word holds).
func envSplit(s string) (words []string, ok bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	var word, text strings.Builder // the word in bash's quoting; its pending literal text
	sq, dq, inWord, quotable := false, false, false, true
	quote := func() {
		q, err := syntax.Quote(text.String(), syntax.LangBash)
		quotable = quotable && err == nil // a NUL byte: no word bash can spell
		word.WriteString(q)
		text.Reset()
	}
	endWord := func() {
		if !inWord {
			return
		}
		if text.Len() > 0 || word.Len() == 0 {
			quote()
		}
		words = append(words, word.String())
		word.Reset()
		inWord = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			// env checks every backslash, quoted or not, before it splits.
			if i+1 >= len(s) || !validEnvEscape(s[i+1]) || (dq && s[i+1] == 'c') {
				return nil, false
			}
			if sq && s[i+1] != '\\' && s[i+1] != '\'' {
				break // a backslash in single quotes is itself
			}
			i++
			switch n := s[i]; {
			case n == '_' && !dq:
				endWord() // \_ separates words
				continue
			case n == '_':
				c = ' '
			case n == 'c':
				endWord() // \c ends the string
				return words, quotable
			case envEscapes[n] != 0:
				c = envEscapes[n]
			default:
				c = n // \\ \' \" \# \$
			}
		case c == '\'' && !dq:
			sq, inWord = !sq, true
			continue
		case c == '"' && !sq:
			dq, inWord = !dq, true
			continue
		case (c == ' ' || c == '\t') && !sq && !dq:
			endWord()
			continue
		case c == '#' && !inWord:
			return words, quotable // a comment to the end
		case c == '$' && !sq:
			end := envVarEnd(s, i)
			if end < 0 {
				return nil, false
			}
			if text.Len() > 0 {
				quote()
			}
			word.WriteString(`"` + s[i:end+1] + `"`)
			inWord, i = true, end
			continue
		}
		text.WriteByte(c)
		inWord = true
	}
	if sq || dq {
		return nil, false
	}
	endWord()
	return words, quotable
}

// validEnvEscape reports the characters env -S accepts after a backslash.
func validEnvEscape(c byte) bool { return strings.IndexByte(`cfnrtv#$_"'\\`, c) >= 0 }

// envEscapes are the escapes env -S turns into a character.
var envEscapes = map[byte]byte{'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}

// envVarEnd returns the index of the "}" that ends ${NAME} at s[i], or -1
// when s[i:] is not ${NAME} with a name env accepts.
func envVarEnd(s string, i int) int {
	if i+2 >= len(s) || s[i+1] != '{' || !(isAlpha(s[i+2]) || s[i+2] == '_') {
		return -1
	}
	for j := i + 3; j < len(s); j++ {
		switch c := s[j]; {
		case c == '}':
			return j
		case !(isAlpha(c) || c == '_' || (c >= '0' && c <= '9')):
			return -1
		}
	}
	return -1
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
