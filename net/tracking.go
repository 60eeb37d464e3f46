package net

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/actors/store"
	"github.com/rekv/rekv/net/tracking"
	"github.com/rekv/rekv/resp"
)

// Client-side caching (CLIENT TRACKING), as Redis 7 does it.
//
// Default mode: a tracking client's read-only commands record their keys
// in the tracking table (a namespace's key -> client ids), on the shard that runs them
// (actors.Options.Track), just before they run. A committed write hands
// its keys over on the same shard (actors.Options.Invalidate): each
// client recorded for a key gets one invalidation message for it, and
// the key leaves the table until that client reads it again. A shard runs
// its commands in order, so a write that runs after a tracked read always
// finds the read's entry: a cached value is never left stale.
//
// BCAST mode: no table; every written key of the client's namespace
// under one of its prefixes is announced, one message per prefix per
// command. (Namespaces: a client hears only of its own namespace's keys;
// a flush, whose invalidation names no key, reaches every tracking
// client.) OPTIN tracks
// only commands right after CLIENT CACHING YES, OPTOUT all but those after
// CLIENT CACHING NO. NOLOOP leaves out the keys the client wrote itself.
// FLUSHDB and FLUSHALL send every tracking client a null invalidation and
// empty the table.
//
// Messages: a RESP3 connection gets a push [invalidate, [keys]]; with
// REDIRECT the messages go to that client instead — as a push if it
// speaks RESP3, else as a __redis__:invalidate Pub/Sub message if it is
// subscribed to anything (otherwise it cannot receive them). A redirect
// target that is gone earns the tracking client (RESP3 only) a
// tracking-redir-broken push at each message instead.
//
// An invalidation is queued behind every reply its client has been sent
// or is owed (client.push), so it never overtakes the reply of the read it
// invalidates. The table holds at most tracking-table-max-keys keys:
// past that, keys are dropped with an invalidation, as in Redis.
//
// Scope: the keys one node's clients read. Writes through another node
// sharing the store (TiKV) arrive through the bus between the nodes
// (package bus; the node calls Invalidate for them, with no client).

// trackState is one client's tracking mode, under client.mu.
type trackState struct {
	on, bcast, optin, optout, noloop bool
	redirect                         int64
	broken                           bool // the redirect target was gone at a send
	caching                          bool // CLIENT CACHING given for the next command
	prefixes                         []string
}

// Track implements command.Client (CLIENT TRACKING).
func (cl *client) Track(o command.TrackOptions) error {
	t := cl.srv.tracking
	t.Lock()
	defer t.Unlock()
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if !o.On {
		cl.disableTrackingLocked()
		return nil
	}
	cur := &cl.trk
	switch {
	case !o.BCast && len(o.Prefixes) > 0:
		return rerr.Errorf("ERR PREFIX option requires BCAST mode to be enabled")
	case cur.on && cur.bcast != o.BCast:
		return rerr.Errorf("ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then re-enabling it with a different mode.")
	case o.BCast && (o.OptIn || o.OptOut):
		return rerr.Errorf("ERR OPTIN and OPTOUT are not compatible with BCAST")
	case o.OptIn && o.OptOut:
		return rerr.Errorf("ERR You can't specify both OPTIN mode and OPTOUT mode")
	case cur.on && (o.OptIn && cur.optout || o.OptOut && cur.optin):
		return rerr.Errorf("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then re-enabling it with a different mode.")
	}
	if o.BCast {
		if err := prefixCollision(cur.prefixes, o.Prefixes); err != nil {
			return err
		}
	}
	if !cur.on {
		t.ClientOnLocked()
		cl.tracking.Store(true)
	}
	prefixes := cur.prefixes
	*cur = trackState{on: true, bcast: o.BCast, optin: o.OptIn, optout: o.OptOut, noloop: o.NoLoop,
		redirect: o.Redirect, caching: cur.caching}
	if o.BCast {
		add := o.Prefixes
		if len(add) == 0 {
			add = []string{""}
		}
		for _, p := range add {
			if !slices.Contains(prefixes, p) {
				prefixes = append(prefixes, p)
			}
			t.AddPrefixLocked(p, cl.id)
		}
		slices.Sort(prefixes)
		cur.prefixes = prefixes
	}
	return nil
}

