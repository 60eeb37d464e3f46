package codec

import (
	"encoding/binary"
	"fmt"
)

// Slot is where a logical database's keys are stored: every stored key
// of the database carries it after its family prefix (the "db" of the
// layout in doc.go), and the database's record (FlushMarkerKey) names
// it, so FLUSHDB and SWAPDB move no key. A slot is written in 1 to 4
// bytes, ordered and prefix-free, so the keys of one slot stay contiguous
// and slots sort by number:
//
//	0xxxxxxx                              0 .. 127 (one byte: the layout
//	                                      before slots were widened)
//	10xxxxxx xxxxxxxx                     128 .. 16,511
//	110xxxxx xxxxxxxx xxxxxxxx            16,512 .. 2,113,663
//	1110xxxx xxxxxxxx xxxxxxxx xxxxxxxx   2,113,664 .. MaxSlot
type Slot uint32

// The first slot of each encoded length.
const (
	slot2 Slot = 1 << 7
	slot3      = slot2 + 1<<14
	slot4      = slot3 + 1<<21
	// MaxSlot is the largest slot.
	MaxSlot = slot4 + 1<<28 - 1
)

// SlotLen returns the bytes slot s is written in.
func SlotLen(s Slot) int {
	switch {
	case s < slot2:
		return 1
	case s < slot3:
		return 2
	case s < slot4:
		return 3
	}
	return 4
}

// AppendSlot appends slot s's encoding to dst. s must be at most MaxSlot.
func AppendSlot(dst []byte, s Slot) []byte {
	switch {
	case s < slot2:
		return append(dst, byte(s))
	case s < slot3:
		v := uint16(s - slot2)
		return append(dst, 0x80|byte(v>>8), byte(v))
	case s < slot4:
		v := uint32(s - slot3)
		return append(dst, 0xc0|byte(v>>16), byte(v>>8), byte(v))
	case s <= MaxSlot:
		return binary.BigEndian.AppendUint32(dst, 0xe0<<24|uint32(s-slot4))
	}
	panic(fmt.Sprintf("codec: slot %d over MaxSlot", s))
}

// ReadSlot decodes the slot b starts with and returns it with its length.
func ReadSlot(b []byte) (Slot, int, error) {
	if len(b) == 0 {
		return 0, 0, ErrCorrupt
	}
	switch c := b[0]; {
	case c < 0x80:
		return Slot(c), 1, nil
	case c < 0xc0:
		if len(b) < 2 {
			return 0, 0, ErrCorrupt
		}
		return slot2 + (Slot(c&0x3f)<<8 | Slot(b[1])), 2, nil
	case c < 0xe0:
		if len(b) < 3 {
			return 0, 0, ErrCorrupt
		}
		return slot3 + (Slot(c&0x1f)<<16 | Slot(b[1])<<8 | Slot(b[2])), 3, nil
	case c < 0xf0:
		if len(b) < 4 {
			return 0, 0, ErrCorrupt
		}
		return slot4 + Slot(binary.BigEndian.Uint32(b)&(1<<28-1)), 4, nil
	}
	return 0, 0, ErrCorrupt
}
