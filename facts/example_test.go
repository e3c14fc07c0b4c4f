package facts_test

import (
	"encoding/json"
	"fmt"

	"github.com/regate/regate/facts"
)

// A call in, the input document out: the bash command split into units,
// each path in every form regate matches it by (here the symlink's target
// too), as `regate facts` prints it and a stock OPA server evaluates it.
func ExampleBuild() {
	env := facts.Env{
		Cwd:  "/home/u/repo",
		Home: "/home/u",
		// a virtual file system: notes.txt is a symbolic link to ~/.ssh/id_rsa
		FS: facts.MapFS{"/home/u/repo/notes.txt": "link:/home/u/.ssh/id_rsa", "/home/u/.ssh/id_rsa": "file"},
	}
	in := facts.Build(facts.Call{Tool: "bash", Input: map[string]any{"command": "git status && cat notes.txt"}}, env)
	for _, c := range in.Checks {
		if c.StrictOnly {
			continue // checks that count only in strict mode
		}
		forms, _ := json.Marshal(c.Forms)
		fmt.Println(c.Surface, c.Value, string(forms))
	}
	// Output:
	// bash git status [["git status"]]
	// bash cat notes.txt [["cat notes.txt"]]
	// path notes.txt [["notes.txt","/home/u/repo/notes.txt"],["/home/u/.ssh/id_rsa"]]
}