// prefixCollision applies Redis's rule: no prefix of a client may be a
// prefix of another, among those it has and those it adds.
func prefixCollision(have, add []string) error {
	for i, p := range add {
		for _, h := range have {
			if strings.HasPrefix(h, p) || strings.HasPrefix(p, h) {
				return rerr.Errorf("ERR Prefix '%s' overlaps with an existing prefix '%s'. Prefixes for a single client must not overlap.", p, h)
			}
		}
		for j, q := range add {
			if i != j && (strings.HasPrefix(q, p) || strings.HasPrefix(p, q)) {
				return rerr.Errorf("ERR Prefix '%s' overlaps with another provided prefix '%s'. Prefixes for a single client must not overlap.", p, q)
			}
		}
	}
	return nil
}

// disableTrackingLocked turns tracking off; the caller holds the
// tracker's lock, then cl.mu. The client's keys stay in the table until
// they are written or evicted (their messages then find it not tracking).
func (cl *client) disableTrackingLocked() {
	t := cl.srv.tracking
	if !cl.trk.on {
		return
	}
	for _, p := range cl.trk.prefixes {
		t.RemovePrefixLocked(p, cl.id)
	}
	cl.trk = trackState{}
	cl.tracking.Store(false)
	t.ClientOffLocked()
}

// disableTracking turns tracking off (RESET, a closed connection).
func (cl *client) disableTracking() {
	if !cl.tracking.Load() {
		return
	}
	t := cl.srv.tracking
	t.Lock()
	cl.mu.Lock()
	cl.disableTrackingLocked()
	cl.mu.Unlock()
	t.Unlock()
}

// SetNoTouch implements command.Client (CLIENT NO-TOUCH).
func (cl *client) SetNoTouch(on bool) { cl.noTouch.Store(on) }

// Caching implements command.Client (CLIENT CACHING).
func (cl *client) Caching(yes bool) error {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	switch {
	case !cl.trk.on || !cl.trk.optin && !cl.trk.optout:
		return rerr.Errorf("ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode enabled")
	case yes && !cl.trk.optin:
		return rerr.Errorf("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.")
	case !yes && !cl.trk.optout:
		return rerr.Errorf("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.")
	}
	cl.trk.caching = true
	return nil
}

