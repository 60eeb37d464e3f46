package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/codec/rdb"
	"github.com/rekv/rekv/namespaces"
	"github.com/rekv/rekv/resp"
)

// fullSync receives the master's RDB file into the data directory, then
// replaces every database with its contents.
func (r *Replica) fullSync(ctx context.Context, l *link, a *applier, ps psyncReply) error {
	t0 := time.Now()
	r.update(func(st *command.ReplStatus) {
		st.State, st.Syncing, st.SyncTotal, st.SyncRead, st.LastIO = "sync", true, -1, 0, time.Now()
	})
	f, err := os.CreateTemp(r.o.Dir, "rekv-sync-*.rdb")
	if err != nil {
		return fmt.Errorf("replication: cannot create the sync file: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	size, err := l.receive(f, func(total, read int64) {
		r.update(func(st *command.ReplStatus) { st.SyncTotal, st.SyncRead, st.LastIO = total, read, time.Now() })
	})
	if err != nil {
		return fmt.Errorf("replication: receiving the RDB file: %w", err)
	}
	received := time.Since(t0)
	r.update(func(st *command.ReplStatus) { st.Loading = true })
	keys, err := r.load(ctx, f, size, a)
	r.update(func(st *command.ReplStatus) { st.Loading = false })
	if err != nil {
		return err
	}
	r.offset.Store(ps.offset)
	r.read.Store(ps.offset)
	r.update(func(st *command.ReplStatus) { st.ReplID, st.ReplID2, st.SecondOffset = ps.replID, zeroID, -1 })
	r.mu.Lock()
	r.synced = true
	r.mu.Unlock()
	took := time.Since(t0)
	r.o.Log.Info("replication: MASTER <-> REPLICA sync finished", "bytes", size, "keys", keys,
		"transfer", received.Round(time.Millisecond), "total", took.Round(time.Millisecond),
		"keys_per_s", int64(float64(keys)/max(took.Seconds(), 1e-3)))
	return nil
}

// load maps the received file and replaces every database with it; it
// returns the keys loaded.
func (r *Replica) load(ctx context.Context, f *os.File, size int64, a *applier) (int, error) {
	if size == 0 {
		return 0, fmt.Errorf("replication: the master sent an empty RDB file")
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return 0, fmt.Errorf("replication: cannot map %s: %w", filepath.Base(f.Name()), err)
	}
	defer func() { _ = syscall.Munmap(b) }()
	if err := a.run(0, []byte("FLUSHALL")); err != nil {
		return 0, err
	}
	if a.spaces != nil { // every namespace's data goes too
		for _, ns := range a.spaces.All() {
			if err := a.run(command.NamespaceDB(ns.ID, 0), []byte("FLUSHALL")); err != nil {
				return 0, err
			}
		}
	}
	keys := 0
	_, err = rdb.ReadFile(b, rdb.FileHandler{
		Aux: func(k, v []byte) error { return a.loadAux(string(k), v) },
		Entry: func(e rdb.Entry) error {
			if err := ctx.Err(); err != nil {
				return err // REPLICAOF changed: stop loading
			}
			keys++
			payload := rdb.Seal(append([]byte{e.Type}, e.Payload...))
			return a.run(e.DB, []byte("RESTORE"), append([]byte(nil), e.Key...), command.Itoa(e.ExpireAt), payload,
				[]byte("REPLACE"), []byte("ABSTTL"))
		},
		Function: func(code []byte) error {
			return a.run(0, []byte("FUNCTION"), []byte("LOAD"), []byte("REPLACE"), append([]byte(nil), code...))
		},
	})
	a.wait() // every key restored before the file goes
	if err != nil {
		return keys, fmt.Errorf("replication: loading the master's RDB file: %w", err)
	}
	return keys, nil
}

// loadAux takes a rekv master's namespaces from its file's auxiliary
// fields (export.go): their definitions, which replace this node's, and
// their function libraries. Other fields are the file's own.
func (a *applier) loadAux(k string, v []byte) error {
	switch {
	case k == auxNamespaces:
		if a.spaces == nil {
			return nil
		}
		defs, err := namespaces.Decode(v)
		if err != nil {
			return err
		}
		if _, err := a.spaces.Replace(defs); err != nil {
			return err
		}
		for _, ns := range defs { // data this node held under their ids
			if err := a.run(command.NamespaceDB(ns.ID, 0), []byte("FLUSHALL")); err != nil {
				return err
			}
		}
	case strings.HasPrefix(k, auxFunctions):
		id, err := strconv.ParseUint(k[len(auxFunctions):], 10, 32)
		var codes []string
		if err == nil {
			err = json.Unmarshal(v, &codes)
		}
		if err != nil || id == 0 {
			return fmt.Errorf("replication: auxiliary field %s: %w", k, rdb.ErrFormat)
		}
		for _, code := range codes {
			if err := a.run(command.NamespaceDB(uint32(id), 0), []byte("FUNCTION"), []byte("LOAD"), []byte("REPLACE"), []byte(code)); err != nil {
				return err
			}
		}
	}
	return nil
}

// parse parses one command of the stream.
func parse(buf []byte, scratch [][]byte) (resp.Result, error) {
	return resp.Parse(buf, resp.DefaultLimits(), scratch)
}

// compact moves the unparsed bytes of buf to the front of a buffer with
// room for a read: buf's own when it has some, else one twice as big.
func compact(buf []byte) []byte {
	if cap(buf)-len(buf) >= 16<<10 {
		return buf
	}
	size := max(64<<10, 2*len(buf))
	if len(buf) < cap(buf)/2 {
		size = cap(buf)
	}
	nb := make([]byte, len(buf), size)
	copy(nb, buf)
	return nb
}
