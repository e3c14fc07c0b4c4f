//go:build unix

package rulefile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/regate/regate/internal/rulefile"
)

// A rule file is read only when it is a regular file, and never past its
// limit; a named pipe, which would block the reader until a writer came,
// is refused without waiting. In a listed folder a symbolic link is never
// followed.
func ExampleRead() {
	dir, err := os.MkdirTemp("", "regate-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	short := func(err error) string { return strings.ReplaceAll(fmt.Sprint(err), dir, "DIR") }
	policy := filepath.Join(dir, "policy.jsonc")
	if err := os.WriteFile(policy, []byte(`{"permission": {"*": "ask"}}`), 0o600); err != nil {
		panic(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.jsonc"), 0o600); err != nil {
		panic(err)
	}
	if err := os.Symlink(policy, filepath.Join(dir, "link.md")); err != nil {
		panic(err)
	}

	b, err := rulefile.Read(policy, 1<<20)
	fmt.Printf("%s %v\n", b, err)
	b, err = rulefile.Read(policy, 10)
	fmt.Println(len(b), errors.Is(err, rulefile.ErrTooLarge), short(err))
	_, err = rulefile.Read(filepath.Join(dir, "fifo.jsonc"), 1<<20)
	fmt.Println(errors.Is(err, rulefile.ErrNotRegular), short(err))

	root, err := os.OpenRoot(dir)
	if err != nil {
		panic(err)
	}
	defer root.Close()
	_, err = rulefile.ReadEntry(root, "link.md", 1<<20)
	fmt.Println(errors.Is(err, rulefile.ErrSymlink), short(err))
	// Output:
	// {"permission": {"*": "ask"}} <nil>
	// 11 true DIR/policy.jsonc: file too large: more than 10 bytes
	// true DIR/fifo.jsonc: not a regular file (a named pipe)
	// true DIR/link.md: a symbolic link, not followed
}
