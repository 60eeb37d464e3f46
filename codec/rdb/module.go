package rdb

import (
	"encoding/binary"
	"math"
	"strings"
)

// TypeModule2 is a module type's value (RDB_TYPE_MODULE_2): the module
// type's 64-bit id (its 9-character name and encoding version), then
// its data as opcode-tagged numbers and strings, to an EOF opcode.
const TypeModule2 = 7

// Module data opcodes.
const (
	modEOF    = 0
	modSInt   = 1
	modUInt   = 2
	modFloat  = 3
	modDouble = 4
	modString = 5
)

// moduleCharset is the alphabet of module type names (6 bits a char).
const moduleCharset = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// moduleID encodes a module type's name and encoding version as Redis
// does (moduleTypeEncodeId).
func moduleID(name string, encver uint64) uint64 {
	var id uint64
	for i := range 9 {
		id = id<<6 | uint64(strings.IndexByte(moduleCharset, name[i]))
	}
	return id<<10 | encver&1023
}

// Bloom is RedisBloom's Bloom filter ("MBbloom--", encoding version 4):
// its item count, options, expansion and sub-filters.
type Bloom struct {
	Items     uint64
	Options   uint32
	Expansion uint32
	Links     []BloomLink
}

// BloomLink is one sub-filter with its bits.
type BloomLink struct {
	Capacity uint64
	Error    float64
	Hashes   uint32
	BPE      float64
	Bits     uint64
	N2       uint8
	Data     []byte
	Items    uint64
}

// CMS is RedisBloom's count-min sketch ("CMSk-TYPE", encoding version
// 0): its dimensions, total, and counters (little-endian uint32s, row
// after row).
type CMS struct {
	Width, Depth, Count uint64
	Cells               []byte
}

// Cuckoo is RedisBloom's Cuckoo filter ("MBbloomCF", encoding version
// 4): its counts and parameters, and each sub-filter's buckets.
type Cuckoo struct {
	Items, Buckets, Deletes              uint64
	BucketSize, MaxIterations, Expansion uint64
	FilterBuckets                        []uint64
	Data                                 [][]byte
}

// cuckooName and cuckooEncVer identify RedisBloom's Cuckoo filter type.
const (
	cuckooName   = "MBbloomCF"
	cuckooEncVer = 4
)

// DumpCuckoo returns the DUMP payload of a Cuckoo filter, as RedisBloom
// saves one (CFRdbSave).
func DumpCuckoo(c *Cuckoo) []byte {
	body := appendLen([]byte{TypeModule2}, moduleID(cuckooName, cuckooEncVer))
	for _, n := range []uint64{uint64(len(c.Data)), c.Buckets, c.Items, c.Deletes, c.BucketSize, c.MaxIterations, c.Expansion} {
		body = appendLen(append(body, modUInt), n)
	}
	for i, d := range c.Data {
		body = appendLen(append(body, modUInt), c.FilterBuckets[i])
		body = append(appendLen(append(body, modString), uint64(len(d))), d...)
	}
	return Seal(append(body, modEOF))
}

// cuckoo reads a Cuckoo filter's data.
func (r *reader) cuckoo(encver uint64) (*Cuckoo, error) {
	if encver != cuckooEncVer {
		return nil, ErrFormat
	}
	var vals [7]uint64
	var err error
	for i := range vals {
		if vals[i], err = r.num(modUInt); err != nil {
			return nil, err
		}
	}
	if vals[0] == 0 || vals[0] > 64 || vals[4] == 0 || vals[4] > 255 {
		return nil, ErrFormat
	}
	c := &Cuckoo{Buckets: vals[1], Items: vals[2], Deletes: vals[3], BucketSize: vals[4], MaxIterations: vals[5], Expansion: vals[6]}
	for range vals[0] {
		n, err := r.num(modUInt)
		if err != nil {
			return nil, err
		}
		if b, err := r.byte(); err != nil || b != modString {
			return nil, ErrFormat
		}
		d, err := r.str()
		if err != nil || n == 0 || uint64(len(d))/c.BucketSize != n || uint64(len(d))%c.BucketSize != 0 {
			return nil, ErrFormat
		}
		c.FilterBuckets, c.Data = append(c.FilterBuckets, n), append(c.Data, d)
	}
	if b, err := r.byte(); err != nil || b != modEOF {
		return nil, ErrFormat
	}
	return c, nil
}

