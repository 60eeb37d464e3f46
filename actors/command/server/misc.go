package server

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// ROLE: a master with its offset and its replicas, or a replica
// with its master, link state and offset.
type roleCmd struct{}

func parseRole([][]byte) (command.Runner, error) { return roleCmd{}, nil }

func (roleCmd) Run(c *command.Ctx) error {
	st := c.Server.Status.Replication()
	if st.Replica {
		c.W.Array(5)
		c.W.BulkString("slave")
		c.W.BulkString(st.MasterHost)
		c.W.Int(int64(st.MasterPort))
		c.W.BulkString(st.State)
		c.W.Int(st.Offset)
		return nil
	}
	c.W.Array(3)
	c.W.BulkString("master")
	c.W.Int(st.Offset)
	online := 0
	for _, r := range st.Replicas {
		if r.State == "online" {
			online++
		}
	}
	c.W.Array(online) // [ip, port, offset] of each online replica
	for _, r := range st.Replicas {
		if r.State == "online" {
			c.W.Array(3)
			c.W.BulkString(r.Addr)
			c.W.BulkString(strconv.Itoa(r.Port))
			c.W.BulkString(strconv.FormatInt(r.Offset, 10))
		}
	}
	return nil
}

// LASTSAVE: the unix time of the last successful SAVE or BGSAVE, or of the
// start before any (the data itself is always in the store).
type lastSave struct{}

func parseLastSave([][]byte) (command.Runner, error) { return lastSave{}, nil }

func (lastSave) Run(c *command.Ctx) error {
	c.W.Int(c.Server.Node.LastSave())
	return nil
}

// WAIT numreplicas timeout: how many replicas acknowledged every write
// made before it, once numreplicas did or the timeout passed (0: never);
// at once inside EXEC or a script, as in Redis.
type waitCmd struct {
	replicas int64
	timeout  time.Duration
}

func parseWait(args [][]byte) (command.Runner, error) {
	n, err := command.Int(args[1])
	if err != nil {
		return nil, rerr.ErrNotInteger
	}
	ms, err := command.Int(args[2])
	if err != nil {
		return nil, rerr.Errorf("ERR timeout is not an integer or out of range")
	}
	if ms < 0 {
		return nil, rerr.Errorf("ERR timeout is negative")
	}
	return waitCmd{replicas: n, timeout: time.Duration(min(ms, int64(1)<<40)) * time.Millisecond}, nil
}

func (w waitCmd) Run(c *command.Ctx) error {
	n := int(min(max(w.replicas, 0), 1<<20))
	if c.Tx != nil { // inside EXEC nothing waits
		c.Server.Node.WaitReplicas(n, 0, true, func(k int) { c.W.Int(int64(k)) })
		return nil
	}
	// The target offset is taken once the client's earlier commands,
	// still running on the shards when a pipeline brings WAIT, are in
	// the stream: WAIT covers every write acknowledged before it.
	reply := c.Client.Session.ReplyLater()
	node := c.Server.Node
	c.Client.Session.AfterEarlier(func() {
		node.WaitReplicas(n, w.timeout, false, func(k int) {
			reply(append(strconv.AppendInt([]byte{':'}, int64(k), 10), '\r', '\n'))
		})
	})
	return command.ErrReplyLater
}

// WAITAOF numlocal numreplicas timeout (Redis 7.2): rekv's store is its
// append-only log, so numlocal > 0 syncs the store to disk now (whatever
// the durability setting) and counts 1; there are no replicas, so
// numreplicas > 0 waits out the timeout (0: for ever, as WAIT) and counts
// 0. The reply is [local, replicas].
type waitAOF struct {
	local, replicas int64
	timeout         time.Duration
}

func parseWaitAOF(args [][]byte) (command.Runner, error) {
	local, err := command.Int(args[1])
	if err != nil {
		return nil, rerr.ErrNotInteger
	}
	replicas, err := command.Int(args[2])
	if err != nil {
		return nil, rerr.ErrNotInteger
	}
	ms, err := command.Int(args[3])
	if err != nil {
		return nil, rerr.Errorf("ERR timeout is not an integer or out of range")
	}
	if ms < 0 {
		return nil, rerr.Errorf("ERR timeout is negative")
	}
	return waitAOF{local: local, replicas: replicas, timeout: time.Duration(min(ms, int64(1)<<40)) * time.Millisecond}, nil
}

func (w waitAOF) Run(c *command.Ctx) error {
	if c.Tx != nil { // inside EXEC nothing waits
		reply, _ := w.sync(c.Server.Node)
		c.W.Raw(reply)
		return nil
	}
	// The store is synced once the client's earlier commands, still
	// running on the shards when a pipeline brings WAITAOF, committed;
	// off the goroutine that filed their last reply (a shard's).
	reply := c.Client.Session.ReplyLater()
	node := c.Server.Node
	c.Client.Session.AfterEarlier(func() {
		go func() {
			b, wait := w.sync(node)
			if !wait {
				reply(b)
			} else if w.timeout > 0 {
				time.AfterFunc(w.timeout, func() { reply(b) })
			}
		}()
	})
	return command.ErrReplyLater
}

// sync syncs the store when numlocal asks for it, and returns the reply
// and whether it waits for the timeout (replicas it cannot have).
func (w waitAOF) sync(node command.Node) (reply []byte, wait bool) {
	var synced int64
	if w.local > 0 {
		if err := node.SyncStore(); err != nil {
			return fmt.Appendf(nil, "-ERR WAITAOF could not sync the store: %v\r\n", err), false
		}
		synced = 1
	}
	reply = fmt.Appendf(nil, "*2\r\n:%d\r\n:0\r\n", synced)
	return reply, w.replicas > 0 || w.local > synced
}

// RESET: the connection goes back to its initial state (see
// command.Client.Session.Reset).
type resetCmd struct{}

func parseReset([][]byte) (command.Runner, error) { return resetCmd{}, nil }

func (resetCmd) Run(c *command.Ctx) error {
	c.Client.Session.Reset()
	c.W.Simple("RESET")
	return nil
}
