package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// Errors of the bit commands, with Redis's texts.
var (
	errBitOffset    = &rerr.Error{Msg: "ERR bit offset is not an integer or out of range"}
	errBitValue     = &rerr.Error{Msg: "ERR bit is not an integer or out of range"}
	errBitArg       = &rerr.Error{Msg: "ERR The bit argument must be 1 or 0."}
	errBitfieldType = &rerr.Error{Msg: "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is."}
	errOverflowType = &rerr.Error{Msg: "ERR Invalid OVERFLOW type specified"}
	errBitfieldRO   = &rerr.Error{Msg: "ERR BITFIELD_RO only supports the GET subcommand"}
	errBitopNot     = &rerr.Error{Msg: "ERR BITOP NOT must be called with a single source key."}
)

// bitOffset parses a bit offset as Redis does: an integer in [0, 2^32),
// or, with width > 0, "#n" for n*width.
func bitOffset(arg []byte, width int) (int64, error) {
	hash := width > 0 && len(arg) > 0 && arg[0] == '#'
	if hash {
		arg = arg[1:]
	}
	n, err := command.Int(arg)
	if err != nil {
		return 0, errBitOffset
	}
	if hash {
		n *= int64(width)
	}
	if n < 0 || n >= rbitmap.MaxOffset {
		return 0, errBitOffset
	}
	return n, nil
}

// bitRange turns the start and end of BITCOUNT and BITPOS (bytes, or bits
// with isBit) into an inclusive bit range over a string of n bytes, with
// Redis's negative-index rules; ok is false for an empty range.
func bitRange(n, start, end int64, isBit bool) (from, to int64, ok bool) {
	total := n
	if isBit {
		total *= 8
	}
	if start < 0 {
		start += total
	}
	if end < 0 {
		end += total
	}
	start, end = max(start, 0), max(end, 0)
	end = min(end, total-1)
	if start > end {
		return 0, 0, false
	}
	if isBit {
		return start, end, true
	}
	return start * 8, end*8 + 7, true
}

// bitUnit parses BYTE or BIT.
func bitUnit(arg []byte) (isBit bool, err error) {
	switch {
	case command.Is(arg, "bit"):
		return true, nil
	case command.Is(arg, "byte"):
		return false, nil
	}
	return false, rerr.ErrSyntax
}
