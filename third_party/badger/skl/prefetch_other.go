// Added for rekv (patch 0006).

//go:build !amd64

package skl

// prefetch does nothing where rekv has no prefetch instruction for it.
func prefetch(addr uintptr) {}
