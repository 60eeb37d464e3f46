package hash

import (
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/actors/types/rhash"
)

// Arguments shared by the hash-field expiration commands (Redis 7.4 and
// 8.0): FIELDS numfields field..., and expiry times.

// maxFieldExpire is the latest expiry a field may get, unix ms: Redis's
// HFE_MAX_ABS_TIME_MSEC (EB_EXPIRE_TIME_MAX >> 2).
const maxFieldExpire = 1<<46 - 1

// numFieldsPositive is the error of HTTL, HPERSIST, HGETDEL and HGETEX for
// a bad numfields; HEXPIRE words it numFieldsGreater.
const (
	numFieldsPositive = "Number of fields must be a positive integer"
	numFieldsGreater  = "Parameter `numFields` should be greater than 0"
)

// fieldsAt parses "FIELDS numfields field..." whose keyword is args[at-1]
// and which runs to the end of args.
func fieldsAt(args [][]byte, at int, numErr string) ([][]byte, error) {
	if at-1 >= len(args) || !command.Is(args[at-1], "fields") {
		return nil, rerr.Errorf("ERR Mandatory argument FIELDS is missing or not at the right position")
	}
	if at >= len(args) {
		return nil, rerr.ErrArity(strings.ToLower(string(args[0])))
	}
	n, err := command.Int(args[at])
	if err != nil || n < 1 {
		return nil, rerr.Errorf("ERR %s", numErr)
	}
	if n != int64(len(args)-at-1) {
		return nil, rerr.Errorf("ERR The `numfields` parameter must match the number of arguments")
	}
	return args[at+1:], nil
}

// expiry is an expiry argument: a time in seconds or milliseconds,
// relative to the command's time or absolute.
type expiry struct {
	v        int64
	seconds  bool
	relative bool
}

// check validates the argument as Redis's parseExpireTime does, with base
// the command's time for a relative one (0 at parse time, when it is not
// known yet), and returns the expiry in unix ms.
func (e expiry) check(name string, base int64) (int64, error) {
	v := e.v
	if v < 0 {
		return 0, rerr.Errorf("ERR invalid expire time, must be >= 0")
	}
	if e.seconds {
		if v > maxFieldExpire/1000 {
			return 0, rerr.ErrInvalidExpire(name)
		}
		v *= 1000
	}
	if !e.relative {
		base = 0
	}
	if v > maxFieldExpire-base {
		return 0, rerr.ErrInvalidExpire(name)
	}
	return v + base, nil
}

// parseExpiry reads an expiry argument and checks what does not depend
// on the command's time.
func parseExpiry(name string, arg []byte, seconds, relative bool) (expiry, error) {
	v, err := command.Int(arg)
	if err != nil {
		return expiry{}, err
	}
	e := expiry{v, seconds, relative}
	_, err = e.check(name, 0)
	return e, err
}

// nulls writes n null replies in an array.
func nulls(c *command.Ctx, n int) {
	c.W.Array(n)
	for i := 0; i < n; i++ {
		c.W.Null()
	}
}

// openThenCheck opens key's hash, then returns parseErr: the commands
// above report a bad argument only after the key's type, as Redis.
func openThenCheck(c *command.Ctx, key []byte, parseErr error) (*store.Coll, error) {
	coll, err := rhash.Open(c.Tx, key, false)
	if err != nil {
		return nil, err
	}
	return coll, parseErr
}

// writeInts writes vs as an array of integers.
func writeInts(c *command.Ctx, vs []int64) {
	c.W.Array(len(vs))
	for _, v := range vs {
		c.W.Int(v)
	}
}

// ints writes n copies of v in an array.
func ints(c *command.Ctx, n int, v int64) {
	c.W.Array(n)
	for i := 0; i < n; i++ {
		c.W.Int(v)
	}
}

// fieldValue is a value read for a reply: ok false for a missing field.
type fieldValue struct {
	v  []byte
	ok bool
}

// writeValues writes values as an array, null for missing fields.
func writeValues(c *command.Ctx, vals []fieldValue) {
	c.W.Array(len(vals))
	for _, v := range vals {
		if v.ok {
			c.W.Bulk(v.v)
		} else {
			c.W.Null()
		}
	}
}

// fieldTTLEffect records what an expiry given to fields did, in the form
// a replica repeats whatever its clock (Redis 7.4 propagates HEXPIRE so):
// HPEXPIREAT key at FIELDS n of the fields that got it, and HDEL of the
// fields it deleted (an expiry already past); nothing when neither.
func fieldTTLEffect(c *command.Ctx, key []byte, at int64, set, deleted [][]byte) {
	if !c.Effects() {
		return
	}
	if len(set) == 0 && len(deleted) == 0 {
		c.NoEffect()
		return
	}
	if len(set) > 0 {
		args := append([][]byte{[]byte("HPEXPIREAT"), key, command.Itoa(at), []byte("FIELDS"), command.Itoa(int64(len(set)))}, set...)
		c.Effect(args...)
	}
	if len(deleted) > 0 {
		c.Effect(append([][]byte{[]byte("HDEL"), key}, deleted...)...)
	}
}
