package strings

import (
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbitmap"
)

// BITFIELD key [GET type offset | SET type offset value |
// INCRBY type offset increment | OVERFLOW WRAP | SAT | FAIL ...]
// BITFIELD_RO key [GET type offset ...]
type bitField struct {
	key      []byte
	ops      []fieldOp
	writes   bool
	reach    int64 // the highest bit a write touches
	readOnly bool  // BITFIELD_RO: a write is an error
}

type fieldOp struct {
	kind     byte // 'g', 's' or 'i'
	f        rbitmap.Field
	v        int64
	overflow rbitmap.Overflow
}

func parseBitField(args [][]byte) (command.Runner, error) { return parseFields(args, false) }

func parseBitFieldRO(args [][]byte) (command.Runner, error) { return parseFields(args, true) }

func parseFields(args [][]byte, readOnly bool) (command.Runner, error) {
	b := bitField{key: args[1], readOnly: readOnly}
	overflow := rbitmap.Wrap
	for j := 2; j < len(args); j++ {
		rest := len(args) - j - 1
		var op fieldOp
		switch a := args[j]; {
		case command.Is(a, "get") && rest >= 2:
			op.kind = 'g'
		case command.Is(a, "set") && rest >= 3:
			op.kind = 's'
		case command.Is(a, "incrby") && rest >= 3:
			op.kind = 'i'
		case command.Is(a, "overflow") && rest >= 1:
			j++
			switch a := args[j]; {
			case command.Is(a, "wrap"):
				overflow = rbitmap.Wrap
			case command.Is(a, "sat"):
				overflow = rbitmap.Sat
			case command.Is(a, "fail"):
				overflow = rbitmap.Fail
			default:
				return nil, errOverflowType
			}
			continue
		default:
			return nil, rerr.ErrSyntax
		}
		var err error
		if op.f, err = fieldType(args[j+1]); err != nil {
			return nil, err
		}
		if op.f.Off, err = bitOffset(args[j+2], op.f.Bits); err != nil {
			return nil, err
		}
		if op.kind != 'g' {
			b.writes = true
			b.reach = max(b.reach, op.f.Off+int64(op.f.Bits)-1)
			if op.v, err = command.Int(args[j+3]); err != nil {
				return nil, err
			}
			j++
		}
		op.overflow = overflow
		b.ops = append(b.ops, op)
		j += 2
	}
	if readOnly && b.writes {
		return nil, errBitfieldRO
	}
	return b, nil
}

// fieldType parses i1..i64 or u1..u63.
func fieldType(arg []byte) (rbitmap.Field, error) {
	if len(arg) < 2 {
		return rbitmap.Field{}, errBitfieldType
	}
	var f rbitmap.Field
	switch arg[0] {
	case 'i', 'I':
		f.Signed = true
	case 'u', 'U':
	default:
		return f, errBitfieldType
	}
	n, err := command.Int(arg[1:])
	if err != nil || n < 1 || n > 64 || (!f.Signed && n > 63) {
		return f, errBitfieldType
	}
	f.Bits = int(n)
	return f, nil
}

func (b bitField) Run(c *command.Ctx) error {
	str, err := c.Tx.OpenString(b.key)
	if err != nil {
		return err
	}
	if b.writes {
		// Redis makes room up to the farthest bit written before it runs
		// the operations, so even a failed (OVERFLOW FAIL) write leaves
		// the string that long. (The offset bound lets it reach 7 bytes
		// past 512 MiB, as in Redis.)
		last := b.reach >> 3
		if !str.Exists() || str.Len() <= last {
			if err := str.Write(last, []byte{0}); err != nil {
				return err
			}
		}
	}
	changes := 0
	c.W.Array(len(b.ops))
	for _, op := range b.ops {
		old, err := rbitmap.Get(str, op.f)
		if err != nil {
			return err
		}
		if op.kind == 'g' {
			c.W.Int(old)
			continue
		}
		next, reply := int64(0), int64(0)
		var ovf bool
		if op.kind == 's' {
			next, ovf = rbitmap.Add(op.f, op.v, 0, op.overflow)
			reply = old
		} else {
			next, ovf = rbitmap.Add(op.f, old, op.v, op.overflow)
			reply = next
		}
		if ovf && op.overflow == rbitmap.Fail {
			c.W.Null()
			continue
		}
		if next != old { // a value set again is no change (Redis 7.0 counts none)
			if err := rbitmap.Set(str, op.f, next); err != nil {
				return err
			}
			changes++
		}
		c.W.Int(reply)
	}
	if changes > 0 {
		c.Tx.AddNote(uint16(command.NotifyString), "setbit", b.key)
	}
	return nil
}
