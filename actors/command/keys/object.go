package keys

import (
	"strconv"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/codec"
)

// OBJECT ENCODING | REFCOUNT | FREQ | IDLETIME key, OBJECT HELP
//
// IDLETIME counts whole seconds as Redis's LRU clock does, from the
// shard's access clock (store.AccessClock): every command but TYPE,
// EXISTS, TTL and the like and OBJECT itself counts as an access, as in
// Redis; a key not accessed since the node started (or forgotten by the
// bounded clock) is at least as old as what the clock still remembers.
//
// rekv stores every type one way (codec), so ENCODING reports what Redis
// 7.0 would use for the value under the limits in effect
// (command.EncodingLimits): strings "int" (a canonical 64-bit integer),
// "embstr" (up to 44 bytes) or "raw"; hashes and sorted sets "listpack"
// up to their entry and value limits, else "hashtable" / "skiplist"; sets
// "intset" up to set-max-intset-entries integer members, else
// "hashtable"; lists "quicklist"; streams "stream". As in
// Redis (codec.EncodingConverted), a string modified in place (APPEND,
// SETRANGE...) is "raw" until it is set whole again, and a set, hash or
// sorted set that once outgrew its limits stays "hashtable" or
// "skiplist" when it shrinks.
type objectCmd struct {
	sub string
	key []byte
}

var errLFU = &rerr.Error{Msg: "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."}

var errNoLFU = &rerr.Error{Msg: "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."}

// sharedIntegers is Redis's OBJ_SHARED_INTEGERS: strings holding 0..9999
// are one shared object, whose REFCOUNT reads as OBJ_SHARED_REFCOUNT.
const sharedIntegers = 10000

func objectParser(sub string) func([][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) { return objectCmd{sub: sub, key: args[2]}, nil }
}

func (o objectCmd) Run(c *command.Ctx) error {
	m, ok, err := c.Tx.Meta(o.key)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	switch o.sub {
	case "freq":
		if !c.Tx.Access().LFU() {
			return errNoLFU
		}
		c.W.Int(c.Tx.Access().Freq(o.key))
		return nil
	case "idletime":
		if c.Tx.Access().LFU() {
			return errLFU
		}
		now := c.Tx.Now()
		c.W.Int(now/1000 - (now-c.Tx.Access().IdleMillis(o.key))/1000)
		return nil
	case "refcount":
		n := int64(1)
		if m.Type == codec.TypeString {
			if v, isInt, err := stringInt(c, o.key); err != nil {
				return err
			} else if isInt && v >= 0 && v < sharedIntegers {
				n = 1<<31 - 1
			}
		}
		c.W.Int(n)
		return nil
	}
	enc, err := encoding(c, o.key, m)
	if err != nil {
		return err
	}
	c.W.BulkString(enc)
	return nil
}

// stringInt reports whether the string at key is a canonical 64-bit
// integer (Redis's int encoding).
func stringInt(c *command.Ctx, key []byte) (int64, bool, error) {
	s, err := c.Tx.OpenString(key)
	if err != nil || s.Len() > 20 || s.Len() == 0 {
		return 0, false, err
	}
	v, err := s.Value()
	if err != nil {
		return 0, false, err
	}
	n, perr := command.Int(v)
	return n, perr == nil, nil
}

func encoding(c *command.Ctx, key []byte, m codec.Meta) (string, error) {
	switch m.Type {
	case codec.TypeString:
		_, isInt, err := stringInt(c, key)
		switch {
		case err != nil:
			return "", err
		case m.Chunked, m.Converted: // modified in place: raw, whatever it holds
			return "raw", nil
		case isInt:
			return "int", nil
		}
		s, err := c.Tx.OpenString(key)
		if err != nil {
			return "", err
		}
		if s.Len() <= 44 {
			return "embstr", nil
		}
		return "raw", nil
	case codec.TypeList, codec.TypeStream, codec.TypeBloom, codec.TypeCMS, codec.TypeCuckoo, codec.TypeTopK, codec.TypeTDigest, codec.TypeJSON:
		return m.Type.Info().Encodings[0], nil
	}
	enc := m.Type.Info().Encodings // the collections' compact and big encodings
	if len(enc) < 2 {
		return "", rerr.ErrInternal
	}
	compact, big := enc[0], enc[1]
	if m.Converted { // converted for good, as in Redis (codec.EncodingConverted)
		return big, nil
	}
	// Not marked (or written before marks were kept): what the value
	// holds under the limits now in effect.
	lim := c.EncodingLimits()
	switch m.Type {
	case codec.TypeHash:
		if m.FieldTTL != 0 {
			compact = "listpackex" // Redis 7.4's small hash with field TTLs
		}
		return small(c, key, m, lim.Hash.Entries, compact, big, func(f, v []byte) bool {
			return int64(len(f)) <= lim.Hash.Value && int64(len(v)) <= lim.Hash.Value
		})
	case codec.TypeZSet:
		return small(c, key, m, lim.ZSet.Entries, compact, big, func(f, _ []byte) bool { return int64(len(f)) <= lim.ZSet.Value })
	case codec.TypeSet:
		return small(c, key, m, lim.IntsetEntries, compact, big, func(f, _ []byte) bool {
			_, err := command.Int(f)
			return err == nil
		})
	}
	return "", rerr.ErrInternal
}

// configInt reads the Redis parameter name, def when it is not a number.
func configInt(c *command.Ctx, name string, def int64) int64 {
	if c.Server.Config == nil { // table tests
		return def
	}
	for _, kv := range c.Server.Config.ConfigGet([][]byte{[]byte(name)}) {
		if v, err := strconv.ParseInt(kv[1], 10, 64); err == nil {
			return v
		}
	}
	return def
}

// small returns compact when the collection has at most max members and
// every member passes fits, else big.
func small(c *command.Ctx, key []byte, m codec.Meta, max int64, compact, big string, fits func(f, v []byte) bool) (string, error) {
	if int64(m.Size) > max {
		return big, nil
	}
	coll, err := c.Tx.Open(key, m.Type, false)
	if err != nil || coll == nil {
		return big, err
	}
	enc := compact
	err = coll.Scan(nil, nil, false, 0, func(f, v []byte) (bool, error) {
		if !fits(f, v) {
			enc = big
			return false, nil
		}
		return true, nil
	})
	return enc, err
}

// OBJECT HELP
type objectHelp struct{}

func parseObjectHelp([][]byte) (command.Runner, error) { return objectHelp{}, nil }

func (objectHelp) Run(c *command.Ctx) error {
	lines := []string{
		"OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
		"ENCODING <key>",
		"    The internal representation Redis would use for the value at <key>.",
		"FREQ <key>",
		"    The access frequency of <key> (needs an LFU maxmemory policy, which",
		"    rekv does not have).",
		"IDLETIME <key>",
		"    The approximated number of seconds elapsed since the last access to",
		"    the key (on this node).",
		"REFCOUNT <key>",
		"    The number of references to the value at <key>.",
		"HELP",
		"    Print this help.",
	}
	c.W.SimpleArray(lines)
	return nil
}
