package facts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
)

// Patches (role "patch", argmodel.Patch): git apply reads a patch and
// writes the files it names. Strict mode reads the patch as git does
// (github.com/bluekeyes/go-gitdiff parses it) and decides each file it
// creates, changes, deletes, renames or copies as a write of that path,
// beside the read of the patch itself: applying a patch to .env is a write
// of .env. The names are the repository's, relative to its work tree's
// root (git apply run in a subfolder still reads them from the root), or
// the working folder's outside a repository, as git reads them then.
//
// What regate cannot read as git would asks: a patch it cannot open as a
// regular file or parse, one larger than maxPatchBytes or naming more than
// maxPatchFiles files, a traditional diff (no "diff --git" lines) whose
// names are quoted, a git diff read with -p other than 1 (go-gitdiff strips
// one component, as git does by default), a -p or --directory value bash
// expands at run time, or a patch read from a standard input regate does
// not see (a pipe, a heredoc bash expands: bashfacts floors those; a
// literal heredoc is the token's Patch.Text, and git apply < FILE is a
// patch token of FILE).

const (
	maxPatchBytes = 8 << 20
	maxPatchFiles = 5000
)

// appendPatchChecks adds, after the path check c of a patch file, its read
// and the strict-only path and write checks of every file it names.
func (e *Env) appendPatchChecks(out []Check, c Check, t bashfacts.Token, base string) []Check {
	out = append(out, roleCheck(c, "read"))
	dir, why := e.patchDir(t, base)
	if why != "" {
		return append(out, patchFloor(t, why))
	}
	text, err := e.readPatch(e.absolute(t.Value, dir))
	if err != nil {
		return append(out, patchFloor(t, err.Error()))
	}
	return e.appendPatchTargets(out, t, dir, base, text)
}

// appendInlinePatchChecks adds the checks of every file a patch given on
// standard input by a heredoc names (git apply <<'EOF'): the patch is the
// token's Patch.Text, no file.
func (e *Env) appendInlinePatchChecks(out []Check, t bashfacts.Token, base string) []Check {
	dir, why := e.patchDir(t, base)
	if why != "" {
		return append(out, patchFloor(t, why))
	}
	return e.appendPatchTargets(out, t, dir, base, []byte(t.Patch.Text))
}

// patchDir is the folder a patch token's command runs in, or why its
// files cannot be told.
func (e *Env) patchDir(t bashfacts.Token, base string) (string, string) {
	dir, known := e.effectiveDir(t.Dir, base)
	switch {
	case !known:
		return "", "a cd to an unknown place came before it"
	case t.Patch == nil:
		return "", "its names are read without git apply's options"
	case t.Patch.Unknown != "":
		return "", t.Patch.Unknown
	}
	return dir, ""
}

// patchFloor is the check that asks for a patch whose files regate cannot
// tell.
func patchFloor(t bashfacts.Token, why string) Check {
	name := t.Value
	if t.Value == "-" {
		name = "on standard input"
	}
	return Check{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: t.Pos.String(),
		StrictOnly: true, Strict: "strict mode cannot tell which files the patch " + name + " writes: " + why}
}

// appendPatchTargets adds the path and write checks (a read for a copy's
// source) of every file the patch text names, as git apply run in dir
// reads it.
func (e *Env) appendPatchTargets(out []Check, t bashfacts.Token, dir, base string, text []byte) []Check {
	names, err := e.patchNames(text, *t.Patch)
	if err != nil {
		return append(out, patchFloor(t, err.Error()))
	}
	root, _, err := e.repository(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		root = dir // outside a repository git apply reads names as patch(1) does
	case err != nil:
		return append(out, patchFloor(t, err.Error()))
	}
	for _, n := range names {
		target := t
		target.Value, target.Role, target.Bare, target.Pattern, target.Glob, target.Patch = n.name, argmodel.Write, false, false, "", nil
		if !path.IsAbs(n.name) {
			target.Value = path.Join(root, n.name)
		}
		w, _, ok := e.tokenCheck(target, base)
		if !ok {
			continue
		}
		w.StrictOnly = true
		out = append(out, w)
		if n.copied {
			out = append(out, roleCheck(w, "read"))
			continue
		}
		out = e.appendWriteChecks(out, w, bashfacts.WriteCreate)
	}
	return out
}

