package rego

import (
	"io/fs"
	"strings"
)

func load(tests bool) (map[string]string, error) {
	out := map[string]string{}
	err := fs.WalkDir(FS, "lib", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") {
			return err
		}
		if strings.HasSuffix(path, "_test.rego") != tests {
			return nil
		}
		b, err := fs.ReadFile(FS, path)
		if err != nil {
			return err
		}
		out["regate/"+path] = string(b)
		return nil
	})
	return out, err
}
