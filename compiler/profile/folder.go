package profile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/rulefile"
)

// MaxFolderEntries bounds the entries of a profiles folder that are
// listed. A folder holding more is refused as a whole (profiles-dir): the
// listing stops there, and with each body at most MaxBodyBytes a scope
// never holds more than about 64 MiB of profiles.
const MaxFolderEntries = 1000

// Folder is one scope's config folder as read from disk: config.json (nil:
// there is none), the bodies of the profiles/<id>.md files that could be
// read, by id, and what could not be read, positioned at the file.
type Folder struct {
	Config   *compiler.Source
	Profiles map[string]string
	Faults   compiler.Errors
}

// ReadFolder reads the config folder dir (the global
// <agentDir>/system-prompts or a trusted project's .pi/system-prompts).
// Nothing in it can stop the reading, hang it or make it grow without
// bound: every file is opened without waiting (a FIFO is refused, not
// waited on), must be a regular file and is read no further than its
// limit; one entry that cannot be used is skipped with a diagnostic, and
// the rest are read.
//
// dir itself and its config.json are named by the user and may be links,
// followed as the upstream extension follows them. The profiles folder and
// the profiles in it are never followed through a link (profile-symlink):
// a profiles/leak.md pointing at ~/.ssh/id_rsa would otherwise put the key
// into the prompt sent to the model provider. The profiles folder is
// listed, never globbed, so a folder whose name holds [, * or ? names only
// itself.
func ReadFolder(dir string) Folder {
	f := Folder{Profiles: map[string]string{}}
	f.readConfig(filepath.Join(dir, "config.json"))
	f.readProfiles(filepath.Join(dir, "profiles"))
	return f
}

// AddFolder puts a scope's folder into the input: its config, its profiles
// and its faults.
func (in *Input) AddFolder(scope string, f Folder) {
	if in.Profiles == nil {
		in.Profiles = map[string]map[string]string{}
	}
	if in.Faults == nil {
		in.Faults = map[string]compiler.Errors{}
	}
	if scope == Project {
		in.Project = f.Config
	} else {
		in.Global = f.Config
	}
	in.Profiles[scope] = f.Profiles
	in.Faults[scope] = f.Faults
}

func (f *Folder) fault(path, code, format string, args ...any) {
	f.Faults = append(f.Faults, &compiler.Error{
		Pos: compiler.Pos{File: DisplayName(path), Line: 1, Col: 1}, Code: code,
		Msg: fmt.Sprintf(format, args...), Severity: compiler.SeverityError,
	})
}

// readConfig reads config.json: absent is no file; past compiler's
// MaxFileSize, what was read goes on, and the compiler reports the size
// (config-parse); a file that cannot be read counts as invalid.
func (f *Folder) readConfig(path string) {
	b, err := rulefile.Read(path, compiler.MaxFileSize)
	switch {
	case err == nil, errors.Is(err, rulefile.ErrTooLarge):
		f.Config = &compiler.Source{Name: path, Data: b}
	case errors.Is(err, fs.ErrNotExist):
	default:
		f.fault(path, CodeConfigUnreadable, "the configuration cannot be read (%s); it counts as invalid", reason(err))
	}
}

// readProfiles lists the profiles folder through an os.Root opened on the
// very folder that was checked not to be a link, and reads each <id>.md in
// name order.
func (f *Folder) readProfiles(dir string) {
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		f.fault(dir, CodeProfilesDir, "the profiles folder cannot be read (%s); no profile of it is read", reason(err))
		return
	case info.Mode()&fs.ModeSymlink != 0:
		f.fault(dir, CodeProfileSymlink, "the profiles folder is a symbolic link, which is not followed; no profile of it is read")
		return
	case !info.IsDir():
		f.fault(dir, CodeProfilesDir, "profiles is not a folder; no profile is read")
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		f.fault(dir, CodeProfilesDir, "the profiles folder cannot be read (%s); no profile of it is read", reason(err))
		return
	}
	defer root.Close()
	if opened, err := root.Stat("."); err != nil || !os.SameFile(info, opened) {
		f.fault(dir, CodeProfileSymlink, "the profiles folder changed while it was opened; no profile of it is read")
		return
	}
	names, err := listNames(root)
	if err != nil {
		f.fault(dir, CodeProfilesDir, "the profiles folder cannot be listed (%s); no profile of it is read", reason(err))
		return
	}
	for _, name := range names {
		id, ok := strings.CutSuffix(name, ".md")
		if !ok {
			continue
		}
		path := filepath.Join(dir, name)
		if !ValidID(id) {
			f.fault(path, CodeProfileID, "%q is not a safe profile id; the file is skipped", id)
			continue
		}
		b, err := rulefile.ReadEntry(root, name, MaxBodyBytes+int64(len(bom)))
		switch {
		case err == nil:
			f.Profiles[id] = string(b)
		case errors.Is(err, rulefile.ErrSymlink):
			f.fault(path, CodeProfileSymlink, "the profile is a symbolic link, which is not followed; the file is skipped")
		case errors.Is(err, rulefile.ErrTooLarge):
			f.fault(path, CodeProfileTooLarge, "the body is more than %d bytes, the limit; the file is skipped", MaxBodyBytes)
		default:
			f.fault(path, CodeProfileUnreadable, "the profile cannot be read (%s); the file is skipped", reason(err))
		}
	}
}

// listNames lists the folder's entry names in name order, refusing a
// folder of more than MaxFolderEntries entries without listing it further.
func listNames(root *os.Root) ([]string, error) {
	d, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var names []string
	for {
		batch, err := d.Readdirnames(256)
		names = append(names, batch...)
		if len(names) > MaxFolderEntries {
			return nil, fmt.Errorf("more than %d entries", MaxFolderEntries)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(names)
	return names, nil
}

// reason is why a file could not be read, without the path the
// diagnostic already gives.
func reason(err error) string {
	var notRegular *rulefile.NotRegularError
	switch {
	case errors.As(err, &notRegular):
		return "not a regular file: " + notRegular.Kind
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return Printable(pe.Err.Error())
	}
	return Printable(err.Error())
}
