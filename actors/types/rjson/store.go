package rjson

import (
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
)

// MaxText bounds a document's compact text. A document lives parsed in
// memory while a command runs, at about 18 times its text (a 21 MB
// array of small objects allocates 386 MB to parse); a 512 MiB one
// would take the process down, so rekv refuses documents over this
// (RedisJSON has no such bound: its documents live parsed in memory).
const MaxText = 32 << 20

// ErrTooLarge is a document whose text would pass MaxText.
var ErrTooLarge = rerr.Errorf("ERR JSON document too large (over %d MiB)", MaxText>>20)

// Doc is a JSON document key open in a transaction: Root is its parsed
// value, changed in place by commands and written back by Save.
type Doc struct {
	c       *store.Coll
	Root    *Value
	text    string // the stored text, to write only changed chunks
	pending string // Check's encoding of Root, for Save
}

// Open returns key's document: nil if missing, WRONGTYPE if another
// type.
func Open(tx *store.Tx, key []byte) (*Doc, error) {
	c, err := tx.Open(key, codec.TypeJSON, false)
	if err != nil || c == nil {
		return nil, err
	}
	size := c.Size()
	buf := make([]byte, 0, size)
	n := uint64((size + codec.JSONChunk - 1) / codec.JSONChunk)
	// Point reads, chunk by chunk: a scan would step over every stored
	// version of chunks rewritten often, until the storage compacts.
	for i := range n {
		v, _, err := c.Get(codec.JSONChunkField(i))
		if err != nil {
			return nil, err
		}
		buf = append(buf, v...)
	}
	if int64(len(buf)) != size {
		return nil, codec.ErrCorrupt
	}
	text := string(buf)
	root, err := ParseStored(text)
	if err != nil {
		return nil, codec.ErrCorrupt
	}
	return &Doc{c: c, Root: root, text: text}, nil
}

// storedDepth bounds a restored document's nesting: RedisJSON loads its
// RDB values without serde's limit, so a dump may nest past MaxDepth,
// but not so deep that walking it would exhaust a goroutine's stack.
const storedDepth = 1024

// ParseStored parses a stored or restored document (nested at most
// storedDepth levels).
func ParseStored(s string) (*Value, error) {
	p := &parser{s: s, depth: storedDepth}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.s) {
		return nil, codec.ErrCorrupt
	}
	return v, nil
}

// Create makes key a document holding v (the key must not exist).
func Create(tx *store.Tx, key []byte, v *Value) (*Doc, error) {
	d, err := New(tx, key, v)
	if err != nil {
		return nil, err
	}
	return d, d.Save()
}

// New returns a document for key holding v, written by its first Save
// (the key must not exist).
func New(tx *store.Tx, key []byte, v *Value) (*Doc, error) {
	c, err := tx.Open(key, codec.TypeJSON, true)
	if err != nil {
		return nil, err
	}
	return &Doc{c: c, Root: v}, nil
}

// Check encodes Root and refuses it (ErrTooLarge) before anything is
// written, for commands that save several documents all or nothing.
func (d *Doc) Check() error {
	if Depth(d.Root) > MaxDepth {
		return ErrTooDeep
	}
	d.pending = Marshal(d.Root)
	if len(d.pending) > MaxText {
		return ErrTooLarge
	}
	return nil
}

// ErrTooDeep is a document an edit would nest deeper than MaxDepth
// (RedisJSON's text for it).
var ErrTooDeep = rerr.Errorf("ERR recursion limit exceeded")

// Depth is how deeply v's arrays and objects nest (0 for a scalar).
func Depth(v *Value) int {
	d := 0
	switch v.Kind {
	case Array:
		for _, e := range v.A {
			d = max(d, Depth(e))
		}
		return d + 1
	case Object:
		for _, e := range v.O.Vals {
			d = max(d, Depth(e))
		}
		return d + 1
	}
	return 0
}

// Save writes Root: the chunks whose bytes changed, the size, and
// removes chunks past the new end.
func (d *Doc) Save() error {
	if d.pending == "" {
		if err := d.Check(); err != nil {
			return err
		}
	}
	text := d.pending
	d.pending = ""
	oldN := (len(d.text) + codec.JSONChunk - 1) / codec.JSONChunk
	newN := (len(text) + codec.JSONChunk - 1) / codec.JSONChunk
	for i := 0; i < newN; i++ {
		from, to := i*codec.JSONChunk, min((i+1)*codec.JSONChunk, len(text))
		if i < oldN && d.text[from:min((i+1)*codec.JSONChunk, len(d.text))] == text[from:to] {
			continue // unchanged
		}
		if err := d.c.Put(codec.JSONChunkField(uint64(i)), []byte(text[from:to])); err != nil {
			return err
		}
	}
	for i := newN; i < oldN; i++ {
		if err := d.c.Remove(codec.JSONChunkField(uint64(i))); err != nil {
			return err
		}
	}
	// A new document's size is 0 and its text at least one byte: its
	// first save always writes the meta.
	if delta := int64(len(text)) - d.c.Size(); delta != 0 {
		if err := d.c.Grow(delta); err != nil {
			return err
		}
	}
	d.text = text
	return nil
}

// Text is the document's stored compact text (DUMP).
func (d *Doc) Text() string { return d.text }