// TrackingInfo implements command.Client.
func (cl *client) TrackingInfo() command.TrackingInfo {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	t := cl.trk
	if !t.on {
		return command.TrackingInfo{Flags: []string{"off"}, Redirect: -1}
	}
	flags := []string{"on"}
	for _, f := range []struct {
		on   bool
		name string
	}{{t.bcast, "bcast"}, {t.optin, "optin"}, {t.optout, "optout"},
		{t.caching && t.optin, "caching-yes"}, {t.caching && t.optout, "caching-no"},
		{t.noloop, "noloop"}, {t.broken, "broken_redirect"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	return command.TrackingInfo{Flags: flags, Redirect: t.redirect, Prefixes: slices.Clone(t.prefixes)}
}

// tracksRead reports whether the client's command spec records its keys
// now (default mode, a read-only command or a script, and OPTIN/OPTOUT
// allowing it). A script's declared keys stand for the keys its commands
// read (Redis tracks those): a script that reads keys it did not declare
// leaves them untracked.
func (cl *client) tracksRead(spec *command.Spec) bool {
	if !cl.tracking.Load() || spec.Flags&command.ReadOnly == 0 && !spec.Script() {
		return false
	}
	cl.mu.Lock()
	t := cl.trk
	cl.mu.Unlock()
	return t.on && !t.bcast && !(t.optin && !t.caching) && !(t.optout && t.caching)
}

// commandDone ends CLIENT CACHING's effect after a command, as Redis
// does: not after CLIENT's own subcommands, nor inside MULTI (it then
// covers the transaction).
func (cl *client) endCaching(spec *command.Spec) {
	if !cl.tracking.Load() || cl.multi || strings.HasPrefix(spec.FullName(), "client|") {
		return
	}
	cl.mu.Lock()
	cl.trk.caching = false
	cl.mu.Unlock()
}

// TrackKeys is actors.Options.Track: it records a tracked read's keys.
func (s *Server) TrackKeys(r actors.Replier, keys [][]byte) {
	cl, ok := r.(*client)
	if !ok {
		return
	}
	t := s.tracking
	t.Lock()
	defer t.Unlock()
	t.RecordLocked(cl.id, cl.namespace(), keys)
	s.limitTrackingLocked()
}

// limitTracking drops keys from the tracking table, each with its
// invalidation, until it holds at most tracking-table-max-keys.
func (s *Server) limitTracking() {
	s.tracking.Lock()
	defer s.tracking.Unlock()
	s.limitTrackingLocked()
}

func (s *Server) limitTrackingLocked() {
	for _, k := range s.tracking.ExcessLocked() {
		s.invalidateKeyLocked(k, nil)
	}
	s.tracking.CountLocked()
}

// Invalidate is actors.Options.Invalidate: it sends the invalidation
// messages for the keys a committed command of client by wrote.
func (s *Server) Invalidate(by actors.Replier, keys []store.KeyRef, flushed bool) {
	s.saver.Dirty(int64(max(len(keys), 1)))
	t := s.tracking
	if t.Idle() {
		return
	}
	self, _ := by.(*client)
	t.Lock()
	defer t.Unlock()
	if flushed {
		s.clients.Range(func(_, v any) bool {
			cl := v.(*client)
			if cl.tracking.Load() {
				s.sendInvalidation(cl, nil)
			}
			return true
		})
		t.ClearLocked()
	}
	// The keys written, by namespace: each namespace's tracking
	// clients hear of their own namespace's keys only.
	written := map[uint32][][]byte{}
	seen := make(map[tracking.Key]bool, len(keys))
	for _, k := range keys {
		tk := tracking.Key{NS: command.NamespaceOf(k.DB), Key: string(k.Key)}
		if seen[tk] {
			continue
		}
		seen[tk] = true
		written[tk.NS] = append(written[tk.NS], k.Key)
		if t.HasKeysLocked() {
			s.invalidateKeyLocked(tk, self)
		}
	}
	for ns, keys := range written {
		bcast := t.UnderPrefixesLocked(keys)                // prefix -> keys written under it
		for _, p := range slices.Sorted(maps.Keys(bcast)) { // Redis's order
			ks := bcast[p]
			for id := range t.PrefixClientsLocked(p) {
				v, ok := s.clients.Load(id)
				if !ok {
					continue
				}
				cl := v.(*client)
				if cl == self && cl.noLoop() || cl.namespace() != ns {
					continue
				}
				s.sendInvalidation(cl, ks)
			}
		}
	}
	t.CountLocked()
}

// invalidateKeyLocked removes key from the table and tells the clients
// that read it (not self, when it asked for NOLOOP).
func (s *Server) invalidateKeyLocked(key tracking.Key, self *client) {
	for id := range s.tracking.TakeLocked(key) {
		v, ok := s.clients.Load(id)
		if !ok {
			continue
		}
		cl := v.(*client)
		cl.mu.Lock()
		skip := !cl.trk.on || cl.trk.bcast || cl == self && cl.trk.noloop
		cl.mu.Unlock()
		if !skip {
			s.sendInvalidation(cl, [][]byte{[]byte(key.Key)})
		}
	}
}

func (cl *client) noLoop() bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.trk.noloop
}

// sendInvalidation sends one invalidation message for keys (nil: all, a
// flush) to cl or to the client it redirects to.
func (s *Server) sendInvalidation(cl *client, keys [][]byte) {
	cl.mu.Lock()
	redirect := cl.trk.redirect
	dest, redirected := cl, false
	if redirect != 0 {
		v, ok := s.clients.Load(redirect)
		if !ok {
			cl.trk.broken = true
			proto := cl.Proto()
			cl.mu.Unlock()
			if proto >= 3 {
				w := resp.NewWriter(3)
				w.Push(2)
				w.BulkString("tracking-redir-broken")
				w.Int(redirect)
				cl.push(w.Bytes())
			}
			return
		}
		dest, redirected = v.(*client), true
	}
	cl.mu.Unlock()
	proto := dest.Proto()
	w := resp.NewWriter(proto)
	switch {
	case proto >= 3:
		w.Push(2)
		w.BulkString("invalidate")
	case redirected && dest.Subscriptions() > 0:
		w.Push(3)
		w.BulkString("message")
		w.BulkString("__redis__:invalidate")
	default:
		return // a RESP2 connection cannot take it
	}
	if keys == nil {
		w.Null()
	} else {
		w.Array(len(keys))
		for _, k := range keys {
			w.Bulk(k)
		}
	}
	dest.push(w.Bytes())
}

// ClientExists implements command.Server.
func (s *Server) ClientExists(id int64) bool {
	_, ok := s.clients.Load(id)
	return ok
}

func formatRedir(t trackState) string {
	if !t.on {
		return "-1"
	}
	return strconv.FormatInt(t.redirect, 10)
}
