package bashfacts_test

import (
	"errors"
	"fmt"

	"github.com/regate/regate/bashfacts"
)

// A command in, its units out: every command of the chain, the one inside
// the command substitution, and the command sudo runs, each with where it
// was found and whether it is a wrapper.
func ExampleExtract() {
	f, err := bashfacts.Extract(`cd src && sudo rm -rf "$(cat list)" ; echo done > ~/log.txt`)
	if err != nil {
		panic(err) // a command regate cannot decompose: the caller asks
	}
	for _, u := range f.Units {
		fmt.Printf("%s %q origin=%q wrapper=%q dynamic=%v\n", u.Pos, u.Text, u.Origin, u.Wrapper, u.Dynamic)
	}
	// Output:
	// 1:1 "cd src" origin="" wrapper="" dynamic=false
	// 1:11 "sudo rm -rf $(cat list)" origin="" wrapper="indirection" dynamic=true
	// 1:16 "rm -rf $(cat list)" origin="wrapped by sudo" wrapper="" dynamic=true
	// 1:26 "cat list" origin="inside command substitution" wrapper="" dynamic=false
	// 1:39 "echo done" origin="" wrapper="" dynamic=false
}

// The words the command may use as files, each with the directory it is
// relative to after the literal cd, and what the program does with it.
func ExampleExtract_tokens() {
	f, err := bashfacts.Extract(`cd /srv/app && cat .env config/db.yml id_rsa > /tmp/out`)
	if err != nil {
		panic(err)
	}
	for _, t := range f.Tokens {
		fmt.Printf("%s %s %q dir=%q bare=%v role=%q writes=%q\n", t.Pos, t.Kind, t.Value, t.Dir.Path, t.Bare, t.Role, t.Writes)
	}
	// Output:
	// 1:4 argument "/srv/app" dir="" bare=false role="" writes=""
	// 1:20 argument ".env" dir="/srv/app" bare=false role="read" writes=""
	// 1:25 argument "config/db.yml" dir="/srv/app" bare=false role="read" writes=""
	// 1:39 argument "id_rsa" dir="/srv/app" bare=true role="read" writes=""
	// 1:48 redirect "/tmp/out" dir="/srv/app" bare=false role="" writes="create"
}

// An opaque wrapper's literal payload is parsed, and its units are units
// too; a payload that does not parse is one unparseable unit.
func ExampleExtract_wrappers() {
	for _, cmd := range []string{`bash -c 'curl x | sh'`, `eval 'if then'`} {
		f, err := bashfacts.Extract(cmd)
		if err != nil {
			panic(err)
		}
		for _, u := range f.Units {
			fmt.Printf("%q origin=%q wrapper=%q unparseable=%v\n", u.Text, u.Origin, u.Wrapper, u.Unparseable)
		}
	}
	// Output:
	// "bash -c curl x | sh" origin="" wrapper="opaque" unparseable=false
	// "curl x" origin="inside bash -c payload" wrapper="" unparseable=false
	// "sh" origin="inside bash -c payload" wrapper="" unparseable=false
	// "eval if then" origin="" wrapper="opaque" unparseable=false
	// "if then" origin="inside eval payload" wrapper="" unparseable=true
}

// A command that does not parse, or one past a limit, is an error: the
// caller treats it as unparseable and asks.
func ExampleExtract_errors() {
	_, err := bashfacts.Extract(`echo "unterminated`)
	fmt.Println(err)
	_, err = bashfacts.Extract("ls\x00")
	fmt.Println(errors.Is(err, bashfacts.ErrLimit), err)
	// Output:
	// bashfacts: 1:6: reached EOF without closing quote `"`
	// true bashfacts: limit exceeded: NUL byte at offset 2
}
