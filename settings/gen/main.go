package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rekv/rekv/settings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen <repository root>")
		os.Exit(2)
	}
	root, table := os.Args[1], settings.Table()
	for name, data := range map[string][]byte{
		"rekv.example.yaml": settings.Example(table),
		"docs/settings.md":  settings.Markdown(table),
	} {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
