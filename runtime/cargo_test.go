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
