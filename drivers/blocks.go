package drivers

// Blocks carves the byte slices a transaction's writes hand its driver
// (copies Set makes, encodings given to SetOwned) from shared blocks, so
// that many small writes cost one allocation. Blocks start at Min bytes
// and double up to Max; a request over Own bytes gets an allocation of
// its own. Each slice is capped at its length, so no later request writes
// into it, and a block is never reused: it lives as long as any slice
// carved from it, so a Blocks belongs to one transaction, whose writes
// let go of their slices when it ends. The zero value allocates every
// slice on its own. Not safe for concurrent use.
type Blocks struct {
	Min, Max, Own int
	cur           []byte
}

// Take returns n bytes (their contents unspecified) for a write.
func (b *Blocks) Take(n int) []byte {
	if n > b.Own {
		return make([]byte, n)
	}
	if cap(b.cur)-len(b.cur) < n {
		b.cur = make([]byte, 0, min(max(2*cap(b.cur), b.Min, n), b.Max))
	}
	from := len(b.cur)
	b.cur = b.cur[:from+n]
	return b.cur[from : from+n : from+n]
}
