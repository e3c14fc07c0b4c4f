package runtime_test

import (
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestCargo: cargo is an argument model (bashfacts/argmodel/models/
// cargo.json, generated from the help cargo prints for each of its
// commands). The developer policy allows cargo *; before the model, the
// first three rows were allowed in its strict mode: --config can name a
// program cargo runs (a runner, a rustc wrapper, a linker), cargo install
// puts programs in a folder early on PATH, and cargo rustc passes flags
// that can name a linker. The default policy asks for cargo.
func TestCargo(t *testing.T) {
	fsys := facts.MapFS{"/home/u/.ssh/id_rsa": "file", "/home/u/repo/Cargo.toml": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{`cargo --config 'target.x86_64-unknown-linux-gnu.runner="sh -c id"' run`, "ask", "ask"},
		{"cargo install ripgrep", "ask", "ask"},
		{"cargo rustc -- -C linker=/tmp/x", "ask", "ask"},
		{"cargo build --manifest-path ~/.ssh/Cargo.toml", "deny", "deny"},
		{"cargo build --release", "allow", "ask"},
		{"cargo b -r", "allow", "ask"},
		{"cargo test -p core -- --nocapture", "allow", "ask"},
		{"cargo run --bin server -- --port 8080", "allow", "ask"},
		{"cargo clippy --all-targets --all-features -- -D warnings", "allow", "ask"},
		{"cargo clippy --fix --allow-dirty", "allow", "ask"},
		{"cargo fmt --check", "allow", "ask"},
		{"cargo -q check --workspace", "allow", "ask"},
		{"cargo add serde --features derive", "allow", "ask"},
		{"cargo nextest run", "ask", "ask"}, // a plugin: a program regate does not see
	})
}

// TestFormatters: gofmt, black, prettier, eslint, mypy, tsc and
// golangci-lint are argument models (models/
// formatters.json): a folder they check is read for the files they
// format alone (*.go, *.py), and what they format in place is an edit the
// write rules decide. Before the models, the developer policy's gofmt *,
// black *, prettier * and eslint * allowed an edit of a dot-file of the
// home folder (and a prettier plugin's code, eslint's configuration
// wizard, which installs packages; mypy's pip installs and the Python it
// runs), which its
// write rules ask about; gofmt -l . stays allowed, though .env is in the
// folder, since gofmt reads its *.go files alone.
func TestFormatters(t *testing.T) {
	fsys := facts.MapFS{"/home/u/.bashrc": "file", "/home/u/.config/x.py": "file", "/home/u/repo/main.go": "file", "/home/u/repo/.env": "file", "/home/u/repo/app.py": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{"gofmt -w ~/.bashrc", "ask", "ask"},
		{"black ~/.config/x.py", "ask", "ask"},
		{"gofmt -l .", "allow", "ask"},
		{"gofmt -s -w .", "allow", "ask"},
		{"black --check .", "allow", "ask"},
		{"black -l 100 .", "allow", "ask"},
		{"gofmt -l .env", "deny", "deny"},
		{"black --check --include '\\.env$' .", "ask", "ask"}, // black's own pattern: the walk is not narrowed
		{"prettier --write ~/.bashrc", "ask", "ask"},
		{"prettier --plugin ./p.js --write .", "ask", "ask"},
		{"prettier --write .", "allow", "ask"},
		{"prettier --check .", "allow", "ask"},
		{"prettier .env", "deny", "deny"},
		{"eslint --fix ~/.config/x.js", "ask", "ask"},
		{"eslint -o ~/.bashrc .", "ask", "ask"},
		{"eslint --init", "ask", "ask"},
		{"eslint --fix .", "allow", "ask"},
		{"eslint --max-warnings 0 src", "allow", "ask"},
		{"mypy --install-types --non-interactive .", "ask", "ask"},
		{"mypy --python-executable /tmp/x .", "ask", "ask"},
		{"mypy --html-report ~/.config/r .", "ask", "ask"},
		{"mypy --strict src", "allow", "ask"},
		{"tsc --outDir ~/.cache/x", "ask", "ask"},
		{"tsc ~/.config/x.ts", "ask", "ask"}, // writes ~/.config/x.js
		{"tsc --noEmit", "allow", "ask"},
		{"tsc --strict false --noEmit -p .", "allow", "ask"},
		{"tsc -b --verbose", "allow", "ask"},
		{"golangci-lint run --fix ~/.config/x", "ask", "ask"},
		{"golangci-lint run --output.json.path ~/.bashrc", "ask", "ask"},
		{"golangci-lint custom", "ask", "ask"},
		{"golangci-lint run ./...", "allow", "ask"},
		{"golangci-lint fmt", "allow", "ask"},
	})
}

