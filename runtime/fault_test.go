package runtime_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// faultFS is a file system whose calls fail as a test says.
type faultFS struct {
	facts.MapFS
	lstat    map[string]error // Lstat of these paths fails
	readlink map[string]error // Readlink of these paths fails
}

func (f faultFS) Lstat(name string) (fs.FileMode, error) {
	if err := f.lstat[name]; err != nil {
		return 0, err
	}
	return f.MapFS.Lstat(name)
}

func (f faultFS) Readlink(name string) (string, error) {
	if err := f.readlink[name]; err != nil {
		return "", err
	}
	return f.MapFS.Readlink(name)
}

// TestFaults injects each fault the engine can meet and requires a block
// (an error, which the host turns into a block, or deny) or an ask with a
// reason, never an allow.
func TestFaults(t *testing.T) {
	const allowAll = `{"permission": {"*": "allow", "bash": {"*": "allow"}, "path": {"*": "allow", "/secret/*": "deny"}}}`
	denied := &fs.PathError{Op: "readlink", Path: "/repo/link", Err: fs.ErrPermission}
	read := func(p string) facts.Call { return facts.Call{Tool: "read", Input: map[string]any{"path": p}} }
	for _, c := range []struct {
		name   string
		fsys   facts.FS
		edit   func(*compiler.Output)
		ctx    func() context.Context
		call   facts.Call
		want   string // "ask", "deny" or "error"
		reason string // what the decision must say
	}{
		{name: "permission denied on readlink",
			fsys: faultFS{MapFS: facts.MapFS{"/repo/link": "link:/secret/key"}, readlink: map[string]error{"/repo/link": denied}},
			call: read("/repo/link"), want: "ask", reason: "permission denied"},
		{name: "permission denied on lstat",
			// /repo exists: the kernel (and facts) never look below a
			// folder that does not.
			fsys: faultFS{MapFS: facts.MapFS{"/repo/y": "file"}, lstat: map[string]error{"/repo/x": &fs.PathError{Op: "lstat", Path: "/repo/x", Err: fs.ErrPermission}}},
			call: read("/repo/x"), want: "ask", reason: "permission denied"},
		{name: "a symlink loop",
			fsys: facts.MapFS{"/repo/a": "link:/repo/b", "/repo/b": "link:/repo/a"},
			call: read("/repo/a"), want: "ask", reason: "too many levels of symbolic links"},
		{name: "a file vanished between lstat and readlink",
			fsys: faultFS{MapFS: facts.MapFS{"/repo/gone": "link:/secret/key"}, readlink: map[string]error{"/repo/gone": &fs.PathError{Op: "readlink", Path: "/repo/gone", Err: fs.ErrNotExist}}},
			call: read("/repo/gone"), want: "ask", reason: "does not exist"},
		{name: "a bash path token behind a failing link",
			fsys: faultFS{MapFS: facts.MapFS{"/repo/link": "link:/secret/key"}, readlink: map[string]error{"/repo/link": denied}},
			call: facts.Call{Tool: "bash", Input: map[string]any{"command": "cat link"}}, want: "ask", reason: "permission denied"},
		{name: "rule data of the wrong type (an OPA evaluation fault)",
			edit: func(out *compiler.Output) {
				out.Data["regate"].(map[string]any)["rules"].(map[string]any)["policy"].(map[string]any)["surfaces"] = "not an object"
			},
			call: read("/repo/a.go"), want: "error-or-deny"},
		{name: "rule data missing altogether",
			edit: func(out *compiler.Output) { delete(out.Data["regate"].(map[string]any), "rules") },
			call: read("/repo/a.go"), want: "error-or-deny"},
		{name: "a cancelled context",
			ctx: func() context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx
			},
			call: facts.Call{Tool: "bash", Input: map[string]any{"command": "ls"}}, want: "error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(allowAll)}}, compiler.WithHome("/home/u"))
			if err != nil {
				t.Fatal(err)
			}
			if c.edit != nil {
				c.edit(out)
			}
			fsys := c.fsys
			if fsys == nil {
				fsys = facts.MapFS{}
			}
			ctx := context.Background()
			if c.ctx != nil {
				ctx = c.ctx()
			}
			{
				e, err := runtime.New(context.Background(), out, runtime.WithCwd("/repo"), runtime.WithFS(fsys), runtime.WithCacheSize(0))
				if err != nil {
					if c.want == "error" || c.want == "error-or-deny" {
						return // preparing failed: nothing is decided, the host blocks
					}
					t.Fatal(err)
				}
				d, err := e.Decide(ctx, c.call)
				switch {
				case err != nil && (c.want == "error" || c.want == "error-or-deny"):
				case err != nil:
					t.Errorf("error %v; want %s", err, c.want)
				case d.Action == "allow":
					t.Errorf("a fault allowed: %+v", d)
				case c.want == "error-or-deny" && d.Action != "deny":
					t.Errorf("%+v; want deny or an error", d)
				case c.want == "ask" && (d.Action != "ask" || !strings.Contains(strings.ToLower(d.Reason+" "+d.Message), c.reason)):
					t.Errorf("%+v; want ask saying %q", d, c.reason)
				case c.want == "error":
					t.Errorf("decided %+v; want an error", d)
				}
			}
		})
	}
}
