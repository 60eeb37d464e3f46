// Command gen writes the files generated from the settings table into
// the repository whose root is its argument: rekv.example.yaml and
// docs/settings.md (go generate ./settings). It only writes what
// package settings returns, so a test there can check the files are
// current without running it.
package main
