package keys

import (
	"bytes"

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

// DUMP key: the value in Redis's serialization (codec/rdb), nil for a
// missing key. A stream carries its consumer groups, their pending
// entries and consumers.
type dumpCmd struct{ key []byte }

func parseDump(args [][]byte) (command.Runner, error) { return dumpCmd{args[1]}, nil }

func (d dumpCmd) Run(c *command.Ctx) error {
	p, ok, err := dumpPayload(c, d.key)
	if err != nil {
		return err
	}
	if !ok {
		c.W.Null()
		return nil
	}
	c.W.Bulk(p)
	return nil
}

// dumpPayload serializes key's value; ok is false for a missing key.
func dumpPayload(c *command.Ctx, key []byte) (p []byte, ok bool, err error) {
	d := dumpCmd{key}
	m, ok, err := c.Tx.Meta(d.key)
	if err != nil || !ok {
		return nil, false, err
	}
	switch m.Type {
	case codec.TypeString:
		v, _, err := c.Tx.GetString(d.key)
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpString(v)
	case codec.TypeList:
		l, err := rlist.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		vs, err := l.Values(l.Head(), l.Tail())
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpCollection(m.Type.Info().RDB, vs, nil)
	case codec.TypeSet:
		s, err := rset.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		ms, err := rset.Members(s)
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpCollection(m.Type.Info().RDB, ms, nil)
	case codec.TypeHash:
		h, err := rhash.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		var fv [][]byte
		var ttls []int64
		withTTLs := false
		err = h.Scan(nil, nil, false, 0, func(f, v []byte) (bool, error) {
			fv = append(fv, bytes.Clone(f), bytes.Clone(v))
			if h.HasFieldTTLs() {
				at, err := h.FieldTTL(f)
				withTTLs = withTTLs || at != 0
				ttls = append(ttls, at)
				return err == nil, err
			}
			return true, nil
		})
		if err != nil {
			return nil, false, err
		}
		if withTTLs {
			p = rdb.DumpHashTTL(fv, ttls)
		} else {
			p = rdb.DumpCollection(m.Type.Info().RDB, fv, nil)
		}
	case codec.TypeZSet:
		z, _, err := rzset.Open(c.Tx, d.key, false)
		if err != nil {
			return nil, false, err
		}
		es, err := z.ByRank(0, -1, true) // Redis writes the highest first
		if err != nil {
			return nil, false, err
		}
		ms, scores := make([][]byte, len(es)), make([]float64, len(es))
		for i, e := range es {
			ms[i], scores[i] = e.Member, e.Score
		}
		p = rdb.DumpCollection(m.Type.Info().RDB, ms, scores)
	case codec.TypeStream:
		if p, err = dumpStream(c, d.key); err != nil {
			return nil, false, err
		}
	case codec.TypeBloom:
		if p, err = dumpBloom(c, d.key); err != nil {
			return nil, false, err
		}
	case codec.TypeCMS:
		s, err := rcms.Open(c.Tx, d.key)
		if err != nil || s == nil {
			return nil, false, err
		}
		cells, err := s.Cells()
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpCMS(&rdb.CMS{Width: s.Width, Depth: s.Depth, Count: s.Count(), Cells: cells})
	case codec.TypeCuckoo:
		if p, err = dumpCuckoo(c, d.key); err != nil {
			return nil, false, err
		}
	case codec.TypeTopK:
		t, err := rtopk.Open(c.Tx, d.key)
		if err != nil || t == nil {
			return nil, false, err
		}
		buckets, err := t.Buckets()
		if err != nil {
			return nil, false, err
		}
		p = rdb.DumpTopK(&rdb.TopK{K: uint64(t.H.K), Width: uint64(t.H.Width), Depth: uint64(t.H.Depth), RNG: t.H.RNG,
			Decay: t.H.Decay, Buckets: buckets, Heap: t.EncodedHeap()})
	case codec.TypeTDigest:
		if p, err = dumpTDigest(c, d.key); err != nil {
			return nil, false, err
		}
	case codec.TypeJSON:
		doc, err := rjson.Open(c.Tx, d.key)
		if err != nil || doc == nil {
			return nil, false, err
		}
		p = rdb.DumpJSON([]byte(doc.Text()))
	default:
		return nil, false, rerr.ErrWrongType
	}
	return p, true, nil
}

// dumpCuckoo serializes the Cuckoo filter at key as RedisBloom does.
func dumpCuckoo(c *command.Ctx, key []byte) ([]byte, error) {
	f, err := rcuckoo.Open(c.Tx, key)
	if err != nil || f == nil {
		return nil, err
	}
	h := f.H
	out := &rdb.Cuckoo{Items: h.Items, Buckets: h.Buckets, Deletes: h.Deletes, BucketSize: uint64(h.BucketSize),
		MaxIterations: uint64(h.MaxIterations), Expansion: uint64(h.Expansion)}
	for fi := range h.Filters {
		size := f.FilterBytes(fi)
		data, err := f.Data(fi, 0, size)
		if err != nil {
			return nil, err
		}
		out.FilterBuckets, out.Data = append(out.FilterBuckets, size/uint64(h.BucketSize)), append(out.Data, data)
	}
	return rdb.DumpCuckoo(out), nil
}

// dumpBloom serializes the Bloom filter at key as RedisBloom does.
func dumpBloom(c *command.Ctx, key []byte) ([]byte, error) {
	f, err := rbloom.Open(c.Tx, key)
	if err != nil || f == nil {
		return nil, err
	}
	ch := f.Chain
	out := &rdb.Bloom{Items: ch.Items, Options: ch.Options, Expansion: ch.Expansion}
	for i, l := range ch.Links {
		bits, err := f.Bits(i)
		if err != nil {
			return nil, err
		}
		out.Links = append(out.Links, rdb.BloomLink{Capacity: l.Capacity, Error: l.Error, Hashes: l.Hashes, BPE: l.BPE,
			Bits: l.Bits, N2: l.N2, Data: bits, Items: l.Items})
	}
	return rdb.DumpBloom(out), nil
}

// dumpStream serializes the stream at key with its groups.
func dumpStream(c *command.Ctx, key []byte) ([]byte, error) {
	s, err := rstream.Open(c.Tx, key, false)
	if err != nil {
		return nil, err
	}
	es, err := s.Range(codec.StreamID{}, rstream.MaxID, false, 0)
	if err != nil {
		return nil, err
	}
	m := s.Meta()
	out := &rdb.Stream{LastID: m.LastID, MaxDeletedID: m.MaxDeletedID, EntriesAdded: m.EntriesAdded}
	for _, e := range es {
		out.Entries = append(out.Entries, rdb.StreamEntry{ID: e.ID, Fields: e.Fields})
	}
	if len(es) > 0 {
		out.FirstID = es[0].ID
	}
	groups, err := s.Groups()
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		rg := rdb.StreamGroup{Name: g.Name, LastID: g.LastDelivered, EntriesRead: g.EntriesRead}
		pending, err := s.PendingRange(g.Name, codec.StreamID{}, rstream.MaxID, 0)
		if err != nil {
			return nil, err
		}
		for _, p := range pending {
			rg.Pending = append(rg.Pending, rdb.StreamPending{ID: p.ID, DeliveredMs: p.DeliveredMs,
				Deliveries: uint64(p.Deliveries), Consumer: p.Consumer})
		}
		consumers, err := s.Consumers(g.Name)
		if err != nil {
			return nil, err
		}
		for _, cs := range consumers {
			rg.Consumers = append(rg.Consumers, rdb.StreamConsumer{Name: cs.Name, SeenMs: cs.SeenMs})
		}
		out.Groups = append(out.Groups, rg)
	}
	return rdb.DumpStream(out), nil
}

// DumpPayload is DUMP's serialization of key's value in c.Tx (ok false
// for a missing key): what an RDB file of the whole store holds per key.
func DumpPayload(c *command.Ctx, key []byte) (p []byte, ok bool, err error) {
	return dumpPayload(c, key)
}
