package server

import (
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
	reply := c.Client.Session.ReplyLater()
	c.Server.Node.WaitReplicas(n, w.timeout, false, func(k int) {
		reply(append(strconv.AppendInt([]byte{':'}, int64(k), 10), '\r', '\n'))
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
	var synced int64
	if w.local > 0 {
		if err := c.Server.Node.SyncStore(); err != nil {
			return rerr.Errorf("ERR WAITAOF could not sync the store: %v", err)
		}
		synced = 1
	}
	c.W.Array(2)
	c.W.Int(synced)
	c.W.Int(0)
	if w.replicas <= 0 && w.local <= synced || c.Tx != nil { // inside EXEC nothing waits
		return nil
	}
	c.Client.Session.DeferReply(w.timeout, append([]byte(nil), c.W.Bytes()...))
	return command.ErrReplyLater
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
