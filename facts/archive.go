package facts

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
)

// Archives (role "archive", argmodel.Archive): unzip writes the files an
// archive names into a folder. Strict mode reads the archive's central
// directory (archive/zip) and decides each file an entry makes as a write
// of that path, beside the read of the archive itself: extracting a .env
// is a write of .env, and one into ~/.config is a write there.
//
// The names are turned into paths as Info-ZIP's unzip 6.0 does on Unix:
// a leading "/" is stripped and ".." components are dropped (unzip warns
// and skips them; -: keeps them, and floors in the model), -j keeps the
// base name alone, and the result is placed under -d's folder or the
// working folder. A "\" in a name may be a folder separator (unzip reads
// it so in an archive made on Windows), so such a name is gated both
// ways. Folder entries make folders, not files, and are left out.
//
// What regate cannot read as unzip would asks: an archive that is not a
// regular file, does not exist yet, does not parse as a zip, or holds
// more than maxArchiveEntries entries; an entry that is a symbolic link
// (its target is anywhere, and later names resolve through it); an
// archive name with a glob unzip expands itself; a -d value bash expands
// at run time.

const maxArchiveEntries = 10000

// appendArchiveChecks adds, after the path check c of an archive, its read
// and the strict-only path and write checks of every file its entries
// make.
func (e *Env) appendArchiveChecks(out []Check, c Check, t bashfacts.Token, base string) []Check {
	out = append(out, roleCheck(c, "read"))
	dir, known := e.effectiveDir(t.Dir, base)
	switch {
	case !known:
		return append(out, archiveFloor(t, "a cd to an unknown place came before it"))
	case t.Archive == nil:
		return append(out, archiveFloor(t, "its names are read without unzip's options"))
	case t.Archive.Unknown != "":
		return append(out, archiveFloor(t, t.Archive.Unknown))
	case strings.ContainsAny(t.Value, "*?["):
		return append(out, archiveFloor(t, "unzip matches archive names against the pattern itself"))
	}
	names, err := e.archiveNames(e.absolute(t.Value, dir))
	if err != nil {
		return append(out, archiveFloor(t, err.Error()))
	}
	into := dir
	if d := t.Archive.Directory; d != "" {
		into = e.absolute(d, dir)
	}
	for _, name := range names {
		for _, p := range entryPaths(name, t.Archive.Junk) {
			target := t
			target.Value, target.Role, target.Bare, target.Pattern, target.Glob, target.Archive = path.Join(into, p), argmodel.Write, false, false, "", nil
			w, _, ok := e.tokenCheck(target, base)
			if !ok {
				continue
			}
			w.StrictOnly = true
			out = append(out, w)
			out = e.appendWriteChecks(out, w, bashfacts.WriteCreate)
		}
	}
	return out
}

// archiveFloor is the check that asks for an archive whose files regate
// cannot tell.
func archiveFloor(t bashfacts.Token, why string) Check {
	return Check{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: t.Pos.String(),
		StrictOnly: true, Strict: "strict mode cannot tell which files the archive " + t.Value + " writes: " + why}
}

// entryPaths are the paths, relative to the folder unzip extracts into,
// that an entry name may make: one, or two for a name with a "\" (a
// folder separator or a character of the name, as the archive's maker
// says).
func entryPaths(name string, junk bool) []string {
	forms := []string{name}
	if strings.Contains(name, `\`) {
		forms = append(forms, strings.ReplaceAll(name, `\`, "/"))
	}
	var out []string
	for _, f := range forms {
		var kept []string
		for _, c := range strings.Split(f, "/") {
			if c != "" && c != "." && c != ".." {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			continue
		}
		if junk {
			kept = kept[len(kept)-1:]
		}
		out = append(out, strings.Join(kept, "/"))
	}
	return out
}

// archiveNames are the names of the file entries of the zip archive at
// name; folder entries are left out, and a symbolic link is an error.
func (e *Env) archiveNames(name string) ([]string, error) {
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
	r, size, err := readerAt(f)
	if err != nil {
		return nil, err
	}
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("it is not a zip archive regate can read: %v", err)
	}
	if len(z.File) > maxArchiveEntries {
		return nil, fmt.Errorf("it holds more than %d entries", maxArchiveEntries)
	}
	names := make([]string, 0, len(z.File))
	for _, zf := range z.File {
		mode := zf.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("its entry %s is a symbolic link", zf.Name)
		case mode.IsDir() || strings.HasSuffix(zf.Name, "/"):
			continue
		}
		names = append(names, zf.Name)
	}
	return names, nil
}

// readerAt gives random access to an opened file: the file itself when it
// has it (a file of the host: zip reads its directory alone), else its
// contents read into memory, up to maxPatchBytes.
func readerAt(f io.Reader) (io.ReaderAt, int64, error) {
	if ra, ok := f.(interface {
		io.ReaderAt
		Stat() (fs.FileInfo, error)
	}); ok {
		info, err := ra.Stat()
		if err != nil {
			return nil, 0, err
		}
		return ra, info.Size(), nil
	}
	b, err := readLimited(f)
	if err != nil {
		return nil, 0, err
	}
	return bytes.NewReader(b), int64(len(b)), nil
}
