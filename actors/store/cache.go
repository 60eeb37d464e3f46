package store

import (
	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/rekv/rekv/codec"
)

// MetaCache is an LRU of key metadata, keyed by meta key, with the payload
// of short strings (up to MaxCachedPayload bytes) so GET of a hot key does
// not touch storage. It is owned by one shard and is not safe for
// concurrent use.
type MetaCache struct {
	lru *simplelru.LRU[string, cached]
	// edges holds, per index prefix and direction, a key no live entry of
	// that range lies before (forward) or after (reverse): scans start
	// there instead of stepping over the tombstones of popped entries.
	edges *simplelru.LRU[string, []byte]
	// clock records accesses even when the cache is disabled (nil: none).
	clock *AccessClock
}

// SetClock makes the shard record key accesses in a (OBJECT IDLETIME).
func (c *MetaCache) SetClock(a *AccessClock) { c.clock = a }

type cached struct {
	meta    codec.Meta
	exists  bool
	payload []byte // a string's value when short; never modified
	loaded  bool   // payload is the value
}

// MaxCachedPayload is the longest string value the cache keeps.
const MaxCachedPayload = 64

// withPayload returns c holding payload p when it is short enough.
func withPayload(c cached, m codec.Meta, p []byte) cached {
	if m.Type == codec.TypeString && !m.Chunked && len(p) <= MaxCachedPayload {
		c.payload, c.loaded = p, true
	}
	return c
}

// NewMetaCache returns a cache of at most size entries; size 0 returns a
// disabled cache, which remembers nothing (nodes sharing one store cannot
// trust what they remember: another node may have changed it).
func NewMetaCache(size int) *MetaCache {
	if size < 1 {
		return &MetaCache{}
	}
	lru, err := simplelru.NewLRU[string, cached](size, nil)
	if err != nil {
		panic(err) // unreachable: size is positive
	}
	edges, err := simplelru.NewLRU[string, []byte](max(size/16, 64), nil)
	if err != nil {
		panic(err) // unreachable: size is positive
	}
	return &MetaCache{lru: lru, edges: edges}
}

// Disabled reports whether the cache remembers nothing.
func (c *MetaCache) Disabled() bool { return c.lru == nil }

// Purge empties the cache.
func (c *MetaCache) Purge() {
	if c.Disabled() {
		return
	}
	c.lru.Purge()
	c.edges.Purge()
}

// Len returns the number of cached entries.
func (c *MetaCache) Len() int {
	if c.Disabled() {
		return 0
	}
	return c.lru.Len()
}

func (c *MetaCache) get(mk string) (cached, bool) { return c.lru.Get(mk) }

func (c *MetaCache) put(mk string, v cached) { c.lru.Add(mk, v) }

func (c *MetaCache) remove(mk string) { c.lru.Remove(mk) }
