package facts

import "testing"

// TestExecConfigReason: which written paths configure execution, on every
// spelling of the path's check, in any case, anywhere for project files,
// below the home for the user's, and through a home file's link.
func TestExecConfigReason(t *testing.T) {
	e := &Env{Cwd: "/home/u/repo", Home: "/home/u", FS: MapFS{
		"/home/u/.zshrc":            "link:dots/zsh/.zshrc",
		"/home/u/dots/zsh/.zshrc":   "file",
		"/home/u/repo/hooks":        "link:.git/hooks",
		"/home/u/repo/.git/HEAD":    "file",
		"/home/u/dots/zsh/.profile": "file",
	}}
	for _, c := range []struct {
		path string
		want bool
	}{
		{".git/hooks/pre-commit", true},
		{"vendor/lib/.git/config", true}, // a nested repository
		{"/srv/site.git/hooks/post-receive", true},
		{"hooks/pre-commit", true}, // a link into .git/hooks: the canonical spelling
		{".GIT/CONFIG", true},      // macOS folds case
		{"MAKEFILE", true},
		{"build/common.mk", true},
		{"node_modules/.bin/tsc", true},
		{".venv/lib/python3.12/site-packages/evil.pth", true},
		{"~/.bashrc", true},
		{"$HOME/.config/fish/config.fish", true},
		{"~/dots/zsh/.zshrc", true}, // ~/.zshrc links to it
		{"/etc/cron.daily/x", true},
		{".regate/policy.jsonc", true},
		{"src/.bashrc", false}, // not the home's
		{"~/dots/zsh/.profile", false},
		{"Makefile.am.txt", false},
		{"docs/package.json.md", false},
		{"notes/git/config", false},
		{"/etc/hosts", false},
		{"src/main.go", false},
	} {
		f := e.PathForms(c.path, e.Cwd)
		got := e.execConfigReason(Check{Value: c.path, Forms: f.groups()})
		if (got != "") != c.want {
			t.Errorf("%s: reason %q; want a reason: %v", c.path, got, c.want)
		}
	}
}
