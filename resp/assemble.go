package resp

import "fmt"

// BigArg is the bulk length from which the connection reads a command with
// an Assembler instead of waiting for it whole in its input buffer.
const BigArg = 1 << 20

// Assembler reads one multibulk command incrementally: each argument is
// copied out of the input as its bytes arrive, into a buffer that grows
// (doubling from 1 MiB, then at once to the argument's exact length). A command with
// a huge argument then never sits whole in the connection's input buffer,
// and is copied once. It accepts exactly what Parse accepts, with the same
// errors.
type Assembler struct {
	lim     Limits
	started bool
	count   int64
	args    [][]byte
	cur     []byte // the argument being read
	want    int    // its length
	inArg   bool   // reading cur's data
	trailer int    // bytes of the CRLF after cur still to skip
}

// NewAssembler returns an Assembler for one command under lim.
func NewAssembler(lim Limits) *Assembler { return &Assembler{lim: lim} }

// Feed consumes what it can of buf, which continues the input where the
// last Feed stopped (the first starts at the command's '*'). It returns
// how many bytes it consumed and, once the command is complete, its
// arguments.
func (a *Assembler) Feed(buf []byte) (n int, args [][]byte, err error) {
	pos := 0
	if !a.started {
		cr, err := line(buf, 0, a.lim.MaxInline, "too big mbulk count string")
		if cr < 0 {
			return 0, nil, err
		}
		count, ok := ParseInt(buf[1:cr])
		if !ok || count > a.lim.MaxArgs {
			return 0, nil, &ProtocolError{"invalid multibulk length"}
		}
		a.started, a.count, pos = true, count, cr+2
		if count <= 0 {
			return pos, [][]byte{}, nil
		}
	}
	for int64(len(a.args)) < a.count {
		if !a.inArg && a.trailer == 0 {
			if pos >= len(buf) {
				return pos, nil, nil
			}
			cr, err := line(buf, pos, a.lim.MaxInline, "too big bulk count string")
			if cr < 0 {
				return pos, nil, err
			}
			if buf[pos] != '$' {
				return pos, nil, &ProtocolError{fmt.Sprintf("expected '$', got '%c'", buf[pos])}
			}
			l, ok := ParseInt(buf[pos+1 : cr])
			if !ok || l < 0 || l > a.lim.MaxBulkLen {
				return pos, nil, &ProtocolError{"invalid bulk length"}
			}
			a.want, a.inArg, pos = int(l), true, cr+2
			a.cur = make([]byte, 0, min(a.want, BigArg))
		}
		if a.inArg {
			take := min(a.want-len(a.cur), len(buf)-pos)
			if len(a.cur)+take > cap(a.cur) {
				// Double, but once half has arrived take the exact size:
				// never more than twice what the client really sent is
				// allocated (a client sending a big value slowly holds
				// only what it sent; maxmemory-clients counts it).
				c := max(2*cap(a.cur), len(a.cur)+take)
				if c*2 >= a.want {
					c = a.want
				}
				grown := make([]byte, len(a.cur), min(a.want, c))
				copy(grown, a.cur)
				a.cur = grown
			}
			a.cur = append(a.cur, buf[pos:pos+take]...)
			pos += take
			if len(a.cur) < a.want {
				return pos, nil, nil
			}
			a.inArg, a.trailer = false, 2
		}
		// Like Parse, the two bytes after the data are not checked.
		skip := min(a.trailer, len(buf)-pos)
		a.trailer -= skip
		pos += skip
		if a.trailer > 0 {
			return pos, nil, nil
		}
		a.args = append(a.args, a.cur)
		a.cur = nil
	}
	return pos, a.args, nil
}

// Size returns the bytes the command's arguments hold so far.
func (a *Assembler) Size() int64 {
	n := int64(cap(a.cur))
	for _, arg := range a.args {
		n += int64(cap(arg))
	}
	return n
}
