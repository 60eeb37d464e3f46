package store

import "github.com/rekv/rekv/drivers"

// Storage refusals that reach commands, re-exported so that the layers above
// the store classify them with errors.Is without importing a driver.
var (
	// ErrConflict is a transaction that lost a conflict (retried by the
	// engine; TRYAGAIN once retries run out).
	ErrConflict = drivers.ErrConflict
	// ErrTooBig is a transaction or value over the storage's limits.
	ErrTooBig = drivers.ErrTxnTooBig
	// ErrUnavailable is a store that could not be reached (TRYAGAIN);
	// ErrUndetermined a commit whose outcome the store did not tell.
	ErrUnavailable  = drivers.ErrUnavailable
	ErrUndetermined = drivers.ErrUndetermined
	// ErrFenced is a commit refused because the node's cluster lease had
	// ended by the store's clock (drivers.Fencer): nothing was written.
	ErrFenced = drivers.ErrFenced
)
