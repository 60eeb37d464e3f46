package net

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	stdnet "net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// SYNC and PSYNC for clients that want the store as an RDB file and
// nothing after it (REPLCONF rdb-only 1: redis-cli --rdb). The file is
// written on the connection's socket by a goroutine of its own, from a
// duplicate of its descriptor, once every earlier reply is out (handOff);
// the connection reads nothing more and closes after the file.

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

// SendRDB implements command.Admin.
func (s *Server) SendRDB(c command.Client, h command.ReplHello) error {
	cl, ok := c.(*client)
	if !ok {
		return rerr.ErrInternal
	}
	if cl.replConf["rdb-only"] != "1" {
		return s.serveReplica(cl, h)
	}
	psync := h.PSync
	if s.opts.WriteRDB == nil {
		return rerr.Errorf("ERR this node cannot write an RDB file")
	}
	eof := strings.Contains(" "+cl.replConf["capa"]+" ", " eof ")
	filter, filtered := cl.replConf["rdb-filter-only"]
	keys, functions := !filtered, !filtered || filter == "functions"
	st := s.Replication()
	cl.handOff(func(nc stdnet.Conn) {
		t0 := time.Now()
		n, err := s.sendRDB(nc, psync, eof, st, keys, functions)
		if err != nil {
			s.log.Warn("SYNC: the RDB transfer failed", "addr", cl.addr, "err", err)
			return
		}
		s.log.Info("SYNC: RDB file sent", "addr", cl.addr, "bytes", n, "took", time.Since(t0).Round(time.Millisecond))
	})
	return command.ErrReplyLater
}

// sendRDB writes the transfer: PSYNC's +FULLRESYNC, then the file with an
// end mark (the client said capa eof) or its length (written to a
// temporary file first).
func (s *Server) sendRDB(nc stdnet.Conn, psync, eof bool, st command.ReplStatus, keys, functions bool) (int64, error) {
	w := bufio.NewWriterSize(nc, 256<<10)
	if psync {
		fmt.Fprintf(w, "+FULLRESYNC %s %d\r\n", st.ReplID, st.Offset)
	}
	if eof {
		b := make([]byte, 20)
		_, _ = rand.Read(b)
		mark := hex.EncodeToString(b)
		fmt.Fprintf(w, "$EOF:%s\r\n", mark)
		n, err := s.opts.WriteRDB(w, keys, functions)
		if err != nil {
			return n, err
		}
		w.WriteString(mark)
		return n, w.Flush()
	}
	f, err := os.CreateTemp(s.opts.SyncDir, "rekv-sync-*.rdb")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	n, err := s.opts.WriteRDB(f, keys, functions)
	if err != nil {
		return n, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return n, err
	}
	fmt.Fprintf(w, "$%d\r\n", n)
	if _, err := io.Copy(w, f); err != nil {
		return n, err
	}
	return n, w.Flush()
}

// serveReplica hands the connection to the replication master
// (Replication.ServeReplica): a replica's link from now on.
func (s *Server) serveReplica(cl *client, h command.ReplHello) error {
	if s.opts.Replication == nil {
		return rerr.Errorf("ERR replication is not available on this node")
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
	cl.wantInbound = true
	cl.handOff(func(nc stdnet.Conn) {
		err := s.opts.Replication.ServeReplica(nc, cl.inboundCh, h)
		s.log.Info("replication: replica link closed", "replica", stdnet.JoinHostPort(addr, strconv.Itoa(port)), "err", err)
	})
	return command.ErrReplyLater
}

// handOff makes fn own the connection's socket once every reply before
// the current command's is written: it gets a duplicate of the
// descriptor, and the connection closes when fn returns. The client
// reads no further command.
func (cl *client) handOff(fn func(stdnet.Conn)) {
	cl.waitSeq.Store(cl.curSeq + 1) // never replied: parsing stops here
	cl.outMu.Lock()
	cl.handoff, cl.handoffSeq = fn, cl.curSeq
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
	if cl.wantInbound {
		cl.inbound = make(chan []byte, 256)
		cl.inboundCh = cl.inbound
	}
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
	go func() {
		defer conn.Close()
		defer nc.Close()
		fn(nc)
	}()
}
