package repl

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/namespaces"
	"github.com/rekv/rekv/resp"
)

// A named namespace's writes (databases 16 and up, numbered across
// namespaces) travel in the replication stream wrapped in a PUBLISH to
// namespaceChannel whose message is the database, a newline and the
// command as RESP: a Redis replica, which has 16 databases and no
// namespaces, runs a PUBLISH no one hears and stays in its database (it
// gets the default namespace only), while a rekv replica runs the
// command in that database. One stream serves both, so their offsets
// stay the same.
const namespaceChannel = namespaces.WriteChannel

// named reports whether database db is a named namespace's.
func named(db int) bool { return db >= store.Databases }

// appendNamespaced appends command cmd (RESP) of database db, wrapped.
func appendNamespaced(dst []byte, db int, cmd []byte) []byte {
	msg := append(strconv.AppendInt(make([]byte, 0, 12+len(cmd)), int64(db), 10), '\n')
	return resp.AppendCommand(dst, []byte("PUBLISH"), []byte(namespaceChannel), append(msg, cmd...))
}

// unwrapNamespaced returns the database and the command (aliasing msg)
// of a wrapped write.
func unwrapNamespaced(msg []byte) (int, [][]byte, error) {
	i := bytes.IndexByte(msg, '\n')
	if i < 0 {
		return 0, nil, fmt.Errorf("a namespace's write without its database: %w", errSkip)
	}
	db, ok := resp.ParseInt(msg[:i])
	if !ok || !named(int(db)) || db > math.MaxInt32 {
		return 0, nil, fmt.Errorf("a namespace's write in database %q: %w", msg[:i], errSkip)
	}
	lim := resp.Limits{MaxBulkLen: math.MaxInt64, MaxArgs: math.MaxInt64, MaxInline: len(msg)}
	r, err := resp.Parse(msg[i+1:], lim, nil)
	if err != nil || r.N != len(msg)-i-1 || len(r.Args) == 0 {
		return 0, nil, fmt.Errorf("a namespace's write that is not one command: %w", errSkip)
	}
	return int(db), r.Args, nil
}
