package keys

import (
	"errors"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/types/rbloom"
	"github.com/rekv/rekv/actors/types/rcms"
	"github.com/rekv/rekv/actors/types/rcuckoo"
	"github.com/rekv/rekv/actors/types/rhash"
	"github.com/rekv/rekv/actors/types/rjson"
	"github.com/rekv/rekv/actors/types/rlist"
	"github.com/rekv/rekv/actors/types/rset"
	"github.com/rekv/rekv/actors/types/rstream"
	"github.com/rekv/rekv/actors/types/rtopk"
	"github.com/rekv/rekv/actors/types/rzset"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/codec/rdb"
)

// RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds]
// [FREQ frequency]. IDLETIME sets the key's last access that many seconds
// back (OBJECT IDLETIME) under an LRU policy, FREQ its LFU counter
// (OBJECT FREQ) under an LFU one, as Redis.
type restoreCmd struct {
	args              [][]byte // as sent (the replicated form's base)
	key, ttl, payload []byte
	replace, absTTL   bool
	idle              int64 // seconds; -1: none given
	freq              int64 // -1: none given
}

var (
	errBusyKey     = &rerr.Error{Msg: "BUSYKEY Target key name already exists."}
	errBadPayload  = &rerr.Error{Msg: "ERR DUMP payload version or checksum are wrong"}
	errBadFormat   = &rerr.Error{Msg: "ERR Bad data format"}
	errBadTTL      = &rerr.Error{Msg: "ERR Invalid TTL value, must be >= 0"}
	errBadIdleTime = &rerr.Error{Msg: "ERR Invalid IDLETIME value, must be >= 0"}
	errBadFreq     = &rerr.Error{Msg: "ERR Invalid FREQ value, must be >= 0 and <= 255"}
)

func parseRestore(args [][]byte) (command.Runner, error) {
	r := restoreCmd{args: args, key: args[1], ttl: args[2], payload: args[3], idle: -1, freq: -1}
	idle, freq := false, false
	for j := 4; j < len(args); j++ {
		more := len(args) - j - 1
		switch a := args[j]; {
		case command.Is(a, "replace"):
			r.replace = true
		case command.Is(a, "absttl"):
			r.absTTL = true
		case command.Is(a, "idletime") && more >= 1 && !freq:
			n, err := command.Int(args[j+1])
			if err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, errBadIdleTime
			}
			idle, r.idle = true, n
			j++
		case command.Is(a, "freq") && more >= 1 && !idle:
			n, err := command.Int(args[j+1])
			if err != nil {
				return nil, err
			}
			if n < 0 || n > 255 {
				return nil, errBadFreq
			}
			freq, r.freq = true, n
			j++
		default:
			return nil, rerr.ErrSyntax
		}
	}
	return r, nil
}

func (r restoreCmd) Run(c *command.Ctx) error {
	if !r.replace {
		if ok, err := c.Tx.Exists(r.key); err != nil || ok {
			if err == nil {
				err = errBusyKey
			}
			return err
		}
	}
	ttl, err := command.Int(r.ttl)
	if err != nil {
		return err
	}
	if ttl < 0 {
		return errBadTTL
	}
	body, err := rdb.Verify(r.payload)
	if err != nil {
		return errBadPayload
	}
	v, err := rdb.Decode(body)
	if err != nil {
		return errBadFormat
	}
	expireAt := int64(0)
	if ttl > 0 {
		expireAt = ttl
		if !r.absTTL {
			expireAt += c.Now
		}
	}
	if expireAt != 0 && expireAt <= c.Now {
		// Already expired: the key ends up deleted (a replaced key too).
		_, err := c.Tx.Delete(r.key)
		if err == nil {
			c.Effect([]byte("DEL"), r.key)
			c.W.OK()
		}
		return err
	}
	if v.Type == rdb.TypeString {
		if err := c.Tx.SetString(r.key, v.String, expireAt); err != nil {
			return err
		}
		r.effect(c, expireAt)
		r.done(c)
		return nil
	}
	// Check before writing: in a group commit an error after a write
	// would not undo it.
	if !wellFormed(v) {
		return errBadFormat
	}
	if _, err := c.Tx.Delete(r.key); err != nil {
		return err
	}
	if err := restoreCollection(c, r.key, v); err != nil {
		return err
	}
	if expireAt != 0 {
		if _, err := c.Tx.SetExpire(r.key, expireAt); err != nil {
			return err
		}
	}
	r.effect(c, expireAt)
	r.done(c)
	return nil
}

