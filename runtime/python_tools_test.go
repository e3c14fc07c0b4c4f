package runtime_test

import (
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestPythonTools: pip, pytest and ruff are argument models (models/
// python.json, generated from pip's help and from pytest's own argument
// parser; models/ruff.json, read from ruff's clap definitions), and
// python -m reads the words after a module regate has a model of with
// that model. The developer policy allows pip *, pytest *, ruff * and
// python3 *; before the models, the first rows were allowed in its strict
// mode: a report, a log, a cache or a base folder written where its write
// rules ask (pytest removes --basetemp's folder first), the test output
// sent to a pastebin, packages installed into the user's folder of
// programs, pip run by another interpreter, and python3 -m spelt any of
// them past the models. The default policy asks for all of these.
func TestPythonTools(t *testing.T) {
	fsys := facts.MapFS{
		"/home/u/.bashrc": "file", "/home/u/.config/x.py": "file", "/home/u/.ssh/id_rsa": "file",
		"/home/u/repo/.env": "file", "/home/u/repo/app.py": "file", "/home/u/repo/tests/test_app.py": "file",
		"/home/u/repo/requirements.txt": "file", "/home/u/repo/pyproject.toml": "file",
	}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		// Silent allows before the models.
		{"pytest --basetemp ~/.cache/x", "ask", "ask"},
		{"pytest --junitxml=~/.bashrc", "ask", "ask"},
		{"pytest --junit-xml ~/.bashrc", "ask", "ask"},
		{"pytest -o cache_dir=~/.cache/p", "ask", "ask"},
		{"pytest --pastebin=all", "ask", "ask"},
		{"pytest --cov=src --cov-report=html:/home/u/.x", "ask", "ask"},
		{"pytest --tx popen//python=/tmp/x", "ask", "ask"},
		{"pytest -o addopts=-x", "ask", "ask"}, // options regate would not read
		{"pip install --user black", "ask", "ask"},
		{"pip --python /tmp/x install y", "ask", "ask"},
		{"pip --log ~/.bashrc list", "ask", "ask"},
		{"pip download requests -d ~/.cache/d", "ask", "ask"},
		{"pip config set global.index-url http://example.com/simple", "ask", "ask"},
		{"pip install --requir=requirements.txt", "ask", "ask"}, // ambiguous, as pip says
		{"python3 -m pytest --basetemp ~/.cache/x", "ask", "ask"},
		{"python3 -m pip install --user x", "ask", "ask"},
		{"python -m black ~/.config/x.py", "ask", "ask"},
		{"ruff format ~/.bashrc", "ask", "ask"},
		{"ruff check --fix ~/.config/x.py", "ask", "ask"},
		{"ruff check --output-file ~/.bashrc .", "ask", "ask"},
		{"python3 -m ruff format ~/.bashrc", "ask", "ask"},
		{"ruff server", "ask", "ask"},
		// Options and plugins the programs read from the environment.
		{"PYTEST_ADDOPTS=--basetemp=/home/u/.x pytest", "ask", "ask"},
		{"PYTEST_PLUGINS=evil pytest", "ask", "ask"},
		{"RUFF_OUTPUT_FILE=~/.bashrc ruff check .", "ask", "ask"},
		{"UNZIP=-: unzip -l x.zip", "ask", "ask"},
		// Secrets meet the path rules.
		{"pytest .env", "deny", "deny"},
		{"pip install -r ~/.ssh/id_rsa", "deny", "deny"},
		{"pytest --doctest-glob='*' .", "ask", "ask"}, // text files are read, .env among them
		// Ordinary work stays allowed.
		{"pytest", "allow", "ask"},
		{"pytest -q tests/", "allow", "ask"},
		{"pytest .", "allow", "ask"}, // the folder's Python files alone: .env is not read
		{"pytest tests/test_app.py::test_login -x", "allow", "ask"},
		{"pytest -xvs -k 'login and not slow' tests", "allow", "ask"},
		{"pytest -p no:cacheprovider -n auto --cov=src --cov-report=term-missing", "allow", "ask"},
		{"pytest --lf --tb=short --maxfail 3", "allow", "ask"},
		{"python3 -m pytest -x -q tests/", "allow", "ask"},
		{"pip install -r requirements.txt", "allow", "ask"},
		{"pip install -e .", "allow", "ask"},
		{"pip install 'requests>=2.31'", "allow", "ask"},
		{"pip list --outdated", "allow", "allow"}, // the default allows pip list and pip show
		{"pip show requests", "allow", "allow"},
		{"pip freeze --user", "allow", "ask"},
		{"python3 -m pip install -U pip", "allow", "ask"},
		{"ruff check .", "allow", "ask"},
		{"ruff check --fix .", "allow", "ask"},
		{"ruff format --check .", "allow", "ask"},
		{"ruff check --diff ~/.config/x.py", "allow", "ask"},
	})
}

// TestUnzipAndStaticcheck: unzip's options as unzip reads them (the
// archive's entries: unzip_test.go), and staticcheck's profiles are
// writes. The developer policy allows unzip * and staticcheck *; the
// first rows were allowed in its strict mode before their models (x.zip
// here is no zip archive, so extracting it asks).
func TestUnzipAndStaticcheck(t *testing.T) {
	fsys := facts.MapFS{"/home/u/.bashrc": "file", "/home/u/repo/main.go": "file", "/home/u/repo/x.zip": "file", "/home/u/.ssh/k.zip": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{"unzip x.zip", "ask", "ask"},
		{"unzip -o x.zip -d ~/.config", "ask", "ask"},
		{"unzip x.zip -l", "ask", "ask"}, // after the archive -l is a name to extract, as unzip reads it
		{"unzip -: x.zip", "ask", "ask"},
		{"unzip -l ~/.ssh/k.zip", "deny", "deny"},
		{"unzip -l x.zip", "allow", "ask"},
		{"unzip -qql x.zip", "allow", "ask"},
		{"unzip -p x.zip README.md", "ask", "ask"}, // no zip archive: what it prints is unknown
		{"unzip -t x.zip", "allow", "ask"},
		{"unzip -Z -1 x.zip", "allow", "ask"},
		{"staticcheck -debug.cpuprofile ~/.bashrc ./...", "ask", "ask"},
		{"staticcheck --debug.trace=/home/u/.x ./...", "ask", "ask"},
		{"staticcheck -matrix ./...", "ask", "ask"},
		{"staticcheck ./...", "allow", "ask"},
		{"staticcheck -tests=false -checks all,-ST1000 ./...", "allow", "ask"},
	})
}
