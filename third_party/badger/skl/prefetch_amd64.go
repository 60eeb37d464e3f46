// Added for rekv (patch 0006).

package skl

// prefetch asks the CPU to bring the two cache lines at addr into its
// caches without waiting for them: a node and the key stored after it.
//
//go:noescape
func prefetch(addr uintptr)
