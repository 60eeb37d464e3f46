package rbloom

import "github.com/rekv/rekv/actors/types/murmur"

// hashPair is the two values an item's bit positions derive from.
type hashPair struct{ a, b uint64 }

// hashItem hashes an item as a chain with options does.
func hashItem(item []byte, options uint32) hashPair {
	if options&OptForce64 != 0 {
		a := murmur.Hash64A(item, 0xc6a4a7935bd1e995)
		return hashPair{a, murmur.Hash64A(item, a)}
	}
	a := murmur.Hash2(item, 0x9747b28c)
	return hashPair{uint64(a), uint64(murmur.Hash2(item, a))}
}