// patchName is a file a patch names: written, or read when it is the
// source of a copy (its contents go into the copy).
type patchName struct {
	name   string
	copied bool
}

// patchNames are the paths a patch text writes, as git apply reads them
// with opts: each file's old and new names, once each; the source of a
// copy is read.
func (e *Env) patchNames(text []byte, opts bashfacts.PatchNames) ([]patchName, error) {
	files, _, err := gitdiff.Parse(bytes.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("it does not parse as a patch: %v", err)
	}
	if len(files) > maxPatchFiles {
		return nil, fmt.Errorf("it names more than %d files", maxPatchFiles)
	}
	if err := e.spent.probe(len(files)); err != nil {
		return nil, err
	}
	var raw []patchName
	switch gitHeaders := countLinesWith(text, "diff --git "); {
	case gitHeaders == len(files):
		if opts.Strip != 1 {
			return nil, fmt.Errorf("git diff names read with -p%d", opts.Strip)
		}
		for _, f := range files {
			raw = append(raw, patchName{f.OldName, f.IsCopy}, patchName{name: f.NewName})
		}
	case gitHeaders == 0:
		names, err := traditionalNames(text, opts.Strip)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			raw = append(raw, patchName{name: n})
		}
	default:
		return nil, errors.New("it mixes git and traditional diffs")
	}
	seen := map[patchName]bool{}
	var out []patchName
	for _, n := range raw {
		if n.name == "" || n.name == "/dev/null" {
			continue
		}
		if opts.Directory != "" {
			n.name = path.Join(opts.Directory, n.name)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// readPatch reads the patch file at name, a regular file of at most
// maxPatchBytes.
func (e *Env) readPatch(name string) ([]byte, error) {
	if err := e.spent.probe(1); err != nil {
		return nil, err
	}
	f, err := e.openRegularFile(name, "it")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("it does not exist")
	case err != nil:
		return nil, err
	}
	defer f.Close()
	return readLimited(f)
}

// readLimited reads a file of at most maxPatchBytes.
func readLimited(f io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, maxPatchBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxPatchBytes {
		return nil, fmt.Errorf("it is larger than %d bytes", maxPatchBytes)
	}
	return b, nil
}

// countLinesWith counts the lines of text that begin with prefix.
func countLinesWith(text []byte, prefix string) int {
	n := 0
	for line := range bytes.Lines(text) {
		if bytes.HasPrefix(line, []byte(prefix)) {
			n++
		}
	}
	return n
}

// traditionalNames are both names of every file header of a traditional
// diff (a "--- OLD" line, a "+++ NEW" line, then a hunk "@@ -"), each up to
// a tab and with strip leading components removed, as git apply reads them
// for such a patch. Which of the two git patches depends on the files
// present; regate gates both. go-gitdiff keeps one name of such a header,
// so the headers are read here, in the shape go-gitdiff recognises.
func traditionalNames(text []byte, strip int) ([]string, error) {
	lines := strings.Split(string(text), "\n")
	var out []string
	for i := 0; i+2 < len(lines); i++ {
		old, ok1 := strings.CutPrefix(lines[i], "--- ")
		new, ok2 := strings.CutPrefix(lines[i+1], "+++ ")
		if !ok1 || !ok2 || !strings.HasPrefix(lines[i+2], "@@ -") {
			continue
		}
		for _, n := range []string{old, new} {
			n, _, _ = strings.Cut(strings.TrimRight(n, "\r"), "\t")
			if strings.HasPrefix(n, `"`) {
				return nil, errors.New("a traditional diff with a quoted name")
			}
			if n == "/dev/null" {
				continue
			}
			out = append(out, stripComponents(n, strip))
		}
		i += 2
	}
	return out, nil
}

// stripComponents removes n leading components of name as git apply's -p
// does: each up to a "/", runs of "/" counted once. A name with fewer
// components is kept whole: git then rejects the patch.
func stripComponents(name string, n int) string {
	rest := name
	for range n {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return name
		}
		rest = strings.TrimLeft(rest[i+1:], "/")
	}
	return rest
}
