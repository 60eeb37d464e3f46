package repl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/command/keys"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/codec/rdb"
	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/namespaces"
)

// exportChunk is how many keys one store transaction of an export reads:
// each remembers what it looked up, so a long export uses a fresh one
// per chunk (all reading the one snapshot).
const exportChunk = 512

// Export is a store read as an RDB file: every database's keys with their
// expiries and values, and the function libraries, as of one moment.
type Export struct {
	Drv     drivers.Driver
	Markers *store.FlushMarkers
	// Aux are the file's auxiliary fields (redis-ver, repl-id...).
	Aux [][2]string
	// NoKeys and NoFunctions leave the keys or the function libraries
	// out (REPLCONF rdb-filter-only).
	NoKeys, NoFunctions bool
	// Snap, when set, is the read-only transaction to read (a snapshot
	// taken where a replica joins the stream); it is not ended here.
	Snap drivers.Txn
	// Namespaces, for a rekv replica (REPLCONF capa rekv-namespaces),
	// are the named namespaces to send too: their definitions and
	// function libraries as auxiliary fields (NamespacesAux), their
	// databases after the default namespace's, numbered across
	// namespaces. Without them the file is the default namespace's, as
	// a Redis replica loads it.
	Namespaces []namespaces.Namespace
}

// Auxiliary fields of a file for a rekv replica: the namespace
// definitions (namespaces.Encode), then each namespace's function
// libraries (a JSON list of their code) under auxFunctions + its id.
const (
	auxNamespaces = "rekv-namespaces"
	auxFunctions  = "rekv-functions:"
)

// WriteTo writes the file to w and returns its size; it reads one
// read-only driver transaction (a snapshot), so the file is consistent
// while writes go on. Keys of a type Redis 7.0 cannot load (hashes with
// field expiries) stop it with rdb.ErrTooNew.
func (x Export) WriteTo(w io.Writer) (int64, error) {
	snap := x.Snap
	if snap == nil {
		var err error
		if snap, err = x.Drv.Begin(false); err != nil {
			return 0, err
		}
		defer snap.Rollback()
	}
	drv := heldSnapshot{Driver: x.Drv, tx: snap}
	now := time.Now().UnixMilli()
	dbs := make([]int, 0, store.Databases*(1+len(x.Namespaces)))
	for db := range store.Databases {
		dbs = append(dbs, db)
	}
	if x.Namespaces != nil {
		aux, err := namespacesAux(snap, x.Namespaces)
		if err != nil {
			return 0, err
		}
		x.Aux = append(slices.Clip(x.Aux), aux...)
		for _, ns := range x.Namespaces {
			for db := range store.Databases {
				dbs = append(dbs, command.NamespaceDB(ns.ID, db))
			}
		}
	}
	begin := func(db int) (*store.Tx, error) {
		return store.Env{Drv: drv, Caches: func([]byte) *store.MetaCache { return nil }, Markers: x.Markers}.Begin(false, db, now)
	}
	f := rdb.NewFileWriter(w, x.Aux)
	tx, err := begin(0)
	if err != nil {
		return 0, err
	}
	if !x.NoFunctions {
		err = tx.Records().ScanSystem(codec.FunctionPrefix(0), func(_, code []byte) (bool, error) {
			return true, f.Function(code)
		})
	}
	tx.Rollback()
	if err != nil {
		return 0, err
	}
	for _, db := range dbs {
		if x.NoKeys {
			break
		}
		var from []byte
		for {
			tx, err := begin(db)
			if err != nil {
				return 0, err
			}
			c := &command.Ctx{Tx: tx, Now: now, DB: db}
			n := 0
			var last []byte
			err = tx.ScanMeta(from, func(key []byte, m codec.Meta) (bool, error) {
				if n == exportChunk {
					return false, nil
				}
				n++
				last = append(last[:0], key...)
				p, ok, err := keys.DumpPayload(c, key)
				if err != nil || !ok {
					return err == nil, err
				}
				if err := f.Entry(db, key, m.ExpireAt, p); err != nil {
					return false, fmt.Errorf("key %q: %w", key, err)
				}
				return true, nil
			})
			tx.Rollback()
			if err != nil {
				return 0, err
			}
			if n < exportChunk {
				break
			}
			from = append(bytes.Clone(last), 0) // the next key after the last
		}
	}
	return f.Close()
}

// heldSnapshot hands out one read-only transaction to every store
// transaction of an export, which must not end it.
type heldSnapshot struct {
	drivers.Driver
	tx drivers.Txn
}

func (h heldSnapshot) Begin(writable bool) (drivers.Txn, error) {
	if writable {
		return nil, fmt.Errorf("repl: an export only reads")
	}
	return keepOpen{h.tx}, nil
}

type keepOpen struct{ drivers.Txn }

func (keepOpen) Rollback()     {}
func (keepOpen) Commit() error { return nil }

// Aux returns the auxiliary fields a master's RDB file carries.
func Aux(version, replID string, offset int64) [][2]string {
	return [][2]string{{"redis-ver", version}, {"redis-bits", strconv.Itoa(strconv.IntSize)},
		{"ctime", strconv.FormatInt(time.Now().Unix(), 10)}, {"repl-stream-db", "0"},
		{"repl-id", replID}, {"repl-offset", strconv.FormatInt(offset, 10)}, {"aof-base", "0"}}
}

// namespacesAux returns the auxiliary fields that carry the namespaces'
// definitions and function libraries, as snap reads them.
func namespacesAux(snap drivers.Txn, all []namespaces.Namespace) ([][2]string, error) {
	out := [][2]string{{auxNamespaces, string(namespaces.Encode(all))}}
	for _, ns := range all {
		var codes []string
		p := codec.FunctionPrefix(ns.ID)
		err := snap.Iterate(p, codec.PrefixEnd(p), drivers.IterOptions{}, func(_, code []byte) (bool, error) {
			codes = append(codes, string(code))
			return true, nil
		})
		if err != nil {
			return nil, err
		}
		if len(codes) > 0 {
			b, _ := json.Marshal(codes) // strings: never fails
			out = append(out, [2]string{auxFunctions + strconv.FormatUint(uint64(ns.ID), 10), string(b)})
		}
	}
	return out, nil
}
