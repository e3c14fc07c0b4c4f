package argmodel_test

import (
	"strings"
	"testing"
)

// testRunnerCases tie the jest and vitest models (models/testrunners.json)
// to the real programs, pinned in testdata/runtimes. Each command runs as
// realCases do, in a scratch folder holding F, G, D/sub.txt and E/, and
// also a test that passes: a.test.js and package.json for jest,
// a.test.mjs for vitest.
//
// jest reads its arguments with yargs: no abbreviations, a boolean takes
// a next word true or false, an array option every word up to the next
// one beginning with "-", and a letter of a bundle takes no attached
// value unless "=", digits or punctuation follow it. vitest reads them
// with cac (mri): no abbreviations, a boolean takes a next word true or
// false, [value] the next word unless it begins with "-", and in a bundle
// only the last letter takes a value. Both also take what the models do
// not: yargs any --no-NAME, dotted names and kebab-case (--output-file);
// cac kebab-case, and NAME.anything of every option it knows. The models
// read those as not understood: the call asks.
var testRunnerCases = []realCase{
	// jest: the files its options write, their arity, what it refuses.
	{[]string{"jest", "--json", "--outputFile", "O"}, "--outputFile writes the results", wrote("O"), "- - write"},
	{[]string{"jest", "--json", "--outputFile=O"}, "--outputFile's value after =", wrote("O"), "- write"},
	{[]string{"jest", "--coverage", "--coverageDirectory", "C"}, "--coverageDirectory is written", wrote("C"), "- - write"},
	{[]string{"jest", "--cacheDirectory", "C"}, "jest writes its cache in --cacheDirectory", wrote("C"), "- write"},
	{[]string{"jest", "--clearCache", "--cacheDirectory", "D"}, "--clearCache deletes the folder --cacheDirectory names", removed("D"), "- - write"},
	{[]string{"jest", "--clearCache", "--cacheDirectory", "<rootDir>/D"}, "<rootDir> is the folder of package.json: D is deleted (the model asks)", removed("D"), ""},
	{[]string{"jest", "--cacheDirectory", "D/../C"}, "a value with .. is resolved against rootDir, which regate does not know (the model asks)", wrote("C"), ""},
	{[]string{"jest", "--config", `{"coverageDirectory": "C", "collectCoverage": true}`}, "a JSON configuration can name the folders jest writes (the model asks)", wrote("C"), ""},
	{[]string{"jest", "-c", "jest.config.json", "--listTests"}, "-c names a configuration file (there is none)", rejects, "- read -"},
	{[]string{"jest", "--ci", "false", "--listTests"}, "false is --ci's value", printed("a.test.js"), "- value -"},
	{[]string{"jest", "--ci", "nomatch", "--listTests"}, "a boolean takes only true or false: nomatch is a pattern", func(_, out string, _ bool) bool { return !strings.Contains(out, "a.test.js") }, "- pattern -"},
	{[]string{"jest", "-i", "--listTests", "a"}, "-i takes no value: a is a pattern", printed("a.test.js"), "- - pattern"},
	{[]string{"jest", "--roots", "E", "a", "--listTests"}, "--roots takes every word up to the next option: a is a root (there is none)", both(rejects, printed("roots[1]")), "- tree tree -"},
	{[]string{"jest", "--roots=.", "E", "--listTests"}, "--roots goes on after its value after =", printed("a.test.js"), "tree tree -"},
	{[]string{"jest", "-t=x", "--showConfig"}, "-t's value after =", printed(`"testNamePattern": "x"`), "pattern -"},
	{[]string{"jest", "-w2", "--showConfig"}, "-w takes attached digits", printed(`"maxWorkers": 2`), "value -"},
	{[]string{"jest", "-tfoo", "--showConfig"}, "yargs reads -tfoo as -t '' -f -o -o; the model as -t foo (a pattern either way)", printed(`"onlyFailures": true`), "pattern -"},
	{[]string{"jest", "--findRelatedTests", "a.test.js", "--listTests"}, "--findRelatedTests takes files as operands", printed("a.test.js"), "- stat -"},
	{[]string{"jest", "--no-cache", "--listTests"}, "--no-cache is --cache false", printed("a.test.js"), "- -"},
	{[]string{"jest", "--version"}, "--version prints", printed("30."), "-"},
	{[]string{"jest", "--outputFile"}, "--outputFile needs a value", rejects, ""},
	{[]string{"jest", "--frob"}, "--frob is no option of jest", rejects, ""},
	{[]string{"jest", "--outputF", "O", "--json"}, "jest takes no abbreviations", both(rejects, removed("O")), ""},
	{[]string{"jest", "--outputF=O", "--json"}, "jest refuses no --NAME=VALUE: outputF is an unknown configuration option, O is not written (the model asks)", both(succeeds, removed("O")), ""},
	{[]string{"jest", "--snapshotResolver=./F"}, "--NAME=VALUE sets any configuration option: snapshotResolver loads F as code (F is not JavaScript; the model asks)", both(rejects, printed("failed to parse a file")), ""},
	{[]string{"jest", "--output-file=O", "--json"}, "yargs takes kebab-case names (the model asks)", wrote("O"), ""},
	{[]string{"jest", "--no-frob", "--listTests"}, "yargs takes --no-ANYTHING (the model asks)", printed("a.test.js"), ""},
	{[]string{"jest", "--moduleNameMapper", `{"x": "<rootDir>/F"}`, "--listTests"}, "--moduleNameMapper names module files inside JSON (the model asks)", printed("a.test.js"), ""},

	// vitest: the same for cac, with subcommands.
	{[]string{"vitest", "run", "--reporter=json", "--outputFile=O"}, "--outputFile writes the report", wrote("O"), "subcommand read write"},
	{[]string{"vitest", "run", "--reporter", "json", "--outputFile", "O"}, "--reporter and --outputFile take the next word", wrote("O"), "subcommand - read - write"},
	{[]string{"vitest", "--reporter=json", "--outputFile=O", "run"}, "options before the subcommand", wrote("O"), "read write subcommand"},
	{[]string{"vitest", "run", "--reporter=json", "--outputFile.json=O"}, "--outputFile.json names the json reporter's file", wrote("O"), "subcommand read write"},
	{[]string{"vitest", "run", "--reporter=json", "--outputFile.frob=O"}, "cac takes NAME.anything of a known option; no reporter reads frob (the model asks)", both(succeeds, removed("O")), ""},
	{[]string{"vitest", "run", "--reporter=json", "--output-file=O"}, "cac takes kebab-case names (the model asks)", wrote("O"), ""},
	{[]string{"vitest", "list", "--json=O"}, "list --json writes the tests it collects", wrote("O"), "subcommand write"},
	{[]string{"vitest", "list", "--json", "O"}, "--json takes the next word", wrote("O"), "subcommand - write"},
	{[]string{"vitest", "run", "--fsModuleCachePath", "C"}, "--fsModuleCachePath is written", wrote("C"), "subcommand - write"},
	{[]string{"vitest", "run", "--clearCache", "--fsModuleCachePath", "D"}, "--clearCache deletes the folder --fsModuleCachePath names", removed("D"), "subcommand - - write"},
	{[]string{"vitest", "run", "-r", "D", "--reporter=json", "--outputFile=O"}, "--outputFile is resolved against --root: D/O is written (the model asks)", wrote("D/O"), ""},
	{[]string{"vitest", "run", "-ur", "D"}, "in a bundle only the last letter takes a value: D is the root (no test there)", both(rejects, printed("No test files found")), "subcommand - tree"},
	{[]string{"vitest", "run", "-r", "D"}, "-r takes the next word: D is the root (no test there)", both(rejects, printed("No test files found")), "subcommand - tree"},
	{[]string{"vitest", "run", "--passWithNoTests", "false", "nomatch"}, "false is --passWithNoTests' value: no test matches nomatch", rejects, "subcommand - value pattern"},
	{[]string{"vitest", "run", "--passWithNoTests", "nomatch"}, "a boolean takes only true or false: nomatch is a filter", succeeds, "subcommand - pattern"},
	{[]string{"vitest", "run", "-u", "nomatch"}, "mri gives -u the next word (a.test.mjs runs); the model reads -u alone, as in a bundle, and nomatch as a filter (a pattern either way)", printed("1 passed"), "subcommand - pattern"},
	{[]string{"vitest", "run", "--environment=./F"}, "--environment names a module file (F is not JavaScript)", rejects, "subcommand read"},
	{[]string{"vitest", "run", "--no-isolate", "--no-file-parallelism"}, "--no-NAME, and the kebab-case negations vitest's help names", printed("1 passed"), "subcommand - -"},
	{[]string{"vitest", "related", "a.test.mjs"}, "related takes source files", printed("1 passed"), "subcommand stat"},
	{[]string{"vitest", "a"}, "without a subcommand the operands are filters (vitest run a)", printed("1 passed"), "pattern"},
	{[]string{"vitest", "run", "--execArgv=--no-warnings"}, "--execArgv passes options to node (the model asks)", printed("1 passed"), ""},
	{[]string{"vitest", "init", "nomatch"}, "init sets up browser mode only (the model asks)", rejects, ""},
	{[]string{"vitest", "--version"}, "--version prints", printed("5."), "-"},
	{[]string{"vitest", "run", "--frob"}, "--frob is no option of vitest", both(rejects, printed("Unknown option")), ""},
	{[]string{"vitest", "run", "--no-frob"}, "--no-frob: frob is no option of vitest", both(rejects, printed("Unknown option")), ""},
	{[]string{"vitest", "run", "--outputF=O", "--reporter=json"}, "vitest takes no abbreviations", both(rejects, removed("O")), ""},
}

func TestTestRunnersAgainstRealPrograms(t *testing.T) {
	for _, c := range testRunnerCases {
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) {
			t.Parallel()
			checkTestRunnerCase(t, c)
		})
	}
}

// testRunnerFixture is the scratch folder of testRunnerCases: realCases'
// files and a test the program finds and passes.
var testRunnerFixture = map[string]map[string]string{
	"jest":   {"package.json": "{\"name\": \"scratch\"}\n", "a.test.js": "test('a', () => expect(1).toBe(1));\n"},
	"vitest": {"a.test.mjs": "import { test, expect } from 'vitest';\ntest('a', () => expect(1).toBe(1));\n"},
}

// checkTestRunnerCase is checkRealCase with testRunnerFixture's files, in
// a folder whose name holds none of the row's words (jest's patterns and
// vitest's filters would match it), with no watch mode, prompt or colour.
func checkTestRunnerCase(t *testing.T, c realCase) {
	checkRealCaseWith(t, c, realRun{files: testRunnerFixture[c.cmd[0]], env: []string{"CI=1", "NO_COLOR=1", "FORCE_COLOR=0"}, plainDir: true})
}
