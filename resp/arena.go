package resp

// ArgArena copies commands' arguments out of the read buffer (as
// CopyArgs does) with one allocation per command instead of two: the
// argument slices of small commands are carved from shared blocks, and
// only the bytes get an allocation of their own. In a pipeline of GETs
// CopyArgs's two allocations were 4-5% of the CPU.
//
// The bytes are never shared: what a command keeps of them (a string
// value in the meta cache holds the SET's argument) keeps alive that
// command's bytes only, as before. A block of argument slices stays
// alive while a command holds on to its argument list (a blocked
// command, a slowlog entry), with the small byte blocks of the block's
// other commands: at most arenaHdrBlock slices and arenaMaxBytes each.
// Each copy is capped, so an append never writes into a neighbour. An
// ArgArena is not safe for concurrent use (one per connection, on its
// event loop).
type ArgArena struct {
	hdr [][]byte
}

const (
	arenaHdrBlock = 64  // argument slices per block (1.5 KiB)
	arenaMaxArgs  = 16  // larger commands are copied alone
	arenaMaxBytes = 256 // so are those with more bytes
)

// Copy returns a copy of args (see CopyArgs).
func (a *ArgArena) Copy(args [][]byte) [][]byte {
	n := 0
	for _, b := range args {
		n += len(b)
	}
	if len(args) > arenaMaxArgs || n > arenaMaxBytes {
		return CopyArgs(args)
	}
	if len(a.hdr) < len(args) {
		a.hdr = make([][]byte, arenaHdrBlock)
	}
	out := a.hdr[:len(args):len(args)]
	a.hdr = a.hdr[len(args):]
	block := make([]byte, n)
	off := 0
	for i, b := range args {
		out[i] = block[off : off+len(b) : off+len(b)]
		copy(out[i], b)
		off += len(b)
	}
	return out
}
