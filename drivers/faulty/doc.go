// Package faulty wraps a driver to inject storage faults in tests: commits
// that fail (a full disk, an I/O error, an unreachable cluster) or are
// slow (a loaded store), a Check that fails (a data directory gone), a
// Close that hangs (storage that does not answer). Faults are switched on
// and off while the store runs.
//
// Invariant: a fault applies to the calls made after it is switched on
// and stops with the next switch; with none on, the wrapper behaves as
// the wrapped driver.
package faulty
