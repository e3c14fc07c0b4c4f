package facts

import (
	"bytes"
	"path"
	"strings"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// A build context (docker build PATH, role argmodel.TreeContext) is a
// folder read recursively, but for what its .dockerignore excludes: the
// builder never receives those files, so a context whose .dockerignore
// names .env does not read .env. The file is read as docker reads it
// (moby's ignorefile and patternmatcher, the code docker's CLI uses), and
// the walk leaves out what it would (moby/go-archive's TarWithOptions: a
// folder that matches is skipped whole unless a "!" pattern may bring
// something inside it back).
//
// BuildKit reads DOCKERFILE.dockerignore beside the Dockerfile in place of
// .dockerignore. regate does not follow the Dockerfile to its folder, so a
// context that holds any other *.dockerignore file is read whole, and so
// is one built with -f (the docker model gives it role tree then): what
// the builder leaves out is then not known, and the read can only ask
// more. The Dockerfile and .dockerignore themselves are always sent.

// dockerignore returns the patterns of the context root's .dockerignore,
// or nil when there is none, it cannot be read, or another *.dockerignore
// file may take its place.
func (e *Env) dockerignore(root string) *patternmatcher.PatternMatcher {
	list, ok := e.dirLister()
	reader, readable := e.fs().(FileReader)
	if !ok || !readable {
		return nil
	}
	ents, err := list(root)
	if err != nil {
		return nil
	}
	found := false
	for _, ent := range ents {
		switch {
		case ent.name == ".dockerignore" && !ent.dir:
			found = true
		case strings.HasSuffix(ent.name, ".dockerignore"):
			return nil // Dockerfile.dockerignore: BuildKit may read it instead
		}
	}
	if !found {
		return nil
	}
	text, err := reader.ReadFile(path.Join(root, ".dockerignore"))
	if err != nil {
		return nil
	}
	patterns, err := ignorefile.ReadAll(bytes.NewReader(text))
	if err != nil {
		return nil
	}
	// docker's CLI keeps the Dockerfile and .dockerignore in the context
	// whatever the patterns say (TrimBuildFilesFromExcludes).
	for _, keep := range []string{".dockerignore", "Dockerfile"} {
		if m, err := patternmatcher.MatchesOrParentMatches(keep, patterns); err == nil && m {
			patterns = append(patterns, "!"+keep)
		}
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		return nil // a pattern docker would refuse: the build fails, but read it all
	}
	return pm
}

// excluded reports whether the build context leaves out the entry at rel,
// and, for a folder it leaves out, whether the walk must still enter it
// (a "!" pattern may bring back something inside).
func (w *treeWalk) excluded(rel string, dir bool) (bool, bool) {
	if w.excludes == nil {
		return false, false
	}
	m, err := w.excludes.MatchesOrParentMatches(rel)
	if err != nil || !m {
		return false, false
	}
	return true, dir && w.excludes.Exclusions()
}