// TopK is a Top-K in rekv's own encoding of RedisBloom's "TopK-TYPE"
// (encoding version 1000, which Redis refuses: RedisBloom saves its heap
// as raw C structures): parameters, generator state, buckets
// (fingerprint and count, little-endian uint32s) and heap (rtopk's
// encoding).
type TopK struct {
	K, Width, Depth, RNG uint64
	Decay                float64
	Buckets, Heap        []byte
}

const (
	topkName   = "TopK-TYPE"
	topkEncVer = 1000
)

// DumpTopK returns the DUMP payload of a Top-K.
func DumpTopK(t *TopK) []byte {
	body := appendLen([]byte{TypeModule2}, moduleID(topkName, topkEncVer))
	for _, n := range []uint64{t.K, t.Width, t.Depth, t.RNG} {
		body = appendLen(append(body, modUInt), n)
	}
	body = binary.LittleEndian.AppendUint64(append(body, modDouble), math.Float64bits(t.Decay))
	for _, b := range [][]byte{t.Buckets, t.Heap} {
		body = append(appendLen(append(body, modString), uint64(len(b))), b...)
	}
	return Seal(append(body, modEOF))
}

func (r *reader) topk(encver uint64) (*TopK, error) {
	if encver != topkEncVer {
		return nil, ErrFormat
	}
	t := &TopK{}
	var err error
	for _, p := range []*uint64{&t.K, &t.Width, &t.Depth, &t.RNG} {
		if *p, err = r.num(modUInt); err != nil {
			return nil, err
		}
	}
	d, err := r.num(modDouble)
	if err != nil {
		return nil, err
	}
	t.Decay = math.Float64frombits(d)
	for _, p := range []*[]byte{&t.Buckets, &t.Heap} {
		if b, err := r.byte(); err != nil || b != modString {
			return nil, ErrFormat
		}
		if *p, err = r.str(); err != nil {
			return nil, ErrFormat
		}
	}
	if b, err := r.byte(); err != nil || b != modEOF {
		return nil, ErrFormat
	}
	return t, nil
}

// TDigest is RedisBloom's t-digest ("TDIS-TYPE", encoding version 0),
// as its RDB save writes one: compressed, so every node is merged.
type TDigest struct {
	Compression, Min, Max        float64
	Cap, Merged, Unmerged        int64
	Compressions                 int64
	MergedWeight, UnmergedWeight float64
	Means, Weights               []float64
}

const (
	tdigestName   = "TDIS-TYPE"
	tdigestEncVer = 0
)

// DumpTDigest returns the DUMP payload of a t-digest, as RedisBloom
// saves one (TDigestRdbSave).
func DumpTDigest(t *TDigest) []byte {
	body := appendLen([]byte{TypeModule2}, moduleID(tdigestName, tdigestEncVer))
	double := func(f float64) {
		body = binary.LittleEndian.AppendUint64(append(body, modDouble), math.Float64bits(f))
	}
	double(t.Compression)
	double(t.Min)
	double(t.Max)
	for _, n := range []int64{t.Cap, t.Merged, t.Unmerged, t.Compressions} {
		body = appendLen(append(body, modSInt), uint64(n))
	}
	double(t.MergedWeight)
	double(t.UnmergedWeight)
	for _, f := range t.Means {
		double(f)
	}
	for _, f := range t.Weights {
		double(f)
	}
	return Seal(append(body, modEOF))
}