// effect records a relative TTL as an absolute one: the command as sent
// with its TTL made absolute and ABSTTL added, as Redis rewrites it (a
// replica behind must not extend it).
func (r restoreCmd) effect(c *command.Ctx, expireAt int64) {
	if expireAt != 0 && !r.absTTL && c.Effects() {
		args := append(append([][]byte{}, r.args...), []byte("ABSTTL"))
		args[2] = command.Itoa(expireAt)
		c.Effect(args...)
	}
}

// wellFormed reports whether a decoded collection may be restored: not
// empty, and (sets, hashes, sorted sets) with no member twice, as Redis
// requires.
func wellFormed(v rdb.Value) bool {
	switch v.Type {
	case rdb.TypeStream2:
		return v.Stream != nil // checked by the decoder; may be empty
	case rdb.TypeModule2:
		if v.JSON != nil {
			_, err := rjson.ParseStored(string(v.JSON))
			return err == nil
		}
		if v.TDigest != nil {
			_, ok := tdigestOf(v.TDigest)
			return ok
		}
		if v.TopK != nil {
			return v.TopK.K <= rtopk.MaxK && v.TopK.Width <= rtopk.MaxCells && v.TopK.Depth <= rtopk.MaxCells
		}
		if v.Cuckoo != nil {
			_, err := cuckooHeader(v.Cuckoo)
			return err == nil
		}
		if v.CMS != nil {
			return v.CMS.Width <= rcms.MaxCells/v.CMS.Depth // the decoder checked the rest
		}
		_, err := bloomChain(v.Bloom)
		return err == nil
	}
	if len(v.Elems) == 0 {
		return false
	}
	step := 1
	switch v.Type {
	case rdb.TypeList:
		return true
	case rdb.TypeHash:
		step = 2
	}
	seen := make(map[string]struct{}, len(v.Elems)/step)
	for i := 0; i < len(v.Elems); i += step {
		if _, dup := seen[string(v.Elems[i])]; dup {
			return false
		}
		seen[string(v.Elems[i])] = struct{}{}
	}
	return true
}

// restoreCollection writes a decoded, well-formed list, set, hash or
// sorted set at key (which does not exist).
func restoreCollection(c *command.Ctx, key []byte, v rdb.Value) error {
	switch v.Type {
	case rdb.TypeList:
		l, err := rlist.Open(c.Tx, key, true)
		if err != nil {
			return err
		}
		return l.Push(false, v.Elems...)
	case rdb.TypeSet:
		s, err := rset.Open(c.Tx, key, true)
		if err != nil {
			return err
		}
		_, err = rset.Add(s, v.Elems, c.EncodingLimits().IntsetEntries)
		return err
	case rdb.TypeHash:
		h, err := rhash.Open(c.Tx, key, true)
		if err != nil {
			return err
		}
		if _, err = rhash.Set(h, v.Elems, c.EncodingLimits().Hash); err != nil {
			return err
		}
		// Field TTLs (Redis 7.4): one already past expires at once.
		var gone [][]byte
		for i, at := range v.TTLs {
			f := v.Elems[2*i]
			switch {
			case at == 0:
			case at <= c.Now:
				gone = append(gone, f)
			default:
				if err := h.SetFieldTTL(f, at); err != nil {
					return err
				}
			}
		}
		_, err = rhash.Delete(h, gone)
		return err
	case rdb.TypeZSet2:
		z, _, err := rzset.Open(c.Tx, key, true)
		if err != nil {
			return err
		}
		batch := z.Batch(c.EncodingLimits().ZSet)
		for i, m := range v.Elems {
			if _, err := batch.Set(m, v.Scores[i]); err != nil {
				return err
			}
		}
		_, err = batch.Close()
		return err
	case rdb.TypeStream2:
		return restoreStream(c, key, v.Stream)
	case rdb.TypeModule2:
		if v.JSON != nil {
			root, err := rjson.ParseStored(string(v.JSON))
			if err != nil {
				return errBadFormat
			}
			_, err = rjson.Create(c.Tx, key, root)
			return err
		}
		if t := v.TDigest; t != nil {
			return restoreTDigest(c, key, t)
		}
		if m := v.CMS; m != nil {
			return rcms.CreateFrom(c.Tx, key, m.Width, m.Depth, m.Count, m.Cells)
		}
		if t := v.TopK; t != nil {
			h := rtopk.Header{K: uint32(t.K), Width: uint32(t.Width), Depth: uint32(t.Depth), Decay: t.Decay, RNG: t.RNG}
			err := rtopk.CreateFrom(c.Tx, key, h, t.Buckets, t.Heap)
			if errors.Is(err, codec.ErrCorrupt) {
				return errBadFormat
			}
			return err
		}
		if cf := v.Cuckoo; cf != nil {
			h, err := cuckooHeader(cf)
			if err != nil {
				return err
			}
			f, err := rcuckoo.Create(c.Tx, key, h)
			if err != nil {
				return err
			}
			for fi, d := range cf.Data {
				if err := f.Write(uint64(fi), 0, d); err != nil {
					return err
				}
			}
			return f.Flush()
		}
		chain, err := bloomChain(v.Bloom)
		if err != nil {
			return err
		}
		bits := make([][]byte, len(v.Bloom.Links))
		for i, l := range v.Bloom.Links {
			bits[i] = l.Data
		}
		return rbloom.CreateFrom(c.Tx, key, chain, bits)
	}
	return errBadFormat
}

