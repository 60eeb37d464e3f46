// Package atomicfile replaces a file whole or not at all: the new content
// goes to a temporary file beside it, which is synced, given its mode and
// renamed over the old one, and the directory is synced so the rename
// survives a crash. Readers see the old file or the new one, never a part.
package atomicfile
