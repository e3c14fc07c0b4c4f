package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestJoinedPathsOfUnmodelledPrograms: a program regate has no model of
// meets the path rules with each path joined inside one word, in strict
// mode: a bind mount (podman run -v SRC:DST, --mount source=SRC) gives the
// container the host folder, so mounting ~/.ssh is reading it (docker has
// a model: TestRemoteProgramModels). Without
// strict mode the spec's reading (the word as one token) stands.
func TestJoinedPathsOfUnmodelledPrograms(t *testing.T) {
	fsys := facts.MapFS{"/home/u/.ssh/id_rsa": "file", "/home/u/repo/src/a.go": "file"}
	const rules = `"permission": {"*": "ask", "bash": {"*": "ask", "docker *": "allow", "podman *": "allow"},
		"path": {"*": "allow", "~/.ssh/*": "deny"}}`
	strict := newEngine(t, `{"strict": true, `+rules+`}`, runtime.WithFS(fsys))
	plain := newEngine(t, `{`+rules+`}`, runtime.WithFS(fsys))
	for _, c := range []struct{ cmd, strict, plain string }{
		{"podman run -v ~/.ssh:/k alpine cat /k/id_rsa", "deny", "allow"},
		{"podman run --volume=~/.ssh:/k:ro alpine", "deny", "allow"},
		{"podman run --mount type=bind,source=/home/u/.ssh,target=/k alpine", "deny", "allow"},
		{"podman run --mount=type=bind,src=~/.ssh,dst=/k alpine", "deny", "allow"},
		{"podman run -v /home/u/.ssh:/root/.ssh:z alpine", "deny", "allow"},
		{"podman run -v ./src:/src alpine ls /src", "allow", "allow"},
		{"podman run -v myvolume:/data alpine", "allow", "allow"},
		{"podman run -e A=b,c=d alpine", "allow", "allow"},
	} {
		for engine, want := range map[*runtime.Engine]string{strict: c.strict, plain: c.plain} {
			d, err := engine.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil || string(d.Action) != want {
				t.Errorf("%s (strict %v): %s (%s, %v); want %s", c.cmd, engine == strict, d.Action, d.Matched, err, want)
			}
		}
	}
}
