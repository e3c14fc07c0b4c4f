package facts

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
)

// Archives (role "archive", argmodel.Archive): unzip and tar -x write the
// files an archive names into a folder. Strict mode reads the archive's
// names (archive/zip's central directory; archive/tar's headers, through
// gzip or bzip2) and decides each file an entry makes as a write of that
// path, beside the read of the archive itself: extracting a .env is a
// write of .env, and one into ~/.config is a write there. Printed rather
// than extracted (unzip -p, tar -xO), each entry is a read of the file it
// would make: the agent sees an archived .env as it would the file. The
// archive is read as its program reads it (argmodel's archive_format):
// unzip and Python's zipfile find a zip archive's central directory from
// the end of the file, whatever it begins with, and regate asks when zip
// readers may disagree on it (zipread.go); GNU tar reads tar headers,
// through the compression the file's first bytes name.
//
// The names are turned into paths as the programs do on Unix. unzip
// (Info-ZIP 6.0) strips a leading "/" and drops ".." components (unzip -:
// keeps them, and floors in the model), -j keeps the base name, and a "\"
// in a name may be a folder separator (unzip reads it so in an archive
// made on Windows), so such a name is gated both ways. GNU tar strips a
// leading "/", skips a name with a ".." component (gated anyway, without
// the ".."), drops --strip-components leading components ("." counts as
// one) and skips a name left empty. The result is placed under -d's or
// -C's folder, or the working folder. Folder entries make folders, not
// files, and are left out.
//
// What regate cannot read as the program would asks: an archive that is
// not a regular file, does not exist yet, is larger than maxArchiveBytes,
// is in a format or compression regate does not read (xz, zstd, …, and
// Zip64), ends in a way zip readers read differently, or
// holds more than maxArchiveEntries entries; an entry that is a symbolic
// or hard link (its target is anywhere, and later names resolve through
// it); an archive name with a glob unzip expands itself; a folder or a
// number of components bash expands at run time, or a folder given twice.

const (
	maxArchiveEntries = 10000
	maxArchiveBytes   = 256 << 20
)

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
	names, err := e.archiveNames(e.absolute(t.Value, dir), t.Archive.Format)
	if err != nil {
		return append(out, archiveFloor(t, err.Error()))
	}
	into := dir
	if d := t.Archive.Directory; d != "" {
		into = e.absolute(d, dir)
	}
	for _, name := range names {
		paths := entryPaths(name, t.Archive.Junk, t.Archive.Lower)
		if t.Archive.Format == "tar" {
			paths = tarEntryPath(name, t.Archive.Strip)
		}
		for _, p := range paths {
			target := t
			target.Value, target.Role, target.Bare, target.Pattern, target.Glob, target.Archive = path.Join(into, p), argmodel.Write, false, false, "", nil
			w, _, ok := e.tokenCheck(target, base)
			if !ok {
				continue
			}
			w.StrictOnly = true
			if t.Archive.Print {
				// unzip -p, tar -xO: the entry's contents are printed, as
				// a read of the file it would make.
				out = append(out, w, roleCheck(w, "read"))
				continue
			}
			out = append(out, w)
			out = e.appendWriteChecks(out, w, bashfacts.WriteCreate)
		}
	}
	return out
}

// archiveFloor is the check that asks for an archive whose files regate
// cannot tell.
func archiveFloor(t bashfacts.Token, why string) Check {
	does := " writes: "
	if t.Archive != nil && t.Archive.Print {
		does = " prints: "
	}
	return Check{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: t.Pos.String(),
		StrictOnly: true, Strict: "strict mode cannot tell which files the archive " + t.Value + does + why}
}

