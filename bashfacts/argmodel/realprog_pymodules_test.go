package argmodel_test

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pythonModuleCases hold the models of the standard library's modules
// (pymodules.json, reached through python's -m) to the real modules, as
// realCases do: python3 -m NAME as CPython 3.11 parses it (argparse with
// abbreviations, optparse, getopt). The scratch folder also holds a.zip
// and a.tar (one file, a.txt), J (JSON), K (a pickle) and P.py (a script
// that prints hi).
var pythonModuleCases = []realCase{
	// json.tool: the input read, the output written; argparse abbreviates.
	{[]string{"python3", "-m", "json.tool", "J", "R"}, "the second operand is written", wrote("R"), "- value read write"},
	{[]string{"python3", "-m", "json.tool", "--sort", "J", "R"}, "--sort is --sort-keys", wrote("R"), "- value - read write"},
	{[]string{"python3", "-m", "json.tool", "--frob", "J"}, "--frob is no option", rejects, ""},
	// zipfile and tarfile: what they extract and create.
	{[]string{"python3", "-m", "zipfile", "-e", "a.zip", "X"}, "-e extracts a.zip into X", wrote("X/a.txt"), "- value - archive write"},
	{[]string{"python3", "-m", "zipfile", "-c", "Z.zip", "F", "D"}, "-c writes Z.zip from F and D", wrote("Z.zip"), "- value - write tree tree"},
	{[]string{"python3", "-m", "zipfile", "-l", "a.zip"}, "-l lists", printed("a.txt"), "- value - read"},
	{[]string{"python3", "-m", "tarfile", "-c", "T.tar", "F"}, "-c writes T.tar", wrote("T.tar"), "- value - write tree"},
	{[]string{"python3", "-m", "tarfile", "-e", "a.tar"}, "-e extracts the names as written: asks", wrote("a.txt"), ""},
	// venv, gzip, py_compile, compileall write beside or below their operands.
	{[]string{"python3", "-m", "venv", "--without-pip", "V"}, "venv makes V", wrote("V/pyvenv.cfg"), "- value - write"},
	{[]string{"python3", "-m", "gzip", "F"}, "gzip writes F.gz beside F", wrote("F.gz"), "- value edit"},
	{[]string{"python3", "-m", "py_compile", "P.py"}, "py_compile writes __pycache__ beside P.py", wrote("__pycache__"), "- value edit"},
	{[]string{"python3", "-m", "compileall", "-q", "."}, "compileall writes below .", wrote("__pycache__"), "- value - write"},
	// timeit and pdb run code given inline.
	{[]string{"python3", "-m", "timeit", "-n", "1", "pass"}, "the statement is code", printed("loop"), ""},
	{[]string{"python3", "-m", "timeit", "--num=1"}, "getopt abbreviates: --num is --number; no statement, pass is timed", printed("loop"), "- value value"},
	{[]string{"python3", "-m", "timeit", "-s", "import os", "-n", "1"}, "-s is code", printed("loop"), ""},
	{[]string{"python3", "-m", "pdb", "-c", "quit", "P.py"}, "-c runs debugger commands", succeeds, ""},
	// profilers and trace: their output files; a module they run asks.
	{[]string{"python3", "-m", "cProfile", "-o", "R", "P.py"}, "-o writes R; P.py runs", both(wrote("R"), printed("hi")), "- value - write read"},
	{[]string{"python3", "-m", "cProfile", "P.py", "-o", "R"}, "options end at the script: -o R are its arguments", both(removed("R"), printed("hi")), "- value read args args"},
	{[]string{"python3", "-m", "cProfile", "-m", "P"}, "-m runs the module P", printed("hi"), ""},
	{[]string{"python3", "-m", "trace", "--count", "-C", "C", "P.py"}, "-C writes the counts into C", wrote("C/P.cover"), "- value - - write read"},
	// fileinput -i rewrites its files in place.
	{[]string{"python3", "-m", "fileinput", "F"}, "fileinput prints F's lines", printed("F[1]"), "- value read"},
	{[]string{"python3", "-m", "fileinput", "-i", "F"}, "-i writes the lines back into F", func(dir, _ string, _ bool) bool {
		b, err := os.ReadFile(filepath.Join(dir, "F"))
		return err == nil && strings.Contains(string(b), "F[1]")
	}, "- value - edit"},
	// readers and writers of files.
	{[]string{"python3", "-m", "pickletools", "-o", "R", "K"}, "-o writes the disassembly", wrote("R"), "- value - write read"},
	{[]string{"python3", "-m", "base64", "F"}, "base64 reads F", printed("YQp4IGxpbmUK"), "- value read"},
	{[]string{"python3", "-m", "uu", "F", "R"}, "uu writes its second operand", wrote("R"), "- value read write"},
	{[]string{"python3", "-m", "zipapp", "D", "-o", "R.pyz", "-m", "x:y"}, "-o writes the archive", wrote("R.pyz"), "- value tree - write - value"},
	{[]string{"python3", "-m", "zipapp", "D", "-m", "x:y"}, "without -o the archive is D.pyz: asks", wrote("D.pyz"), ""},
	{[]string{"python3", "-m", "unittest", "-k", "x", "P.py"}, "unittest imports P.py", printed("hi"), "- value - pattern read"},
	{[]string{"python3", "-m", "tabnanny", "-v", "D"}, "tabnanny walks D", printed("D"), "- value - tree"},
}

func TestPythonModulesAgainstRealPrograms(t *testing.T) {
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	err := tw.WriteHeader(&tar.Header{Name: "a.txt", Mode: 0o644, Size: 4})
	if err == nil {
		_, err = tw.Write([]byte("tar\n"))
	}
	if err == nil {
		err = tw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	extra := map[string]string{
		"a.zip": oneFileZip(t), "a.tar": tb.String(),
		"J": `{"b": 1, "a": 2}`, "K": "I1\n.", "P.py": "print('hi')\n",
	}
	for _, c := range pythonModuleCases {
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) { checkRealCaseWith(t, c, realRun{files: extra}) })
	}
}
