package argmodel_test

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// pythonToolCases hold the models of pip, pytest (python.json), unzip
// (archive.json) and staticcheck (formatters.json) to the real programs,
// as realCases do: pip as Python 3.11's pip 23.2.1 parses, pytest as
// Debian 12's pytest 7.2.1 with pytest-cov, -xdist and -timeout, unzip as
// Info-ZIP's 6.0, staticcheck as 0.8.2 (go install
// honnef.co/go/tools/cmd/staticcheck@v0.8.2; CI does not build it). The
// scratch folder also holds a.zip, an archive of one file, a.txt.
// (Which files an extraction writes: runtime's TestUnzipWritesWhatUnzipWrites.)
var pythonToolCases = []realCase{
	// pytest: exact long options (argparse without abbreviations), bundles.
	{[]string{"pytest", "--junitxml=R"}, "--junitxml writes R", wrote("R"), "write"},
	{[]string{"pytest", "--junit-xml", "R"}, "--junit-xml is --junitxml", wrote("R"), "- write"},
	{[]string{"pytest", "--junitx=R"}, "--junitx is no option: no abbreviations", rejects, ""},
	{[]string{"pytest", "-xq", "--junitxml=R"}, "-xq is -x -q", wrote("R"), "- write"},
	{[]string{"pytest", "-o", "cache_dir=C"}, "-o cache_dir=C moves the cache to C", wrote("C"), "- write"},
	{[]string{"pytest", "-o", "addopts=--junitxml=R"}, "-o addopts adds options, which regate would not read", wrote("R"), ""},
	{[]string{"pytest", "--debug=R"}, "--debug takes its file after =", wrote("R"), "write"},
	{[]string{"pytest", "--debug", "D"}, "--debug takes the next word that is no option: D is its file", rejects, "- write"},
	{[]string{"pytest", "--log-file", "R"}, "--log-file writes R", wrote("R"), "- write"},
	{[]string{"pytest", "--frob"}, "--frob is no option of pytest", rejects, ""},
	// python -m MODULE: the module's model reads the words after it.
	{[]string{"python3", "-mpip", "list", "--lo", "R"}, "--lo is ambiguous there too", rejects, ""},
	{[]string{"python3", "-m", "pip", "--log", "R", "-q", "list"}, "python3 -m pip is pip", wrote("R"), "- value - edit - subcommand"},
	// pip: optparse, long options by unambiguous prefix, hidden spellings.
	{[]string{"pip", "--log", "R", "--isolated", "-q", "list"}, "--log writes R", wrote("R"), "- edit - - subcommand"},
	{[]string{"pip", "list", "--local-log=R", "-q"}, "--local-log is --log, read by every command", wrote("R"), "subcommand edit -"},
	{[]string{"pip", "list", "--lo", "R"}, "--lo is ambiguous (--local, --log, …)", rejects, ""},
	{[]string{"pip", "install", "--requir=F"}, "--requir is ambiguous", rejects, ""},
	{[]string{"pip", "install", "--no-index", "--dry-run", "--requirem=F"}, "--requirem is --requirement: F is read", printed("Invalid requirement: 'x line'"), "subcommand - - read"},
	{[]string{"pip", "hash", "F"}, "hash reads F", printed("--hash=sha256:"), "subcommand read"},
	{[]string{"pip", "list", "--frob"}, "--frob is no option of pip list", rejects, ""},
	// unzip: options before the archive; after it only -x and -d.
	{[]string{"unzip", "-l", "a.zip"}, "-l lists", printed("a.txt"), "- read"},
	{[]string{"unzip", "-q", "a.zip", "-d", "X"}, "-d after the archive: extracts into X", wrote("X/a.txt"), "- archive - write"},
	{[]string{"unzip", "-qdX", "a.zip"}, "-d takes the rest of the bundle", wrote("X/a.txt"), "write archive"},
	{[]string{"unzip", "a.zip", "-l"}, "after the archive -l is a name to extract: nothing is listed", rejects, "archive pattern"},
	{[]string{"unzip", "-q", "a.zip", "-x", "a.txt", "-d", "X"}, "-x names end at -d: a.txt is not extracted into X", both(removed("X/a.txt"), removed("a.txt")), "- archive - pattern - write"},
	{[]string{"unzip", "-Z", "-1", "a.zip"}, "-Z is zipinfo: -1 lists names alone", printed("a.txt"), "- read read"},
	{[]string{"unzip", "-p", "a.zip", "a.txt"}, "-p prints the entry", printed("zipped"), "- archive pattern"},
	// staticcheck: Go's flag package.
	{[]string{"staticcheck", "-debug.cpuprofile", "R", "-version"}, "-debug.cpuprofile writes R", wrote("R"), "- write -"},
	{[]string{"staticcheck", "--debug.cpuprofile=R", "-version"}, "--name is -name", wrote("R"), "write -"},
	{[]string{"staticcheck", "-tests=false", "-version"}, "a boolean takes =false", succeeds, "value -"},
	{[]string{"staticcheck", "-frob"}, "-frob is no option", rejects, ""},
}

func TestPythonToolsAgainstRealPrograms(t *testing.T) {
	extra := map[string]string{"a.zip": oneFileZip(t)}
	for _, c := range pythonToolCases {
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) { checkRealCaseWith(t, c, realRun{files: extra}) })
	}
}

// oneFileZip is a zip archive of one file, a.txt, that holds "zipped".
func oneFileZip(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.Create("a.txt")
	if err == nil {
		_, err = w.Write([]byte("zipped\n"))
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