func (r *reader) tdigest(encver uint64) (*TDigest, error) {
	if encver != tdigestEncVer {
		return nil, ErrFormat
	}
	t := &TDigest{}
	double := func(p *float64) error {
		b, err := r.num(modDouble)
		*p = math.Float64frombits(b)
		return err
	}
	for _, p := range []*float64{&t.Compression, &t.Min, &t.Max} {
		if err := double(p); err != nil {
			return nil, err
		}
	}
	for _, p := range []*int64{&t.Cap, &t.Merged, &t.Unmerged, &t.Compressions} {
		n, err := r.num(modSInt)
		if err != nil {
			return nil, err
		}
		*p = int64(n)
	}
	for _, p := range []*float64{&t.MergedWeight, &t.UnmergedWeight} {
		if err := double(p); err != nil {
			return nil, err
		}
	}
	// Each node takes 18 bytes (two tagged doubles): a count the payload
	// cannot hold is refused before anything is allocated.
	if t.Merged < 0 || t.Merged > t.Cap || t.Merged > int64(len(r.b)/18) {
		return nil, ErrFormat
	}
	t.Means, t.Weights = make([]float64, t.Merged), make([]float64, t.Merged)
	for _, arr := range [][]float64{t.Means, t.Weights} {
		for i := range arr {
			if err := double(&arr[i]); err != nil {
				return nil, err
			}
		}
	}
	if b, err := r.byte(); err != nil || b != modEOF {
		return nil, ErrFormat
	}
	return t, nil
}

const (
	jsonName   = "ReJSON-RL"
	jsonEncVer = 3
)

// DumpJSON returns the DUMP payload of a JSON document, as RedisJSON
// saves one (encoding version 3: its JSON text).
func DumpJSON(text []byte) []byte {
	body := appendLen([]byte{TypeModule2}, moduleID(jsonName, jsonEncVer))
	body = append(appendLen(append(body, modString), uint64(len(text))), text...)
	return Seal(append(body, modEOF))
}

// json reads a JSON document's text: encoding version 3, or 2 (the text
// then RedisJSON's former search fields).
func (r *reader) json(encver uint64) ([]byte, error) {
	if encver != 2 && encver != 3 {
		return nil, ErrFormat
	}
	if b, err := r.byte(); err != nil || b != modString {
		return nil, ErrFormat
	}
	text, err := r.str()
	if err != nil {
		return nil, ErrFormat
	}
	if encver == 2 {
		n, err := r.num(modUInt)
		if err != nil {
			return nil, err
		}
		for range min(n, 1) * 2 {
			if b, err := r.byte(); err != nil || b != modString {
				return nil, ErrFormat
			}
			if _, err := r.str(); err != nil {
				return nil, ErrFormat
			}
		}
	}
	if b, err := r.byte(); err != nil || b != modEOF {
		return nil, ErrFormat
	}
	if text == nil {
		text = []byte{}
	}
	return text, nil
}

// cmsName and cmsEncVer identify RedisBloom's sketch type.
const (
	cmsName   = "CMSk-TYPE"
	cmsEncVer = 0
)

// DumpCMS returns the DUMP payload of a count-min sketch, as RedisBloom
// saves one (CMSRdbSave).
func DumpCMS(c *CMS) []byte {
	body := appendLen([]byte{TypeModule2}, moduleID(cmsName, cmsEncVer))
	for _, n := range []uint64{c.Width, c.Depth, c.Count} {
		body = appendLen(append(body, modUInt), n)
	}
	body = append(appendLen(append(body, modString), uint64(len(c.Cells))), c.Cells...)
	return Seal(append(body, modEOF))
}

// bloomName and bloomEncVer identify RedisBloom's filter type.
const (
	bloomName   = "MBbloom--"
	bloomEncVer = 4
)

// DumpBloom returns the DUMP payload of a Bloom filter, as RedisBloom
// saves one (BFRdbSave), so Redis 8 restores it.
func DumpBloom(b *Bloom) []byte {
	body := appendLen([]byte{TypeModule2}, moduleID(bloomName, bloomEncVer))
	putUint := func(n uint64) { body = appendLen(append(body, modUInt), n) }
	double := func(f float64) {
		body = binary.LittleEndian.AppendUint64(append(body, modDouble), math.Float64bits(f))
	}
	putUint(b.Items)
	putUint(uint64(len(b.Links)))
	putUint(uint64(b.Options))
	putUint(uint64(b.Expansion))
	for _, l := range b.Links {
		putUint(l.Capacity)
		double(l.Error)
		putUint(uint64(l.Hashes))
		double(l.BPE)
		putUint(l.Bits)
		putUint(uint64(l.N2))
		body = append(appendLen(append(body, modString), uint64(len(l.Data))), l.Data...)
		putUint(l.Items)
	}
	return Seal(append(body, modEOF))
}

