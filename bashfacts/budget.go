package bashfacts

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// The work budget of one command (issue 20). MaxBytes, MaxNesting and
// MaxOperators bound what the parser sees; these bound what the walk does
// with it, and so what the caller builds from the result (a check per unit
// and per path token, a file-system probe per path component). A command
// past any of them is not decomposed: Extract returns ErrLimit and the
// caller treats the command as unparseable, which asks unless a rule
// denies the whole text. They sit far above any command a person or an
// agent writes (a long `git add` names a few hundred files) and far below
// what 1 MiB of text can make: 200 KB of `cat a/b a/b …` cost 180 MB and
// 200 KB of `echo {a,b}{a,b}…` never finished before them.
const (
	// MaxWords bounds the words of the simple commands walked, a wrapped
	// command's counted again for each wrapper around it (sudo env X=1
	// cmd walks cmd's words three times).
	MaxWords = 20_000
	// MaxTokens bounds the path tokens found, brace expansions included
	// (every argument word is one: a bare name is a path when it exists).
	MaxTokens = 20_000
	// MaxBraceGroups bounds the brace groups ({a,b}, {1..9}) of one word:
	// each multiplies what it expands to, and mvdan.cc/sh expands them
	// recursively, one level per group.
	MaxBraceGroups = 64
	// MaxDirBytes bounds the working directory a chain of literal cds
	// builds (cd a; cd a; …): the kernel's PATH_MAX. Every path token
	// after it would be joined to it.
	MaxDirBytes = 4096
)

// budget is what the walk of one command has spent; a payload's walker
// shares its parent's.
type budget struct {
	words int
}

// fail records the first error of the walk.
func (w *walker) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// spendWords counts the words of a simple command about to be walked,
// failing the walk past MaxWords.
func (w *walker) spendWords(n int) bool {
	if w.spent == nil { // a walker made outside Extract
		w.spent = &budget{}
	}
	if w.spent.words += n; w.spent.words > MaxWords {
		w.fail(fmt.Errorf("%w: more than %d words", ErrLimit, MaxWords))
		return false
	}
	return true
}

// addToken appends a path token, failing the walk past MaxTokens. Past it
// the last slot is overwritten instead: the walk's facts are discarded,
// and the caller's "the token just added is the last" still holds.
func (w *walker) addToken(t Token) {
	if n := len(w.out.Tokens); n >= MaxTokens {
		w.fail(fmt.Errorf("%w: more than %d path tokens", ErrLimit, MaxTokens))
		w.out.Tokens[n-1] = t
		return
	}
	w.out.Tokens = append(w.out.Tokens, t)
}

// braceGroupsWithin reports whether the word, its braces split, holds at
// most MaxBraceGroups groups, nested ones included; it fails the walk when
// not.
func (w *walker) braceGroupsWithin(word *syntax.Word) bool {
	if braceGroups(word, 0) > MaxBraceGroups {
		w.fail(fmt.Errorf("%w: a word holds more than %d brace groups", ErrLimit, MaxBraceGroups))
		return false
	}
	return true
}

// braceGroups counts the groups of a split word, stopping past the limit
// (syntax.Walk does not visit brace expansions).
func braceGroups(word *syntax.Word, n int) int {
	for _, p := range word.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		n++
		for _, e := range b.Elems {
			if n > MaxBraceGroups {
				return n
			}
			n = braceGroups(e, n)
		}
	}
	return n
}

// dirWithin reports whether a directory a cd leads to is within
// MaxDirBytes; it fails the walk when not.
func (w *walker) dirWithin(d Dir) bool {
	if len(d.Path) > MaxDirBytes {
		w.fail(fmt.Errorf("%w: a cd leads to a directory longer than %d bytes", ErrLimit, MaxDirBytes))
		return false
	}
	return true
}
