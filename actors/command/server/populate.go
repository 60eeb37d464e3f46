package server

import (
	"strconv"
	"sync"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/guard"
	"github.com/rekv/rekv/resp"
)

// DEBUG POPULATE count [prefix [size]]: creates the string keys
// prefix:0 ... prefix:count-1 (prefix "key") in the client's database,
// each holding "value:<n>", or with a size that text cut or padded with
// zero bytes to size bytes, and skips those that exist, as Redis's does
// (no keyspace event; WATCH and client-side caching see the writes).
// Redis writes them all at once; rekv writes them shard by shard in
// chunks a storage transaction can hold (100,000 keys of 1,000 bytes is
// 100 MB), so other clients' commands run between chunks. Each key is
// replicated as a SET, so a replica holds what its master holds. The
// connection waits for the reply, once every key is written.
type populate struct {
	n      int64
	prefix string
	size   int64
}

// populateChunk bounds the keys, and bytes, one chunk writes.
const (
	populateChunkKeys  = 512
	populateChunkBytes = 1 << 20
)

func parsePopulate(args [][]byte) (populate, error) {
	errRange := rerr.Errorf("ERR value is out of range, must be positive")
	p := populate{prefix: "key"}
	n, err := strconv.ParseInt(string(args[2]), 10, 64)
	if err != nil || n < 0 {
		return p, errRange
	}
	p.n = n
	if len(args) >= 4 {
		p.prefix = string(args[3])
	}
	if len(args) == 5 {
		if p.size, err = strconv.ParseInt(string(args[4]), 10, 64); err != nil || p.size < 0 {
			return p, errRange
		}
		if p.size > command.MaxStringLen {
			return p, rerr.ErrStringTooLong
		}
	}
	return p, nil
}

// key returns the name of key j: Redis formats it into 128 bytes, so a
// long prefix is cut to 127 bytes in all.
func (p populate) key(j int64) []byte {
	k := strconv.AppendInt([]byte(p.prefix+":"), j, 10)
	return k[:min(len(k), 127)]
}

// value returns the value of key j.
func (p populate) value(j int64) []byte {
	v := strconv.AppendInt([]byte("value:"), j, 10)
	if p.size == 0 {
		return v
	}
	out := make([]byte, p.size)
	copy(out, v)
	return out
}

func (p populate) run(c *command.Ctx) error {
	if c.Tx != nil {
		// Queued in MULTI: EXEC holds only its own shards.
		return rerr.Errorf("ERR DEBUG POPULATE is not allowed in a transaction")
	}
	reply, proto, node, log, db := c.Client.Session.ReplyLater(), c.W.Proto(), c.Server.Node, c.Log, c.DB
	c.Client.Session.AfterEarlier(func() { // the client's earlier writes first (FLUSHDB; POPULATE)
		go func() {
			w := resp.NewWriter(proto)
			defer func() {
				if x := recover(); x != nil {
					guard.Guard{Log: log}.Report(x, "command panicked", "cmd", "debug")
					w.Reset(proto)
					command.Reply(w, guard.ErrPanic, "debug", log)
				}
				reply(w.Bytes())
			}()
			if err := p.write(node, db); err != nil {
				command.Reply(w, err, "debug", log)
				return
			}
			w.OK()
		}()
	})
	return command.ErrReplyLater
}

// write writes the keys, one goroutine per shard, each running chunks of
// its shard's keys in order; it returns the first error.
func (p populate) write(node command.Node, db int) error {
	shards := node.Shards()
	per := populateChunkKeys
	if p.size > 0 {
		per = int(max(1, min(int64(per), populateChunkBytes/p.size)))
	}
	// The chunks' command: a write with no keyspace event.
	spec := &command.Spec{Name: "debug", Flags: command.Write}
	var wg sync.WaitGroup
	errs := make([]error, shards)
	for s := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			chunk := &populateRun{p: p}
			flush := func() error {
				if len(chunk.js) == 0 {
					return nil
				}
				err := node.Exec(s, db, spec, chunk)
				chunk = &populateRun{p: p}
				return err
			}
			for j := int64(0); j < p.n; j++ {
				if node.ShardOf(p.key(j)) != s {
					continue
				}
				if chunk.js = append(chunk.js, j); len(chunk.js) == per {
					if errs[s] = flush(); errs[s] != nil {
						return
					}
				}
			}
			errs[s] = flush()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// populateRun writes the keys js of one shard, those that do not exist.
type populateRun struct {
	p  populate
	js []int64
}

func (r *populateRun) Run(c *command.Ctx) error {
	for _, j := range r.js {
		key := r.p.key(j)
		ok, err := c.Tx.Exists(key)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		val := r.p.value(j)
		if err := c.Tx.SetString(key, val, 0); err != nil {
			return err
		}
		c.Effect([]byte("SET"), key, val)
	}
	return nil
}
