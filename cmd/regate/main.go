// Command regate decides coding-agent tool calls against permission rules
// compiled to Rego and evaluated by embedded OPA.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
