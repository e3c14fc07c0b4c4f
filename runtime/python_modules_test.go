package runtime_test

import (
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestPythonModules: python -m NAME runs a module of the standard library
// whose command line regate reads with the module's model
// (models/pymodules.json): http.server serves its folder, timeit and pdb
// run code given inline, json.tool, venv, zipfile, cProfile, fileinput
// and pickletools write files. The developer policy allows python3 *; in
// its strict mode every "ask" row below was allowed before these models,
// and the zipfile row that denies was too (the archive holds a .env).
// Modules with no model run as a script does (python3 -m mypkg), as the
// policy allows.
func TestPythonModules(t *testing.T) {
	fsys := facts.MapFS{
		"/home/u/.bashrc": "file", "/home/u/.ssh/id_rsa": "file",
		"/home/u/repo/.env": "file", "/home/u/repo/app.py": "file", "/home/u/repo/data.json": "file",
		"/home/u/repo/docs/index.html": "file", "/home/u/repo/x.tar": "file", "/home/u/repo/backup.sql.gz": "file",
		"/home/u/repo/release.zip": "file:" + zipOf(t, [2]string{"lib/a.py", "a"}, [2]string{"README", "r"}),
		"/home/u/repo/secrets.zip": "file:" + zipOf(t, [2]string{"conf/.env", "TOKEN=1"}),
	}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		// A folder served to the network is read whole, .env and ~/.ssh included.
		{"python3 -m http.server", "ask", "ask"},
		{"python3 -m http.server 8000 --directory ~", "ask", "ask"},
		{"python3 -mhttp.server -d=/home/u", "ask", "ask"},
		{"python3 -m SimpleHTTPServer", "ask", "ask"},
		{"python3 -m http.server --cgi -d docs", "ask", "ask"},
		// Code given inline, or through a pipe, as python3 -c is.
		{`python3 -m timeit 'import os; os.system("rm -rf ~")'`, "ask", "ask"},
		{"python3 -m timeit -s 'import os' -n 1", "ask", "ask"},
		{"python3 -m pdb -c continue app.py", "ask", "ask"},
		{"echo c | python3 -m pdb app.py", "ask", "ask"},
		{"printf 'import os\\n' | python3 -m code", "ask", "ask"},
		{"python3 -m cProfile -m http.server", "ask", "ask"},
		// Files written where the policy asks.
		{"python3 -m json.tool data.json ~/.bashrc", "ask", "ask"},
		{"python3 -m venv ~/.venvs/x", "ask", "ask"},
		{"python3 -m zipfile -e release.zip ~/.config", "ask", "ask"},
		{"python3 -m zipfile -e secrets.zip .", "deny", "deny"},
		{"python3 -m zipfile -c out.zip ~/.ssh", "deny", "deny"},
		{"python3 -m tarfile -e x.tar", "ask", "ask"},
		{"python3 -m cProfile -o ~/.bashrc app.py", "ask", "ask"},
		{"python3 -m fileinput -i ~/.bashrc", "ask", "ask"},
		{"python3 -m pickletools -o ~/.bashrc x.pkl", "ask", "ask"},
		{"python3 -m gzip -d backup.sql.gz", "ask", "ask"}, // writes backup.sql
		{"python3 -m ensurepip --user", "ask", "ask"},
		{"python3 -m cgi", "ask", "ask"}, // prints every environment variable
		{"python3 -m json.tool .env", "deny", "deny"},
		// Ordinary work stays allowed.
		{"python3 -m http.server -d docs 8000", "allow", "ask"},
		{"python3 -m timeit -n 3", "allow", "ask"},
		{"python3 -m pdb app.py", "allow", "ask"},
		{"python3 -m json.tool data.json", "allow", "ask"},
		{"python3 -m venv .venv", "allow", "ask"},
		{"python3 -m zipfile -e release.zip vendor/", "allow", "ask"},
		{"python3 -m zipfile -l secrets.zip", "allow", "ask"},
		{"python3 -m cProfile -o prof.out app.py", "allow", "ask"},
		{"python3 -m unittest discover -s tests -v", "allow", "ask"},
		{"python3 -m compileall -q .", "allow", "ask"},
		{"python3 -m mypkg --port 8000", "allow", "ask"},
	})
}
