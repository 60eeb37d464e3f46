// Package codec defines the byte layout of Redis data on an ordered key-value
// store. It is a file format: everything here is a pure function over bytes,
// with no I/O, and the layout may only grow, never change meaning.
//
// All integers are big-endian so that byte order equals numeric order. The
// first byte of every stored key is a prefix naming its family. "slot" is
// where a logical database's keys are stored (Slot, slot.go): 1 to 4
// bytes, ordered and prefix-free; slots 0-127 are the single byte every
// release wrote before slots were widened, so data written then reads
// unchanged. A database's record ('s' "flush" db, db encoded as a slot)
// names its slot, so FLUSHDB and SWAPDB move no key:
//
//	meta key     'm' | slot | userkey
//	meta value   flags (1) | expireAt ms (8, 0 = none) | version (8)
//	             | size (8, collections only)
//	             | head (8) | tail (8)            (lists only)
//	             | last ID (16) | max deleted ID (16) | entries added (8)
//	             [| tail node: first ID (16) | last ID (16) | live (8)
//	             | deleted (8) | bytes (8) | fields (8) | fields hash (8)]
//	                                              (streams only; IDs ms|seq;
//	                                              no tail node: none, or a
//	                                              stream written before
//	                                              nodes were kept)
//	             | payload                        (inline strings)
//	             | field TTL (8)                  (hashes with field TTLs,
//	                                              encoding 1: at or before
//	                                              the earliest field expiry)
//	             | length (8)                     (chunked strings)
//	             flags = encoding << 4 | type; encoding 0, or 1 for
//	             a string longer than StringInlineMax stored in chunks
//	             or a hash whose fields may carry TTLs; bit 2 marks
//	             an inline string modified in place (reported raw) or a
//	             set, hash or sorted set Redis would have converted
//	             (reported hashtable, skiplist): EncodingConverted
//	list element sub-key field list index (8) -> element (ListField; the
//	             meta's head and tail bound the live indexes)
//	chunk        sub-key field chunk index (8) -> StringChunk bytes (the
//	             last may be shorter; a missing chunk reads as zeros)
//	sub-key      'd' | slot | len(userkey) (4) | userkey | version (8) | field
//	stream entry sub-key field 0 | ms (8) | seq (8) -> count (4)
//	             | (len (4) | field or value)...; fields with tags 1-4 hold
//	             consumer groups: 1 group, 2 consumer, 3 pending entry,
//	             4 per-consumer pending index (rstream/groups.go); tag 5
//	             | first ID (16) -> live (8) | deleted (8) | last ID (16)
//	             is a closed node of Redis's radix tree (StreamNode)
//	zset score   'z' | slot | len(userkey) (4) | userkey | version (8)
//	             | sortable score (8) | member     -> ""
//	field TTLs   a hash version's score range holds its fields' TTLs:
//	             'z' ... version | 0 | field -> expireAt (8), and
//	             'z' ... version | 1 | expireAt (8) | field -> "" (by time)
//	ttl index    't' | expireAt (8) | slot | userkey -> version (8)
//	hash ttls    'f' | field TTL (8) | slot | userkey -> "" (one per hash
//	             with field TTLs, at its meta's field TTL; stale ones are
//	             dropped by the GC)
//	garbage      'g' | slot | len(userkey) (4) | userkey | version (8) -> ""
//	write stamp  'w' | slot | userkey          -> random (8), shared stores only
//	system       's' | name                      (bookkeeping: version high-water
//	                                               mark; 's' "flush" db -> flush
//	                                               marker (8) | slot, the
//	                                               db's record;
//	                                               's' "gclease" -> until ms (8)
//	                                               | owner, the GC lease;
//	                                               's' "fn" 0 name -> code of
//	                                               a function library
//	                                               ('s' "fn" 1 ns (4) name:
//	                                               namespace ns's);
//	                                               's' "fnv" [ns (4)] ->
//	                                               version (8), changed with
//	                                               every library change;
//	                                               's' "ns" 0 name -> a
//	                                               namespace's id | token;
//	                                               's' "clm" 0 id -> a cluster
//	                                               node's member record;
//	                                               's' "clmap" -> the slot
//	                                               map, package cluster)
//
// Invariants:
//   - Type IDs are stable forever: string 1, hash 2, list 3, set 4, zset 5,
//     stream 6.
//   - A meta key is the only record that makes a Redis key exist. Sub-keys and
//     score entries are addressed through the live version held in the meta
//     value, so a dead version's sub-keys are invisible even before the GC
//     reclaims them.
//   - A version is unique per key incarnation and never reused. A chunked
//     string never takes over an inline string's version (growing past
//     StringInlineMax moves it to a fresh one), and replacing a chunked
//     string leaves its version to the GC, like a collection.
//   - Meta keys of one db are contiguous and ordered by user key, which is what
//     SCAN and KEYS walk.
//   - A meta whose version is below its db's flush marker is dead: FLUSHDB
//     writes only the marker, and the GC reclaims the dead records.
//   - Sortable scores: IEEE-754 bits; if negative flip all bits, else flip the
//     sign bit. NaN has no encoding.
//
// Big writes. One command is one storage transaction, whatever its size
// (HSET of a million fields, MSET of 100,000 keys, SET of 512 MiB): all of
// it is applied or none, even across a crash. The layout needs nothing
// for it; the drivers provide it. TiKV's transactions are bounded only by
// storage.tikv.max_txn_mib. Badger's hold about 24,000 small writes (a
// share of one memtable); past that, the driver keeps a transaction's
// further writes in memory and commits them through a journal under its
// own system keys ('s' 0 'j' ...): the journal is written first, the
// transaction itself then commits with the journal's marker (conflicts
// checked as always), and the journal is applied and deleted while no
// other transaction begins or commits; a marked journal left by a crash is
// applied when the store opens, an unmarked one deleted
// (drivers/badger/big.go).
package codec
