package statedir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/compiler"
)

// EnvVar names the environment variable that overrides the default root.
const EnvVar = "REGATE_STATE_DIR"

// staleAfter is how long a policy's folder may go unmodified before a new
// compilation removes it.
const staleAfter = 30 * 24 * time.Hour

// Dir is a state folder. It is safe for concurrent use, by goroutines and
// by processes.
type Dir struct {
	root string
}

// DefaultRoot is $REGATE_STATE_DIR, else regate's folder in the user's
// cache folder.
func DefaultRoot() (string, error) {
	if r := os.Getenv(EnvVar); r != "" {
		return r, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("statedir: %w", err)
	}
	return filepath.Join(c, "regate"), nil
}

// Open opens (or creates) the state folder at root.
func Open(root string) (*Dir, error) {
	if err := mkdir(root); err != nil {
		return nil, err
	}
	return &Dir{root: root}, nil
}

func mkdir(p string) error {
	if err := os.MkdirAll(p, 0o700); err != nil {
		return fmt.Errorf("statedir: %w", err)
	}
	if err := os.Chmod(p, 0o700); err != nil {
		return fmt.Errorf("statedir: %w", err)
	}
	return nil
}

// cached is compiled.json: the output and the hash it was stored under.
type cached struct {
	Hash   string           `json:"hash"`
	Output *compiler.Output `json:"output"`
}

// Compile returns the compiled policy of in, from the folder when an
// earlier call compiled the same rule files (cached is then true), else
// compiled and stored. Only compiling can fail: a cache that cannot be
// read or written is passed by.
func (d *Dir) Compile(in compiler.Input, opts ...compiler.Option) (out *compiler.Output, wasCached bool, err error) {
	hash := compiler.InputHash(in, opts...)
	file := filepath.Join(d.root, hash, "compiled.json")
	if b, err := os.ReadFile(file); err == nil {
		var c cached
		// Numbers stay as written: a rank of 1000000 read as float64
		// would come back to OPA as 1e+06.
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if dec.Decode(&c) == nil && c.Hash == hash && c.Output != nil && c.Output.Hash == hash {
			return c.Output, true, nil
		}
	}
	out, err = compiler.Compile(in, opts...)
	if err != nil {
		return nil, false, err
	}
	_ = d.store(hash, out) // a cache that cannot be written is only slower
	return out, false, nil
}

// Meta returns the metadata of the compiled policy of in (its hash, home,
// knobs, diagnostics and examples; no rules and no modules) and a load
// that returns the whole of it: a hook process whose call the stored
// decisions answer (Decisions) reads only the metadata. When no earlier
// call compiled the rule files, they are compiled now and stored, and
// load returns what was compiled.
func (d *Dir) Meta(in compiler.Input, opts ...compiler.Option) (*compiler.Output, func() (*compiler.Output, error), error) {
	hash := compiler.InputHash(in, opts...)
	if b, err := os.ReadFile(filepath.Join(d.root, hash, metaFile)); err == nil {
		var c cached
		if json.Unmarshal(b, &c) == nil && c.Hash == hash && c.Output != nil && c.Output.Hash == hash {
			return c.Output, func() (*compiler.Output, error) {
				out, _, err := d.Compile(in, opts...)
				return out, err
			}, nil
		}
	}
	out, _, err := d.Compile(in, opts...)
	if err != nil {
		return nil, nil, err
	}
	return out, func() (*compiler.Output, error) { return out, nil }, nil
}

// metaFile is the compiled policy without its rules and modules.
const metaFile = "meta.json"

func (d *Dir) store(hash string, out *compiler.Output) error {
	// The compiled data holds AST values (matchers built once); stored as
	// the plain JSON they stand for, they load back to the same values.
	v, err := ast.InterfaceToValue(out.Data)
	if err != nil {
		return err
	}
	plain, err := ast.JSON(v)
	if err != nil {
		return err
	}
	data, ok := plain.(map[string]any)
	if !ok {
		return fmt.Errorf("statedir: compiled data is not an object")
	}
	o := *out
	o.Data = data
	dir := filepath.Join(d.root, hash)
	if err := mkdir(dir); err != nil {
		return err
	}
	d.prune(hash)
	if err := writeFile(dir, "compiled.json", cached{Hash: hash, Output: &o}); err != nil {
		return err
	}
	meta := *out
	meta.Data, meta.Modules = nil, nil
	return writeFile(dir, metaFile, cached{Hash: hash, Output: &meta})
}

// writeFile writes v as JSON to dir/name through a temporary file renamed
// into place, so that a reader sees a whole file or none.
func writeFile(dir, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, name+"-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}

// prune removes the folders of other policies left unmodified for
// staleAfter, and the sessions no hook or approval touched for as long.
func (d *Dir) prune(keep string) {
	entries, err := os.ReadDir(d.root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() == sessionsDir {
			d.pruneSessions()
			continue
		}
		info, err := e.Info()
		if err != nil || !e.IsDir() || e.Name() == keep || time.Since(info.ModTime()) < staleAfter {
			continue
		}
		_ = os.RemoveAll(filepath.Join(d.root, e.Name()))
	}
}

// Root is the folder's path.
func (d *Dir) Root() string {
	if d == nil {
		return ""
	}
	return d.root
}