// cuckooHeader returns a decoded Cuckoo filter's header, checked as
// CF.LOADCHUNK checks one, with sub-filters of the sizes it implies.
func cuckooHeader(cf *rdb.Cuckoo) (rcuckoo.Header, error) {
	if cf.BucketSize > 255 || cf.MaxIterations > 65535 || cf.Expansion > 65535 {
		return rcuckoo.Header{}, errBadFormat
	}
	h := rcuckoo.Header{Items: cf.Items, Buckets: cf.Buckets, Deletes: cf.Deletes, Filters: uint64(len(cf.Data)),
		BucketSize: uint16(cf.BucketSize), MaxIterations: uint16(cf.MaxIterations), Expansion: uint16(cf.Expansion)}
	h, err := rcuckoo.DecodeHeader(h.Encode())
	if err != nil {
		return h, errBadFormat
	}
	for fi := range h.Filters {
		if uint64(len(cf.Data[fi])) != rcuckoo.NewFilterBytes(h, fi) {
			return h, errBadFormat
		}
	}
	return h, nil
}

// bloomChain returns a decoded Bloom filter's header, checked as
// BF.LOADCHUNK checks one.
func bloomChain(b *rdb.Bloom) (rbloom.Chain, error) {
	if b == nil {
		return rbloom.Chain{}, errBadFormat
	}
	ch := rbloom.Chain{Items: b.Items, Options: b.Options, Expansion: b.Expansion}
	for _, l := range b.Links {
		ch.Links = append(ch.Links, rbloom.Link{Bytes: uint64(len(l.Data)), Bits: l.Bits, Items: l.Items, Error: l.Error,
			BPE: l.BPE, Hashes: l.Hashes, Capacity: l.Capacity, N2: l.N2})
	}
	return rbloom.DecodeChain(ch.Encode())
}

// restoreStream writes a decoded stream with its groups at key.
func restoreStream(c *command.Ctx, key []byte, v *rdb.Stream) error {
	s, err := rstream.Open(c.Tx, key, true)
	if err != nil {
		return err
	}
	entries, bytes := c.StreamNodeLimits()
	lim := rstream.NodeLimits{Entries: entries, Bytes: bytes}
	for _, e := range v.Entries {
		if err := s.Add(e.ID, e.Fields, lim); err != nil {
			return err
		}
	}
	if err := s.SetMeta(codec.StreamMeta{LastID: v.LastID, MaxDeletedID: v.MaxDeletedID, EntriesAdded: v.EntriesAdded}); err != nil {
		return err
	}
	for _, g := range v.Groups {
		if err := s.PutGroup(rstream.Group{Name: g.Name, LastDelivered: g.LastID, EntriesRead: g.EntriesRead,
			Pending: int64(len(g.Pending))}); err != nil {
			return err
		}
		owned := map[string]int64{}
		for _, p := range g.Pending {
			owned[string(p.Consumer)]++
			if err := s.PutPending(g.Name, rstream.PendingEntry{ID: p.ID, Consumer: p.Consumer, DeliveredMs: p.DeliveredMs,
				Deliveries: int64(p.Deliveries)}, nil); err != nil {
				return err
			}
		}
		for _, cs := range g.Consumers {
			if err := s.PutConsumer(g.Name, rstream.Consumer{Name: cs.Name, SeenMs: cs.SeenMs,
				Pending: owned[string(cs.Name)]}); err != nil {
				return err
			}
		}
	}
	return nil
}

// restoreEvent: "restore" on the key, or the generic "del" when an
// already expired TTL deleted it.
func restoreEvent(_ int, gone bool) string {
	if gone {
		return ""
	}
	return "restore"
}

// done replies to a RESTORE that wrote its key, after setting its idle
// time or access counter when one was given.
func (r restoreCmd) done(c *command.Ctx) {
	if r.idle >= 0 {
		c.Tx.Access().SetIdle(r.key, min(r.idle, 1<<40)*1000)
	}
	if r.freq >= 0 {
		c.Tx.Access().SetFreq(r.key, r.freq)
	}
	c.W.OK()
}
