package net

import (
	stdnet "net"
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SYNC and PSYNC: the connection's socket goes to the replication master
// (a replica's link, or the RDB file alone for REPLCONF rdb-only 1:
// redis-cli --rdb), served by a goroutine of its own from a duplicate of
// its descriptor once every earlier reply is out (handOff); the
// connection reads no command any more and closes when that ends.

// SetReplConf implements command.Client.
func (cl *client) SetReplConf(option, value string) {
	if cl.replConf == nil {
		cl.replConf = map[string]string{}
	}
	if option == "capa" {
		value = strings.TrimSpace(cl.replConf["capa"] + " " + value)
	}
	cl.replConf[option] = value
}

// SendRDB implements command.Admin: the connection goes to the
// replication master (Replication.ServeReplica), a replica's link from
// now on, or the way its RDB file goes out (REPLCONF rdb-only 1).
func (vw nodeRole) SendRDB(c command.Connection, h command.ReplHello) error {
	s := vw.s
	cl, ok := c.(*client)
	if !ok {
		return rerr.ErrInternal
	}
	if s.opts.Replication == nil {
		return rerr.Errorf("ERR replication is not available on this node")
	}
	h.RDBOnly = cl.replConf["rdb-only"] == "1"
	if filter, filtered := cl.replConf["rdb-filter-only"]; filtered {
		h.NoKeys, h.NoFunctions = true, filter != "functions"
	}
	if err := s.opts.Replication.RefuseReplica(h); err != nil {
		return err // the connection stays a client's
	}
	port, _ := strconv.Atoi(cl.replConf["listening-port"])
	addr := cl.replConf["ip-address"]
	if addr == "" {
		if host, _, err := stdnet.SplitHostPort(cl.addr); err == nil {
			addr = host
		}
	}
	h.Addr, h.Port = addr, port
	h.EOF = strings.Contains(" "+cl.replConf["capa"]+" ", " eof ")
	h.Namespaces = strings.Contains(" "+cl.replConf["capa"]+" ", " rekv-namespaces ")
	in := make(chan []byte, 256)
	cl.replica.Store(true)
	cl.handOff(func(nc stdnet.Conn) {
		err := s.opts.Replication.ServeReplica(nc, in, h)
		s.log.Info("replication: replica link closed", "replica", cl.addr, "err", err)
	}, in)
	return command.ErrReplyLater
}

// handOff makes fn own the connection's socket once every reply before
// the current command's is written: it gets a duplicate of the
// descriptor, and the connection closes when fn returns. The client
// reads no further command: what the peer sends from then on goes to in
// (dropped when in is full), which is closed with the connection.
func (cl *client) handOff(fn func(stdnet.Conn), in chan []byte) {
	cl.waitSeq.Store(cl.curSeq + 1) // never replied: parsing stops here
	cl.outMu.Lock()
	cl.handoff, cl.handoffSeq, cl.handoffIn = fn, cl.curSeq, in
	cl.outMu.Unlock()
}

// tryHandOff runs on the event loop after a write: when the replies
// before the hand-off are all out of gnet's buffer, fn gets the socket.
func (cl *client) tryHandOff() {
	cl.outMu.Lock()
	fn := cl.handoff
	ready := fn != nil && cl.written >= cl.handoffSeq && len(cl.out) == 0
	cl.outMu.Unlock()
	if fn == nil {
		return
	}
	if !ready || len(cl.tail) > 0 || cl.conn.OutboundBuffered() > 0 {
		cl.wakeSoon()
		return
	}
	cl.outMu.Lock()
	cl.handoff = nil
	cl.outMu.Unlock()
	cl.inbound = cl.handoffIn
	conn := cl.conn
	var nc stdnet.Conn
	fd, err := conn.Dup()
	if err == nil {
		nc, err = fileConn(fd)
	}
	if err != nil {
		cl.srv.log.Warn("SYNC: cannot take the connection", "addr", cl.addr, "err", err)
		_ = conn.Close()
		return
	}
	cl.outMu.Lock()
	cl.handed = nc
	cl.outMu.Unlock()
	cl.srv.guard().Go("SYNC", func() {
		defer conn.Close()
		defer nc.Close()
		fn(nc)
	})
}
