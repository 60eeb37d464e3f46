package store

import (
	"bytes"
	"strings"
	"testing"
	"unsafe"
)

// TestOwnMetaKey: the meta key a write hands the driver has mk's bytes,
// in the transaction's own blocks (not the cache's string) when it fits
// them, in every database and for keys either side of the blocks' limit;
// an mk of another length is handed over as it is.
func TestOwnMetaKey(t *testing.T) {
	d, c, env := cachedEnv(t, 100)
	long := strings.Repeat("k", metaBlockSize/4)
	for _, db := range []int{0, 1, 15} {
		for _, key := range []string{"a", "key:000000012345", long[:metaBlockSize/4-8], long} {
			update(t, env, db, func(tx *Tx) error { return tx.SetString([]byte(key), []byte("v"), 0) })
			tx := begin(t, d, c)
			tx.Use(db)
			mk, r, err := tx.raw([]byte(key), false)
			if err != nil || !r.exists {
				t.Fatalf("db %d key of %d bytes: look-up: %v, exists %v", db, len(key), err, r.exists)
			}
			got := tx.ownMetaKey([]byte(key), mk)
			if !bytes.Equal(got, []byte(mk)) {
				t.Fatalf("db %d key of %d bytes: own meta key %q, want %q", db, len(key), got, mk)
			}
			own := unsafe.SliceData(got) != unsafe.StringData(mk)
			if wantOwn := len(mk) <= tx.metas.Own; own != wantOwn {
				t.Fatalf("db %d key of %d bytes (meta key %d, blocks take %d): a copy of its own %v, want %v", db, len(key), len(mk), tx.metas.Own, own, wantOwn)
			}
			if other := tx.ownMetaKey([]byte(key+"x"), mk); unsafe.SliceData(other) != unsafe.StringData(mk) {
				t.Fatalf("db %d: a key that does not encode to mk's length got a copy %q", db, other)
			}
			tx.Rollback()
		}
	}
}
