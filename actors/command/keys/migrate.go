package keys

import (
	"bufio"
	"net"
	"strconv"
	"time"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/resp"
)

// MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE]
// [AUTH password] [AUTH2 username password] [KEYS key [key ...]]
//
// It sends the keys to another Redis-protocol server as RESTOREs (after
// AUTH and SELECT), waits up to timeout ms for each reply, and deletes the
// local keys the target accepted unless COPY is given. Like Redis, it
// holds its keys (here: their shards) while it talks to the target. No
// connection is kept between calls.
type migrateCmd struct {
	host, port     string
	keys           [][]byte
	db, timeout    int64
	copy, replace  bool
	user, password []byte
	auth           bool
}

var errMigrateKeys = &rerr.Error{Msg: "ERR When using MIGRATE KEYS option, the key argument must be set to the empty string"}

// migrateKeys locates MIGRATE's keys: the key argument, or those after
// KEYS.
func migrateKeys(args [][]byte) []int {
	for i := 6; i < len(args); i++ {
		if command.Is(args[i], "keys") {
			var out []int
			for j := i + 1; j < len(args); j++ {
				out = append(out, j)
			}
			return out
		}
	}
	if len(args) > 3 && len(args[3]) > 0 {
		return []int{3}
	}
	return nil
}

func parseMigrate(args [][]byte) (command.Runner, error) {
	m := migrateCmd{host: string(args[1]), port: string(args[2])}
	keys := [][]byte{args[3]}
	for j := 6; j < len(args); j++ {
		more := len(args) - 1 - j
		switch a := args[j]; {
		case command.Is(a, "copy"):
			m.copy = true
		case command.Is(a, "replace"):
			m.replace = true
		case command.Is(a, "auth"):
			if more < 1 {
				return nil, rerr.ErrSyntax
			}
			j++
			m.auth, m.user, m.password = true, nil, args[j]
		case command.Is(a, "auth2"):
			if more < 2 {
				return nil, rerr.ErrSyntax
			}
			m.auth, m.user, m.password = true, args[j+1], args[j+2]
			j += 2
		case command.Is(a, "keys"):
			if len(args[3]) != 0 {
				return nil, errMigrateKeys
			}
			keys = args[j+1:]
			j = len(args)
		default:
			return nil, rerr.ErrSyntax
		}
	}
	var err error
	if m.timeout, err = command.Int(args[5]); err != nil {
		return nil, err
	}
	if m.db, err = command.Int(args[4]); err != nil {
		return nil, err
	}
	if m.timeout <= 0 {
		m.timeout = 1000
	}
	m.keys = keys
	return m, nil
}

func (m migrateCmd) Run(c *command.Ctx) error {
	type item struct {
		key     []byte
		ttl     int64
		payload []byte
	}
	var items []item
	for _, k := range m.keys {
		meta, ok, err := c.Tx.Meta(k)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		p, _, err := dumpPayload(c, k)
		if err != nil {
			return err
		}
		ttl := int64(0)
		if meta.ExpireAt != 0 {
			ttl = max(meta.ExpireAt-c.Now, 1)
		}
		items = append(items, item{k, ttl, p})
	}
	if len(items) == 0 {
		c.W.Simple("NOKEY")
		return nil
	}
	w := resp.NewWriter(2)
	if m.auth {
		if m.user != nil {
			writeCommand(w, []byte("AUTH"), m.user, m.password)
		} else {
			writeCommand(w, []byte("AUTH"), m.password)
		}
	}
	writeCommand(w, []byte("SELECT"), []byte(strconv.FormatInt(m.db, 10)))
	for _, it := range items {
		args := [][]byte{[]byte("RESTORE"), it.key, []byte(strconv.FormatInt(it.ttl, 10)), it.payload}
		if m.replace {
			args = append(args, []byte("REPLACE"))
		}
		writeCommand(w, args...)
	}
	timeout := time.Duration(m.timeout) * time.Millisecond
	ioErr := func(writing bool) error {
		if writing {
			return rerr.Errorf("IOERR error or timeout writing to target instance")
		}
		return rerr.Errorf("IOERR error or timeout reading to target instance")
	}
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(m.host, m.port), timeout)
	if err != nil {
		return ioErr(true)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if _, err := conn.Write(w.Bytes()); err != nil {
		return ioErr(true)
	}
	r := bufio.NewReader(conn)
	line := func() (string, error) {
		s, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		_ = conn.SetDeadline(time.Now().Add(timeout))
		return s, nil
	}
	var firstErr string
	for _, n := range []bool{m.auth, true} { // AUTH, SELECT
		if !n {
			continue
		}
		s, err := line()
		if err != nil {
			return ioErr(false)
		}
		if s[0] == '-' && firstErr == "" {
			firstErr = s
		}
	}
	setupErr := firstErr != "" // AUTH or SELECT refused: nothing moved
	for _, it := range items {
		s, err := line()
		if err != nil {
			return ioErr(false)
		}
		if s[0] == '-' || setupErr {
			if firstErr == "" {
				firstErr = s
			}
			continue
		}
		if !m.copy {
			if _, err := c.Tx.Delete(it.key); err != nil {
				return err
			}
			c.Effect([]byte("DEL"), it.key) // a replica must not migrate again
		}
	}
	if firstErr != "" {
		msg := firstErr[1:]
		for len(msg) > 0 && (msg[len(msg)-1] == '\n' || msg[len(msg)-1] == '\r') {
			msg = msg[:len(msg)-1]
		}
		return rerr.Errorf("ERR Target instance replied with error: %s", msg)
	}
	c.W.OK()
	return nil
}

// writeCommand writes a command as a RESP array of bulk strings.
func writeCommand(w *resp.Writer, args ...[]byte) {
	w.Array(len(args))
	for _, a := range args {
		w.Bulk(a)
	}
}