// TestGlobalInstallsAndFetchedCode: npm's and pnpm's -g change the global
// folder of packages, whose programs come early on PATH (as cargo install
// and pip install --user do), and go run MODULE@VERSION runs code it
// fetches, not the project's; make -C a folder outside the working one
// runs that folder's makefile (as make -f another makefile does), and
// cargo login writes a token into the home folder. The developer policy
// allows npm *, pnpm *, go *, make * and cargo *; each ask below was
// allowed in its strict mode before. The
// default policy denies npm (its rule says to use pnpm) but for npm ls.
func TestGlobalInstallsAndFetchedCode(t *testing.T) {
	fsys := facts.MapFS{"/home/u/repo/package.json": "file", "/home/u/repo/main.go": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{"npm install -g typescript", "ask", "deny"},
		{"npm i --global x", "ask", "deny"},
		{"npm -g install x", "ask", "deny"},
		{"npm uninstall -g x", "ask", "deny"},
		{"pnpm add -g x", "ask", "ask"},
		{"go run example.com/tool@latest", "ask", "ask"},
		{"make -C ~/src/other", "ask", "ask"}, // another folder's makefile, as make -f is
		{"make -C ../other test", "ask", "ask"},
		{"cargo login", "ask", "ask"}, // a token written into the home folder
		{"cargo yank --vers 1.0.0", "ask", "ask"},
		{"make -C sub test", "allow", "ask"},
		// cp -s and cp -l make links, as ln does: what is written through
		// them lands in their target, so the target is a write (it was
		// read as a copy's source and allowed).
		{"cp -s ~/.bashrc rc && tee -a rc <<< x", "ask", "ask"},
		{"cp --link ~/.bashrc rc", "ask", "ask"},
		{"cp -s src/a.go b.go", "allow", "ask"},
		{"npm install", "allow", "deny"},
		{"npm install lodash", "allow", "deny"},
		{"npm ls -g", "allow", "allow"},
		{"pnpm add -D vitest", "allow", "ask"},
		{"go run ./cmd/server -addr :8080", "allow", "ask"},
		{"go run main.go user@example.com", "allow", "ask"},
	})
}

// TestTestRunners: jest and vitest are argument models (models/
// testrunners.json, generated from their help and held to it). The
// developer policy allows jest * and vitest *; before the models, the
// reports below were written where its write rules ask, jest's unknown
// --NAME=VALUE (which jest copies into its configuration: a module it
// loads) and vitest's --execArgv (node's options) were allowed.
func TestTestRunners(t *testing.T) {
	fsys := facts.MapFS{"/home/u/.bashrc": "file", "/home/u/repo/package.json": "file", "/home/u/repo/src/app.test.ts": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{"jest --outputFile ~/.bashrc --json", "ask", "ask"},
		{"jest --snapshotResolver=./x.js", "ask", "ask"},
		{"jest --clearCache --cacheDirectory '<rootDir>/../.bashrc'", "ask", "ask"},
		{"vitest run --outputFile=~/.bashrc", "ask", "ask"},
		{"vitest run -r sub --outputFile=../../.bashrc", "ask", "ask"},
		{"vitest --execArgv=--require=/tmp/x.js run", "ask", "ask"},
		{"vitest init browser", "ask", "ask"},
		{"jest", "allow", "ask"},
		{"jest src/app.test.ts --coverage", "allow", "ask"},
		{"jest -t 'logs in' --ci", "allow", "ask"},
		{"vitest run", "allow", "ask"},
		{"vitest run src/app.test.ts --reporter=verbose", "allow", "ask"},
		{"vitest --run --coverage", "allow", "ask"},
	})
}
