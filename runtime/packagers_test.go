package runtime_test

import (
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestPackagerCommands: yarn and pnpm read a word that names none of
// their commands as a script (yarn build is yarn run build), and their
// models read every command they have as that command
// (bashfacts/argmodel's TestPackagerBuiltinsAreModelled). Before
// 2026-12-07 (fourth stop) the models knew a dozen of them, so the
// developer policy's yarn * and pnpm * allowed every "ask" row below in
// strict mode, read as a script: packages fetched and run, installs onto
// PATH, the shell's startup files and the registry's credentials
// written, node given inline code, publishing (which the policy now
// denies by rule, as npm publish).
func TestPackagerCommands(t *testing.T) {
	fsys := facts.MapFS{"/home/u/repo/package.json": "file", "/home/u/.bashrc": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{"yarn create react-app x", "ask", "ask"},
		{"yarn global add serve", "ask", "ask"},
		{`yarn node -e "require('child_process').exec('id')"`, "ask", "ask"},
		{"yarn workspace web node -e 1", "ask", "ask"},
		{"yarn config set registry http://example.com", "ask", "ask"},
		{"yarn set version 4.5.0", "ask", "ask"},
		{"yarn login", "ask", "ask"},
		{"yarn link", "ask", "ask"},
		{"yarn plugin import https://example.com/p.js", "ask", "ask"},
		{"yarn workspaces foreach exec rm -rf /tmp/x", "ask", "ask"},
		{"pnpm create vite", "ask", "ask"},
		{"pnpm setup", "ask", "ask"},
		{"pnpm env use --global 22", "ask", "ask"},
		{"pnpm config set registry http://example.com", "ask", "ask"},
		{"pnpm link --global", "ask", "ask"},
		{"pnpm self-update", "ask", "ask"},
		{"pnpm deploy ~/.local/app", "ask", "ask"},
		{"yarn publish", "deny", "ask"},
		{"yarn npm publish", "deny", "ask"},
		{"pnpm publish", "deny", "ask"},
		// Ordinary work stays allowed.
		{"yarn", "allow", "ask"},
		{"yarn build", "allow", "ask"},
		{"yarn add -D vitest", "allow", "ask"},
		{"yarn workspace web build", "allow", "ask"},
		{"yarn workspace web add react", "allow", "ask"},
		{"yarn node scripts/gen.js", "allow", "ask"},
		{"yarn config get registry", "allow", "ask"},
		{"yarn cache dir", "allow", "ask"},
		{"pnpm build", "allow", "ask"},
		{"pnpm recursive run build", "allow", "ask"},
		{"pnpm link ../lib", "allow", "ask"},
		{"pnpm env list", "allow", "ask"},
		{"pnpm store path", "allow", "ask"},
		{"pnpm --filter web deploy dist/web", "allow", "ask"},
	})
}