// entryPaths are the paths, relative to the folder unzip extracts into,
// that an entry name may make: one, or two for a name with a "\" (a
// folder separator or a character of the name, as the archive's maker
// says).
func entryPaths(name string, junk, lower bool) []string {
	forms := []string{name}
	if l := strings.ToLower(name); lower && l != name {
		// unzip -L lowercases the names an upper-case-only system made
		// (-LL every name): X.ENV may become x.env.
		forms = append(forms, l)
	}
	for _, f := range forms {
		if strings.Contains(f, `\`) {
			forms = append(forms, strings.ReplaceAll(f, `\`, "/"))
		}
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

// tarEntryPath is the path GNU tar makes of an entry name: none when it
// skips the name, the name without its ".." components (gated though tar
// skips it, as a name another tar may write).
func tarEntryPath(name string, strip int) []string {
	parts := strings.Split(strings.TrimLeft(name, "/"), "/")
	if strip > 0 {
		if strip >= len(parts) {
			return nil
		}
		parts = parts[strip:]
	}
	var kept []string
	for _, c := range parts {
		if c != "" && c != "." && c != ".." {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return []string{strings.Join(kept, "/")}
}

// archiveNames are the names of the file entries of the archive at name,
// read as format says the program reads it ("zip" or "tar": a file may be
// both, and unzip finds a zip archive at the end of a file that begins as
// a compressed tar); folder entries are left out, and a link is an error.
func (e *Env) archiveNames(name, format string) ([]string, error) {
	if format != "zip" && format != "tar" {
		return nil, errors.New("regate does not know how the program reads it")
	}
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
	if size > maxArchiveBytes {
		return nil, fmt.Errorf("it is larger than %d bytes", maxArchiveBytes)
	}
	head := make([]byte, 512)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	switch {
	case format == "zip":
		names, err := zipNames(r, size)
		return names, err
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		z, err := gzip.NewReader(io.NewSectionReader(r, 0, size))
		if err != nil {
			return nil, fmt.Errorf("it is not a gzip stream regate can read: %v", err)
		}
		names, err := tarNames(io.LimitReader(z, maxArchiveBytes))
		return names, err
	case bytes.HasPrefix(head, []byte("BZh")):
		names, err := tarNames(io.LimitReader(bzip2.NewReader(io.NewSectionReader(r, 0, size)), maxArchiveBytes))
		return names, err
	case len(head) == 512 && string(head[257:262]) == "ustar":
		// Seekable: tar skips the entries' contents rather than reading them.
		names, err := tarNames(io.NewSectionReader(r, 0, size))
		return names, err
	}
	return nil, errors.New("it is in a format or a compression regate does not read")
}

// zipNames are the names of a zip archive's file entries, each with the
// name its Unicode Path field gives it (zipReadAlike).
func zipNames(r io.ReaderAt, size int64) ([]string, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("it is not a zip archive regate can read: %v", err)
	}
	if len(z.File) > maxArchiveEntries {
		return nil, fmt.Errorf("it holds more than %d entries", maxArchiveEntries)
	}
	if err := zipReadAlike(r, size, len(z.File)); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(z.File))
	for _, zf := range z.File {
		// unzip and zipfile end a name at a NUL, as a C string ends;
		// Go keeps the rest. A folder is a name that ends with "/".
		name, _, _ := strings.Cut(zf.Name, "\x00")
		switch {
		case zf.Mode()&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("its entry %s is a symbolic link", name)
		case strings.HasSuffix(name, "/"):
			continue
		}
		names = append(names, name)
		if u, ok := unicodePath(zf.Extra); ok && u != name {
			u, _, _ = strings.Cut(u, "\x00")
			names = append(names, u)
		}
	}
	return names, nil
}

// tarNames are the names of a tar archive's file entries, read from its
// headers to the end (a decompressed stream is cut at maxArchiveBytes by
// the caller).
func tarNames(r io.Reader) ([]string, error) {
	tr := tar.NewReader(r)
	var names []string
	for {
		h, err := tr.Next()
		switch {
		case err == io.EOF:
			return names, nil
		case err != nil:
			return nil, fmt.Errorf("it is not a tar archive regate can read to its end: %v", err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			continue
		case tar.TypeXGlobalHeader:
			// GNU tar names every entry after a global header by its
			// path; Go's archive/tar leaves the header to its caller.
			for _, k := range tarNameRecords {
				if _, ok := h.PAXRecords[k]; ok {
					return nil, fmt.Errorf("a global header names its entries (%s)", k)
				}
			}
			continue
		case tar.TypeSymlink, tar.TypeLink:
			return nil, fmt.Errorf("its entry %s is a link", h.Name)
		case tar.TypeReg, tar.TypeChar, tar.TypeBlock, tar.TypeFifo, tar.TypeCont, tar.TypeGNUSparse:
		default:
			return nil, fmt.Errorf("its entry %s is of a type regate does not read (%q)", h.Name, h.Typeflag)
		}
		if len(names) == maxArchiveEntries {
			return nil, fmt.Errorf("it holds more than %d entries", maxArchiveEntries)
		}
		names = append(names, h.Name)
		// GNU tar takes a PAX path over a GNU long name, Go the long
		// name over the path: both are gated.
		for _, k := range tarNameRecords {
			if v, ok := h.PAXRecords[k]; ok && v != h.Name {
				names = append(names, v)
			}
		}
	}
}

// tarNameRecords are the PAX records that name an entry.
var tarNameRecords = []string{"path", "GNU.sparse.name"}

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
