package cluster

import "bytes"

// Slots is the number of hash slots, as in Redis Cluster.
const Slots = 16384

// KeySlot returns the hash slot of key: CRC16 of its hash tag (the part
// between the first '{' and the next '}' when that is not empty, else the
// whole key) modulo Slots.
func KeySlot(key []byte) int {
	if open := bytes.IndexByte(key, '{'); open >= 0 {
		if end := bytes.IndexByte(key[open+1:], '}'); end > 0 {
			key = key[open+1 : open+1+end]
		}
	}
	return int(crc16(key) & (Slots - 1))
}

// crcTable is CRC16-CCITT (XMODEM: polynomial 0x1021, initial 0) by byte.
var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

func crc16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c = c<<8 ^ crcTable[byte(c>>8)^x]
	}
	return c
}
