package attack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/attack"
)

// defaultShapes is sized for a run of well under a minute on two shared
// cores; REGATE_ATTACK_N asks for more, REGATE_ATTACK_SEED for another
// family.
const defaultShapes = 1000

// TestAttackFamily: under the bundled default policy, no generated command
// that the policy allows reads a denied path, writes a file or runs a
// program the policy does not allow, as judged by running it in real bash
// under strace -f in a fresh copy of the fixture. Disagreements of a known
// class (testdata/tolerated.txt) are counted and listed in the log; any
// other fails the test.
func TestAttackFamily(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash under strace for every allowed command")
	}
	if raceEnabled {
		t.Skip("single-threaded: nothing for the race detector, many times slower under it")
	}
	for _, prog := range []string{"rg", "gzip"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Logf("%s is absent: the shapes that run it test nothing", prog)
		}
	}
	n := envInt(t, "REGATE_ATTACK_N", defaultShapes)
	seed := envInt(t, "REGATE_ATTACK_SEED", 1)

	judge, fix := newJudge(t)
	classes := readTolerated(t)
	shapes := attack.Generate(uint64(seed), n, attack.Layout{Home: fix.Home, Project: fix.Project})

	dump := openDump(t)
	ctx := context.Background()
	decided := map[string]int{}
	var ran, disagree, tolerated int
	seen, carried := map[*attack.Class]int{}, map[*attack.Class]int{}
	var allowedSecret int
	var failures []string
	for _, s := range shapes {
		r := judge.Try(ctx, s)
		if r.Fault != nil {
			decided["fault"]++
			continue
		}
		decided[string(r.Decision.Action)]++
		if r.Ran {
			ran++
			if s.Secret {
				allowedSecret++
			}
		}
		for i := range classes {
			if classes[i].Carries(s.Tags) {
				carried[&classes[i]]++
			}
		}
		dump(judge, r)
		if r.RunErr != nil {
			t.Logf("shape %d: %v: %s", s.Index, r.RunErr, s.Cmd)
		}
		if !r.Disagrees() {
			continue
		}
		disagree++
		if cs := attack.Tolerates(classes, r); cs != nil {
			tolerated++
			for _, c := range cs {
				seen[c]++
			}
			if os.Getenv("REGATE_ATTACK_VERBOSE") != "" {
				t.Logf("tolerated: %s", judge.Report(r))
			}
			continue
		}
		failures = append(failures, judge.Report(r))
	}

	t.Logf("seed %d: %d shapes generated; decided allow %d (%d of them aimed at a secret), ask %d, deny %d, fault %d; %d run under strace; %d disagreements (%d of a tolerated class, %d new)",
		seed, len(shapes), decided["allow"], allowedSecret, decided["ask"], decided["deny"], decided["fault"], ran, disagree, tolerated, len(failures))
	logClasses(t, classes, seen, carried)
	if decided["fault"] > 0 {
		t.Errorf("%d decisions failed", decided["fault"])
	}
	for _, f := range failures {
		t.Errorf("an allowed command did what the policy does not allow:\n%s", f)
	}
}

// logClasses prints how many disagreements each tolerated class covered,
// and how many generated shapes carried its tags.
func logClasses(t *testing.T, classes []attack.Class, seen, carried map[*attack.Class]int) {
	t.Helper()
	var lines []string
	for i := range classes {
		c := &classes[i]
		lines = append(lines, fmt.Sprintf("%4d/%-4d %s  (%s)", seen[c], carried[c], strings.Join(c.Tags, " "), c.Probe))
	}
	sort.Strings(lines)
	if len(lines) > 0 {
		t.Logf("tolerated classes (disagreements / shapes generated with the tags):\n%s", strings.Join(lines, "\n"))
	}
}

// TestToleratedProbes: each tolerated class's probe is allowed by the
// default policy and, run under strace, does something the policy does
// not allow (so the list names real bypasses, each with its proof). A
// probe the policy no longer allows is a class that is fixed: the test
// fails, naming the line to remove.
func TestToleratedProbes(t *testing.T) {
	judge, fix := newJudge(t)
	for _, c := range readTolerated(t) {
		t.Run(c.Probe, func(t *testing.T) {
			d, err := judge.Decide(context.Background(), fix.Project, facts.Call{Tool: "bash", Input: map[string]any{"command": c.Probe}})
			if err != nil {
				t.Fatal(err)
			}
			if d.Action != "allow" {
				t.Fatalf("the default policy no longer allows it (%s, %s): the class is fixed, remove line %d of testdata/tolerated.txt", d.Action, d.Matched, c.Line)
			}
			findings, out, err := judge.RunJudged(context.Background(), c.Probe)
			if err != nil {
				t.Fatal(err)
			}
			if len(findings) == 0 {
				t.Fatalf("allowed, and does nothing the policy does not allow: not a class (line %d); output: %s", c.Line, out)
			}
			for _, f := range findings {
				t.Logf("%s", judge.Redact(f.String()))
			}
		})
	}
}

// openDump returns a function that appends each shape's result (decision,
// findings) as a JSON line to the file REGATE_ATTACK_DUMP names, for
// sorting disagreements into classes; it does nothing when that is unset.
func openDump(t *testing.T) func(*attack.Judge, attack.Result) {
	name := os.Getenv("REGATE_ATTACK_DUMP")
	if name == "" {
		return func(*attack.Judge, attack.Result) {}
	}
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	enc := json.NewEncoder(f)
	return func(j *attack.Judge, r attack.Result) {
		type finding struct{ What, Decision, Strace string }
		var fs []finding
		for _, x := range r.Findings {
			fs = append(fs, finding{j.Redact(x.What), x.Decision, j.Redact(x.Event.Line)})
		}
		if err := enc.Encode(map[string]any{"index": r.Shape.Index, "cmd": j.Redact(r.Shape.Cmd), "tags": r.Shape.Tags,
			"decided": string(r.Decision.Action) + " (" + r.Decision.Matched + ")", "ran": r.Ran, "findings": fs}); err != nil {
			t.Error(err)
		}
	}
}

func readTolerated(t *testing.T) []attack.Class {
	t.Helper()
	f, err := os.Open("testdata/tolerated.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	classes, err := attack.ParseTolerated(f)
	if err != nil {
		t.Fatal(err)
	}
	return classes
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a number", name, v)
	}
	return n
}
