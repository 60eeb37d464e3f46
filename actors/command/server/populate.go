package server

import (
	"strconv"
	"sync"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
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
	node, db := c.Server.Node, c.DB
	run := answerLater(c, "debug", func(w *resp.Writer) error {
		if err := p.write(node, db); err != nil {
			return err
		}
		w.OK()
		return nil
	})
	c.Client.Session.AfterEarlier(func() { go run() }) // the client's earlier writes first (FLUSHDB; POPULATE)
	return command.ErrReplyLater
}

// write writes the keys: this goroutine names them and deals them, in
// chunks, to one writer per shard, which runs its shard's chunks in
// order; it returns the first error (a shard that failed writes no
// more).
func (p populate) write(node command.Node, db int) error {
	shards := node.Shards()
	per := populateChunkKeys
	if p.size > 0 {
		per = int(max(1, min(int64(per), populateChunkBytes/p.size)))
	}
	// The chunks' command: a write with no keyspace event.
	spec := &command.Spec{Name: "debug", Flags: command.Write}
	work := make([]chan *populateRun, shards)
	errs := make([]error, shards)
	var wg sync.WaitGroup
	for s := range shards {
		work[s] = make(chan *populateRun, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for chunk := range work[s] {
				if errs[s] == nil {
					errs[s] = node.Exec(s, db, spec, chunk)
				}
			}
		}()
	}
	chunks := make([]*populateRun, shards)
	for j := int64(0); j < p.n; j++ {
		key := p.key(j)
		s := node.ShardOf(key)
		if chunks[s] == nil {
			chunks[s] = &populateRun{p: p}
		}
		c := chunks[s]
		c.js, c.keys = append(c.js, j), append(c.keys, key)
		if len(c.js) == per {
			work[s] <- c
			chunks[s] = nil
		}
	}
	for s, c := range chunks {
		if c != nil {
			work[s] <- c
		}
		close(work[s])
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// populateRun writes the keys of one shard, those that do not exist:
// keys[i] is key js[i].
type populateRun struct {
	p    populate
	js   []int64
	keys [][]byte
}

func (r *populateRun) Run(c *command.Ctx) error {
	for i, key := range r.keys {
		ok, err := c.Tx.Exists(key)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		val := r.p.value(r.js[i])
		if err := c.Tx.SetString(key, val, 0); err != nil {
			return err
		}
		c.Effect([]byte("SET"), key, val)
	}
	return nil
}