// module reads a module value into v: a Bloom filter (encoding versions
// 2 to 4), a count-min sketch or a Cuckoo filter; any other module type
// is ErrModule.
func (r *reader) module(v *Value) error {
	id, special, err := r.length()
	if err != nil || special {
		return ErrFormat
	}
	switch id >> 10 {
	case moduleID(bloomName, 0) >> 10:
		v.Bloom, err = r.bloom(id & 1023)
	case moduleID(cmsName, 0) >> 10:
		v.CMS, err = r.cms(id & 1023)
	case moduleID(cuckooName, 0) >> 10:
		v.Cuckoo, err = r.cuckoo(id & 1023)
	case moduleID(topkName, 0) >> 10:
		v.TopK, err = r.topk(id & 1023)
	case moduleID(tdigestName, 0) >> 10:
		v.TDigest, err = r.tdigest(id & 1023)
	case moduleID(jsonName, 0) >> 10:
		v.JSON, err = r.json(id & 1023)
	default:
		return ErrModule
	}
	return err
}

// num reads a module number tagged op (modUInt or modDouble, whose bits
// it returns).
func (r *reader) num(op byte) (uint64, error) {
	c, err := r.byte()
	if err != nil || c != op {
		return 0, ErrFormat
	}
	if op == modDouble {
		b, err := r.take(8)
		if err != nil {
			return 0, err
		}
		return binary.LittleEndian.Uint64(b), nil
	}
	n, special, err := r.length()
	if err != nil || special {
		return 0, ErrFormat
	}
	return n, nil
}

// cms reads a count-min sketch's data.
func (r *reader) cms(encver uint64) (*CMS, error) {
	if encver != cmsEncVer {
		return nil, ErrFormat
	}
	c := &CMS{}
	var err error
	for _, p := range []*uint64{&c.Width, &c.Depth, &c.Count} {
		if *p, err = r.num(modUInt); err != nil {
			return nil, err
		}
	}
	if b, err := r.byte(); err != nil || b != modString {
		return nil, ErrFormat
	}
	if c.Cells, err = r.str(); err != nil {
		return nil, ErrFormat
	}
	if c.Width == 0 || c.Depth == 0 || c.Width > uint64(len(c.Cells)) || c.Width*c.Depth*4 != uint64(len(c.Cells)) {
		return nil, ErrFormat
	}
	if b, err := r.byte(); err != nil || b != modEOF {
		return nil, ErrFormat
	}
	return c, nil
}

// bloom reads a Bloom filter's data.
func (r *reader) bloom(encver uint64) (*Bloom, error) {
	if encver < 2 || encver > bloomEncVer {
		return nil, ErrFormat
	}
	var err error
	num := r.num
	var vals [4]uint64
	for i := range vals {
		if i == 3 && encver < 4 {
			vals[3] = 2 // filters saved before the expansion was kept grew by 2
			continue
		}
		if vals[i], err = num(modUInt); err != nil {
			return nil, err
		}
	}
	if vals[1] == 0 || vals[1] > 1000 || vals[2] > math.MaxUint32 || vals[3] > math.MaxUint32 {
		return nil, ErrFormat
	}
	b := &Bloom{Items: vals[0], Options: uint32(vals[2]), Expansion: uint32(vals[3])}
	for range vals[1] {
		var l BloomLink
		var f [8]uint64
		for i, op := range []byte{modUInt, modDouble, modUInt, modDouble, modUInt, modUInt} {
			if f[i], err = num(op); err != nil {
				return nil, err
			}
		}
		if f[2] > math.MaxUint32 || f[5] > 63 {
			return nil, ErrFormat
		}
		l.Capacity, l.Error, l.Hashes, l.BPE, l.Bits, l.N2 = f[0], math.Float64frombits(f[1]), uint32(f[2]),
			math.Float64frombits(f[3]), f[4], uint8(f[5])
		if c, err := r.byte(); err != nil || c != modString {
			return nil, ErrFormat
		}
		if l.Data, err = r.str(); err != nil {
			return nil, ErrFormat
		}
		if l.Items, err = num(modUInt); err != nil {
			return nil, err
		}
		b.Links = append(b.Links, l)
	}
	if c, err := r.byte(); err != nil || c != modEOF {
		return nil, ErrFormat
	}
	return b, nil
}
