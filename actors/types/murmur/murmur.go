package murmur

import "encoding/binary"

// Hash64A is MurmurHash64A.
func Hash64A(data []byte, seed uint64) uint64 {
	const m, r = 0xc6a4a7935bd1e995, 47
	h := seed ^ uint64(len(data))*m
	for len(data) >= 8 {
		k := binary.LittleEndian.Uint64(data)
		k *= m
		k ^= k >> r
		k *= m
		h ^= k
		h *= m
		data = data[8:]
	}
	if len(data) > 0 {
		for i := len(data) - 1; i >= 0; i-- {
			h ^= uint64(data[i]) << (8 * i)
		}
		h *= m
	}
	h ^= h >> r
	h *= m
	h ^= h >> r
	return h
}

// Hash2 is MurmurHash2 (32-bit).
func Hash2(data []byte, seed uint32) uint32 {
	const m, r = 0x5bd1e995, 24
	h := seed ^ uint32(len(data))
	for len(data) >= 4 {
		k := binary.LittleEndian.Uint32(data)
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
		data = data[4:]
	}
	if len(data) > 0 {
		for i := len(data) - 1; i >= 0; i-- {
			h ^= uint32(data[i]) << (8 * i)
		}
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return h
}
