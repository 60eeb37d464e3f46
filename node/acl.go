package node

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rekv/rekv/actors/command/server"
	"github.com/rekv/rekv/drivers"
)

// Users. They come from server.acl_users or server.aclfile at start. On a
// shared store (TiKV) every change (ACL SETUSER, DELUSER, LOAD) is also
// written to the store, with a generation number, and every node reads
// it back within aclPoll, so all nodes enforce the same users; a node
// starting on a shared store takes the users stored there, if any.

// aclKey holds the shared users: "<generation>\n<ACL file lines>".
var aclKey = []byte{drivers.SystemPrefix, 'a', 'c', 'l'}

const aclPoll = 500 * time.Millisecond

func (n *Node) startACL(drv drivers.Driver, shared bool) error {
	store := n.net.Roles().Config.ACL()
	switch {
	case len(n.cfg.Server.ACLUsers) > 0:
		if err := store.LoadLines("server.acl_users", n.cfg.Server.ACLUsers); err != nil {
			return fmt.Errorf("server.acl_users: %w", err)
		}
	case n.cfg.Server.ACLFile != "":
		if err := server.LoadACLFile(store, n.cfg.Server.ACLFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("server.aclfile: %w", err)
		}
	}
	if !shared {
		return nil
	}
	// gen is the generation this node last wrote or adopted; mu orders
	// adopting and writing, so a read that began before this node's own
	// write committed cannot bring back the users it replaced (generations
	// only grow: each write takes one above the stored one).
	var mu sync.Mutex
	var gen uint64
	stored := func(tx drivers.Txn) (uint64, string, bool, error) {
		v, err := tx.Get(aclKey)
		if errors.Is(err, drivers.ErrNotFound) {
			return 0, "", false, nil
		}
		if err != nil {
			return 0, "", false, err
		}
		head, body, _ := strings.Cut(string(v), "\n")
		g, _ := strconv.ParseUint(head, 10, 64)
		return g, body, true, nil
	}
	read := func() error {
		tx, err := drv.Begin(false)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		g, body, ok, err := stored(tx)
		if err != nil || !ok {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if g <= gen {
			return nil
		}
		if err := store.Adopt("shared users", strings.Split(body, "\n")); err != nil {
			return err
		}
		gen = g
		return nil
	}
	write := func() {
		mu.Lock()
		defer mu.Unlock()
		for attempt := 0; attempt < 10; attempt++ {
			tx, err := drv.Begin(true)
			if err != nil {
				break
			}
			g0, _, _, err := stored(tx)
			g := max(uint64(time.Now().UnixNano()), g0+1, gen+1)
			if err == nil {
				err = tx.Set(aclKey, []byte(strconv.FormatUint(g, 10)+"\n"+strings.Join(store.Lines(), "\n")))
			}
			if err == nil {
				err = tx.Commit()
			}
			tx.Rollback()
			if err == nil {
				gen = g
				return
			}
			if !errors.Is(err, drivers.ErrConflict) {
				n.log.Error("ACL: store the users for the other nodes", "err", err)
				return
			}
		}
	}
	if err := read(); err != nil {
		return fmt.Errorf("ACL: read the shared users: %w", err)
	}
	store.OnChange(write)
	go func() {
		t := time.NewTicker(aclPoll)
		defer t.Stop()
		for {
			select {
			case <-n.stopWatch:
				return
			case <-t.C:
				if err := read(); err != nil {
					n.log.Warn("ACL: read the shared users", "err", err)
				}
			}
		}
	}()
	return nil
}
