package keys

import (
	"fmt"
	"hash/fnv"
	"math"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec"
)

// DEBUG OBJECT key: Redis's one-line description of a value, which its
// test suite reads for encodings (assert_encoding), LRU clocks and
// in-place changes:
//
//	Value at:<address> refcount:<n> encoding:<enc> serializedlength:<n> lru:<clock> lru_seconds_idle:<s>
//
// The fields are OBJECT's (encoding, refcount, idle time). rekv has no
// object in memory, so the address names the value's incarnation, its
// key's version: a change made in place (INCR, APPEND to an inline
// string) keeps it, as Redis's object stays at its address. lru is
// Redis's 24-bit clock of seconds at the last access; serializedlength
// the length of the value as DUMP serializes it (without DUMP's type,
// version and checksum; Redis compresses long strings with LZF and
// writes small collections as one listpack or intset, rekv's DUMP does
// neither, so only short strings' lengths agree). A list adds Redis's quicklist fields for the nodes
// Redis would build appending its elements in order under
// list-max-listpack-size (rekv keeps no nodes; none is compressed). It
// is a variant of DEBUG (command.Spec.Variants): it reads a key where
// the others touch no storage.
type debugObject struct{ key []byte }

func parseDebugObject(args [][]byte) (command.Runner, error) { return debugObject{key: args[2]}, nil }

// isDebugObject picks DEBUG OBJECT key among DEBUG's argument lists
// (another arity is DEBUG's syntax error).
func isDebugObject(args [][]byte) bool { return len(args) == 3 && command.Is(args[1], "object") }

var errNoSuchKey = &rerr.Error{Msg: "ERR no such key"}

// lruClockMax is Redis's LRU_CLOCK_MAX: its clock has 24 bits.
const lruClockMax = 1<<24 - 1

func (d debugObject) Run(c *command.Ctx) error {
	if !c.DebugAllowed(c.ClientInfo) {
		return command.ErrDebugNotAllowed
	}
	// Redis's DEBUG OBJECT finds a key expired but not yet removed (its
	// dict look-up applies no expiry, and deletes nothing; unit/scripting
	// relies on it): such a key is described as it was just before it
	// expired, and stays stored.
	now := c.Tx.Now()
	at, stored, err := c.Tx.ExpiredAt(d.key)
	if err != nil {
		return err
	}
	if stored {
		c.Tx.SetNow(at - 1)
		defer c.Tx.SetNow(now)
	}
	m, ok, err := c.Tx.Meta(d.key)
	if err != nil {
		return err
	}
	if !ok {
		return errNoSuchKey
	}
	enc, err := encoding(c, d.key, m)
	if err != nil {
		return err
	}
	refcount := int64(1)
	if enc == "int" {
		if v, _, err := stringInt(c, d.key); err != nil {
			return err
		} else if v >= 0 && v < sharedIntegers {
			refcount = 1<<31 - 1
		}
	}
	payload, _, err := DumpPayload(c, d.key)
	if err != nil {
		return err
	}
	serialized := max(len(payload)-11, 0) // DUMP's type byte, RDB version (2) and CRC (8)
	var lastAccess, idle int64 = now, 0
	if !c.Tx.Access().LFU() {
		idle = c.Tx.Access().IdleMillis(d.key)
		lastAccess = now - idle
	}
	h := fnv.New64a()
	_, _ = h.Write(d.key)
	var v [8]byte
	for i := range v {
		v[i] = byte(m.Version >> (8 * i))
	}
	_, _ = h.Write(v[:])
	addr := 0x7f0000000000 | h.Sum64()&0xffffffffff&^0xf // 16-byte aligned, as malloc's
	out := fmt.Sprintf("Value at:0x%x refcount:%d encoding:%s serializedlength:%d lru:%d lru_seconds_idle:%d",
		addr, refcount, enc, serialized, (lastAccess/1000)&lruClockMax, idle/1000)
	if m.Type == codec.TypeList {
		ql, err := quicklistFields(c, d.key)
		if err != nil {
			return err
		}
		out += ql
	}
	c.W.Simple(out)
	return nil
}

// quicklistFields returns DEBUG OBJECT's quicklist fields for the list at
// key: its elements packed, head to tail, into listpack nodes as Redis
// appends them under list-max-listpack-size (a negative fill bounds a
// node's bytes: 4, 8, 16, 32 or 64 KiB; a positive one its count, and 8
// KiB its bytes).
func quicklistFields(c *command.Ctx, key []byte) (string, error) {
	fill := configInt(c, "list-max-listpack-size", -2)
	sizeLimit, countLimit := int64(8192), int64(math.MaxInt64)
	if fill < 0 {
		sizeLimit = 4096 << min(-fill-1, 4)
	} else {
		countLimit = max(fill, 1)
	}
	coll, err := c.Tx.Open(key, codec.TypeList, false)
	if err != nil || coll == nil {
		return "", err
	}
	const header, end = 6, 1 // a listpack's total bytes and count, its end byte
	var nodes, total, count, sz, n int64
	err = coll.Scan(nil, nil, false, 0, func(_, v []byte) (bool, error) {
		e := listpackEntrySize(v)
		if n > 0 && (sz+e > sizeLimit || n+1 > countLimit) {
			nodes, total = nodes+1, total+sz
			sz, n = 0, 0
		}
		if n == 0 {
			sz = header + end
		}
		sz, n, count = sz+e, n+1, count+1
		return true, nil
	})
	if err != nil {
		return "", err
	}
	if n > 0 {
		nodes, total = nodes+1, total+sz
	}
	avg := 0.0
	if nodes > 0 {
		avg = float64(count) / float64(nodes)
	}
	return fmt.Sprintf(" ql_nodes:%d ql_avg_node:%.2f ql_listpack_max:%d ql_compressed:0 ql_uncompressed_size:%d", nodes, avg, fill, total), nil
}

// listpackEntrySize is the bytes an element takes in a listpack: its
// encoding (an integer's, when it reads as one, else a string's) and the
// back-length that follows it.
func listpackEntrySize(v []byte) int64 {
	var enc int64
	if i, err := command.Int(v); err == nil {
		switch {
		case i >= 0 && i <= 127:
			enc = 1
		case i >= -4096 && i <= 4095:
			enc = 2
		case i >= math.MinInt16 && i <= math.MaxInt16:
			enc = 3
		case i >= -1<<23 && i < 1<<23:
			enc = 4
		case i >= math.MinInt32 && i <= math.MaxInt32:
			enc = 5
		default:
			enc = 9
		}
	} else {
		switch l := int64(len(v)); {
		case l < 64:
			enc = 1 + l
		case l < 4096:
			enc = 2 + l
		default:
			enc = 5 + l
		}
	}
	switch {
	case enc < 128:
		return enc + 1
	case enc < 16384:
		return enc + 2
	case enc < 2097152:
		return enc + 3
	case enc < 268435456:
		return enc + 4
	}
	return enc + 5
}
