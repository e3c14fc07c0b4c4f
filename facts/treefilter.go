package facts

import (
	"regexp"

	"mvdan.cc/sh/v3/pattern"

	"github.com/regate/regate/bashfacts"
)

// fnmatchMode is fnmatch(3) without FNM_PERIOD, as grep matches its
// --include, --exclude and --exclude-dir globs against a base name: a *
// matches a leading dot (grep -r --exclude='*' skips .env).
const fnmatchMode = pattern.Filenames | pattern.EntireString | pattern.NoGlobStar | pattern.GlobLeadingDot

// nameFilter is a recursive read's filters (bashfacts.Filters) compiled.
// Where regate cannot be sure a file is skipped, it counts as read: an
// include glob that does not compile includes everything, an exclude
// glob that does not compile excludes nothing, and a file that matches
// both an include and an exclude is read (grep lets the last option that
// matches decide).
type nameFilter struct {
	include, exclude, excludeDir []*regexp.Regexp
	includeAll                   bool
}

func compileFilters(f *bashfacts.Filters) nameFilter {
	var nf nameFilter
	if f == nil {
		return nf
	}
	for _, g := range f.Include {
		if re, ok := fnmatch(g); ok {
			nf.include = append(nf.include, re)
		} else {
			nf.includeAll = true
		}
	}
	for _, g := range f.Exclude {
		if re, ok := fnmatch(g); ok {
			nf.exclude = append(nf.exclude, re)
		}
	}
	for _, g := range f.ExcludeDir {
		if re, ok := fnmatch(g); ok {
			nf.excludeDir = append(nf.excludeDir, re)
		}
	}
	return nf
}

func fnmatch(glob string) (*regexp.Regexp, bool) {
	expr, err := pattern.Regexp(glob, fnmatchMode)
	if err != nil {
		return nil, false
	}
	re, err := regexp.Compile(expr)
	return re, err == nil
}

// reads reports whether the read reaches the entry named name: a folder
// unless an exclude-dir glob matches it; a file when an include glob
// matches it, or, with no include glob, when no exclude glob does.
func (f nameFilter) reads(name string, dir bool) bool {
	if dir {
		return !anyMatch(f.excludeDir, name)
	}
	if f.includeAll || anyMatch(f.include, name) {
		return true
	}
	return len(f.include) == 0 && !anyMatch(f.exclude, name)
}

func anyMatch(res []*regexp.Regexp, name string) bool {
	for _, re := range res {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}
