package facts

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
)

// Listings (bashfacts/listing.go): a word $(git ls-files PATHSPEC…) is the
// paths of the index that the pathspecs match, relative to the working
// directory, one word each. Under strict mode a program that reads them
// (wc -l $(git ls-files '*.go')) reads each: they are gated as a recursive
// read's paths are (tree.go), one strict-only check on the path surface
// whose deny is capped at ask, kept by the path hint; one that examines
// them (ls -l, stat) only names them. A path bash would not pass as it is
// (a blank or a glob character in it: split and globbed again; a leading
// "-": an option to the program) asks, as does any other use of the words.

// listingChecks are the checks of a listing token t; base is the command's
// base directory.
func (e *Env) listingChecks(t bashfacts.Token, base string) []Check {
	at := t.Pos.String()
	floor := func(why string) []Check {
		return []Check{{Surface: "path", Value: t.Value, Forms: [][]string{{t.Value}}, At: at, StrictOnly: true,
			Strict: "strict mode cannot check the paths " + t.Value + " lists: " + why}}
	}
	if t.Role != argmodel.Read && t.Role != argmodel.Stat {
		return floor("the program uses them in a way regate does not follow")
	}
	dir, known := e.effectiveDir(t.Dir, base)
	if !known {
		return floor("a cd to an unknown place came before it")
	}
	specs := t.Listing.Pathspecs
	if len(specs) == 0 {
		specs = []string{"."} // git ls-files lists the working directory's paths
	}
	tr, err := e.trackedPaths(dir, specs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // not in a repository: git lists nothing
	case err != nil:
		return floor(err.Error())
	}
	w := treeWalk{env: e, folder: tr.folder}
	for _, en := range tr.entries {
		name := en.Name
		word := lsFilesWord(path.Join(tr.root, name), dir)
		if strings.ContainsAny(word, " \t\n*?[") || strings.HasPrefix(word, "-") {
			return floor("it lists " + word + ", which bash splits, globs again or passes as an option")
		}
		if t.Role == argmodel.Read {
			w.add(name, dir, false)
		}
	}
	if len(w.groups) == 0 {
		return nil
	}
	return []Check{{Surface: "path", Value: t.Value, Forms: w.groups, At: at, StrictOnly: true, Within: t.Value}}
}

// lsFilesWord spells the absolute path p as git ls-files prints it from dir.
func lsFilesWord(p, dir string) string {
	if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(dir, "/")+"/"); ok {
		return rel
	}
	up := ""
	for d := path.Clean(dir); d != "/" && !strings.HasPrefix(p, d+"/"); d = path.Dir(d) {
		up += "../"
		if path.Dir(d) == "/" {
			return up + strings.TrimPrefix(p, "/")
		}
	}
	return up + p
}
