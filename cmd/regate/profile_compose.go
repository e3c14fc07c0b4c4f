package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

func newProfileComposeCmd(a *app) *cobra.Command {
	p := &profileParams{}
	var promptFile string
	cmd := &cobra.Command{
		Use:   "compose",
		Short: "print the prompt with the managed block of the profile that applies",
		Long: `compose resolves as resolve does and prints the host's prompt (--prompt FILE, - for standard
input) with the managed block prepended exactly once. When no profile applies it prints nothing
and says so on standard error: the host keeps its own prompt. Diagnostics go to standard error.`,
		Example: `  regate profile compose --global ~/.pi/agent/system-prompts --provider anthropic --model claude-x --prompt prompt.txt`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			prompt, err := readPrompt(promptFile, a.stdin)
			if err != nil {
				return err
			}
			out, resolver, d, err := p.resolve(cmd.Context())
			if err != nil {
				return err
			}
			printProfileDiagnostics(a.stderr, out, d)
			composed, ok := resolver.Compose(d, prompt)
			if !ok {
				fmt.Fprintf(a.stderr, "no profile applies (mode %s); the host keeps its own prompt\n", d.Mode)
				return nil
			}
			_, err = io.WriteString(a.stdout, composed)
			return err
		},
	}
	p.bind(cmd)
	cmd.Flags().StringVar(&promptFile, "prompt", "", "the host's prompt, a file or - for standard input (default: empty)")
	return cmd
}

// maxPrompt bounds the host's prompt compose reads: a prompt is text a
// model reads, and a path such as /dev/zero must end in an error, not in
// gigabytes. A pipe (- or <(cmd)) is read as a file is, up to the bound.
const maxPrompt = 16 << 20

func readPrompt(path string, stdin io.Reader) (string, error) {
	var r io.Reader
	switch path {
	case "":
		return "", nil
	case "-":
		r = stdin
	default:
		f, err := os.Open(path)
		if err != nil {
			return "", withCode(exitUsage, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxPrompt+1))
	if err != nil {
		return "", withCode(exitUsage, err)
	}
	if len(b) > maxPrompt {
		return "", withCode(exitUsage, fmt.Errorf("--prompt %s: more than %d bytes", path, maxPrompt))
	}
	return string(b), nil
}
