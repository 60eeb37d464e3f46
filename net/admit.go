package net

import (
	stdnet "net"
	"time"

	"github.com/rekv/rekv/acl"
	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
)

// admission is a command line on its way in: what the guards look at,
// and what they learn (the client's ACL user when it is restricted, so
// the calls its scripts make are checked too).
type admission struct {
	cl    *client
	spec  *command.Spec
	args  [][]byte
	proto int
	db    int // the client's database (numbered across namespaces)
	user  *acl.User
	// does is what the guards judge the command by (effective).
	does effect
	// judged: does is set.
	judged bool
}

// effect is what a command line does, as the admission guards judge it:
// Redis's getCommandFlags (a script's declared flags) and, for EXEC,
// the flags of every queued command (mstate.cmd_flags).
type effect struct {
	// stores: it may write the store (MISCONF); writes: Redis's table
	// says write (READONLY, NOREPLICAS: PFCOUNT, which may cache, does
	// not); denyOOM: it may grow the data set; stale: a stale replica
	// may serve it; replicates: it may write or replicate (a write,
	// PUBLISH, a script without flags), what a WRITE pause holds.
	stores, writes, denyOOM, stale, replicates bool
}

// effectOf is what spec does with args in namespace ns: its declared
// flags (FlagsFor), else its Spec's.
func effectOf(spec *command.Spec, ns uint32, args [][]byte) effect {
	f := spec.Flags
	if spec.FlagsFor != nil {
		declared, ok := spec.FlagsFor(ns, args)
		if !ok {
			// A script without flags: judged by its calls, as each
			// runs (Redis's eval compat mode); itself it reads.
			return effect{stale: f&command.Stale != 0, replicates: f&(command.Write|command.MayReplicate) != 0}
		}
		w := declared&command.Write != 0
		return effect{stores: w, writes: w, denyOOM: declared&command.DenyOOM != 0, stale: declared&command.Stale != 0, replicates: w}
	}
	return effect{stores: f&command.Write != 0, writes: spec.RedisWrite(),
		denyOOM: f&command.DenyOOM != 0, stale: f&command.Stale != 0, replicates: f&(command.Write|command.MayReplicate) != 0}
}

// effective returns what the command does: for EXEC, what its queued
// commands do together.
func (a *admission) effective() effect {
	if a.judged {
		return a.does
	}
	a.judged = true
	if a.spec.Flags&command.RunsQueued == 0 {
		a.does = effectOf(a.spec, command.NamespaceOf(a.db), a.args)
		return a.does
	}
	a.does = effect{stale: a.spec.Flags&command.Stale != 0}
	if !a.cl.multi {
		return a.does
	}
	for _, q := range a.cl.queue {
		e := effectOf(q.Spec, command.NamespaceOf(a.db), q.Args)
		a.does.stores = a.does.stores || e.stores
		a.does.writes = a.does.writes || e.writes
		a.does.denyOOM = a.does.denyOOM || e.denyOOM
		a.does.stale = a.does.stale && e.stale // a stale replica refuses EXEC of a GET
	}
	return a.does
}

// admit runs the admission guards in Redis's order (processCommand's):
// authentication, ACL, the administrator's commands, a namespace's quotas,
// cluster redirection, a busy script, a failing store, maxmemory, then a
// RESP2 client's Pub/Sub context. Arity and unknown commands are the
// registry's (Resolve), before these. Each guard returns nil to let the
// command go on, or the error that refuses it (its reply; counted as
// rejected in the command's stats). They are called directly, not
// through a table of functions, so the admission stays on the stack.
func (s *Server) admit(a *admission) error {
	if a.spec.Flags&command.NoMulti != 0 && a.cl.multi {
		return rerr.ErrNotInMulti
	}
	if err := authenticated(s, a); err != nil {
		return err
	}
	if err := permitted(s, a); err != nil {
		return err
	}
	if err := administrator(s, a); err != nil {
		return err
	}
	if err := namespaceQuota(s, a); err != nil {
		return err
	}
	if err := clusterRouted(s, a); err != nil {
		return err
	}
	if err := notBusy(s, a); err != nil {
		return err
	}
	if err := storageWritable(s, a); err != nil {
		return err
	}
	if err := underMaxMemory(s, a); err != nil {
		return err
	}
	if err := replicaAllows(s, a); err != nil {
		return err
	}
	if err := enoughReplicas(s, a); err != nil {
		return err
	}
	return pubSubContext(s, a)
}

// authenticated refuses every command but AUTH, HELLO and QUIT before the
// client authenticates.
func authenticated(_ *Server, a *admission) error {
	if a.spec.Flags&command.NoAuth == 0 && !a.cl.Authenticated() {
		return rerr.ErrNoAuth
	}
	return nil
}

// permitted checks the client's ACL user (NOPERM, logged in ACL LOG).
func permitted(s *Server, a *admission) error {
	if a.spec.Flags&command.NoAuth != 0 {
		return nil
	}
	d, u := s.permit(a.cl, a.spec, a.args)
	if d != nil {
		return d.Error()
	}
	if u != nil && !u.Free() {
		a.user = u
	}
	return nil
}

// administrator refuses server-wide commands (command.Admin) to a client
// in a named namespace.
func administrator(_ *Server, a *admission) error {
	if a.spec.Flags&command.Admin != 0 && command.NamespaceOf(a.db) != 0 {
		return rerr.ErrAdminOnly
	}
	return nil
}

// notBusy answers BUSY while a script runs past busy-reply-threshold.
func notBusy(s *Server, a *admission) error { return s.busy(a.spec) }

// storageWritable refuses writes while the store fails (MISCONF).
func storageWritable(s *Server, a *admission) error {
	if s.storageErr.Load() != nil && a.effective().stores {
		return rerr.Misconf(s.StorageFailed())
	}
	return nil
}

// underMaxMemory refuses the commands Redis flags denyoom while used
// memory is over maxmemory and no key can be evicted (evict.go), and, as
// Redis does, every command a MULTI would queue: the queue itself takes
// memory.
func underMaxMemory(s *Server, a *admission) error {
	if !s.overMemory() {
		return nil
	}
	queued := a.cl.multi && a.spec.Flags&(command.Transaction|command.NotQueued) == 0
	if queued || a.effective().denyOOM {
		return rerr.ErrOOM
	}
	return nil
}

// replicaAllows refuses, on a replica, writes (replica-read-only), what
// a stale replica may not serve (replica-serve-stale-data no) and what
// waits for a full sync's load, as Redis does. EXEC is judged by its
// queued commands (a write among them makes it a write).
func replicaAllows(s *Server, a *admission) error {
	if s.opts.Replication == nil {
		return nil
	}
	replica, up, loading := s.opts.Replication.Mode()
	if !replica {
		return nil
	}
	f, does := a.spec.Flags, a.effective()
	// Write as Redis flags it: PFCOUNT (which may cache) reads here.
	if does.writes && s.rt.replicaReadOnly.Load() {
		return rerr.ErrReadOnlyReplica
	}
	if !up && !does.stale && !s.rt.serveStale.Load() {
		return rerr.ErrMasterDown
	}
	if loading && f&command.Loading == 0 {
		return rerr.ErrLoading
	}
	return nil
}

// enoughReplicas refuses writes on a master with fewer replicas
// acknowledging within min-replicas-max-lag seconds than
// min-replicas-to-write, as Redis does.
func enoughReplicas(s *Server, a *admission) error {
	if s.rt.minReplicas.Load() <= 0 || !a.effective().writes {
		return nil
	}
	return s.replicasRefusal()
}

// replicasRefusal returns NOREPLICAS when a master has fewer replicas
// acknowledging within min-replicas-max-lag seconds than
// min-replicas-to-write (Redis's checkGoodReplicasStatus), else nil.
func (s *Server) replicasRefusal() error {
	need := s.rt.minReplicas.Load()
	if need <= 0 || s.opts.Replication == nil {
		return nil
	}
	lag := s.rt.minReplicasLag.Load()
	if lag <= 0 {
		return nil // Redis: a max lag of 0 turns the check off
	}
	if replica, _, _ := s.opts.Replication.Mode(); replica {
		return nil
	}
	if int64(s.opts.Replication.GoodReplicas(time.Duration(lag)*time.Second)) < need {
		return rerr.ErrNoReplicas
	}
	return nil
}

// WriteRefusal implements command.Observer: why a script's first write
// may not run now, in Redis's order (scriptVerifyWriteCommandAllow):
// READONLY on a read-only replica, MISCONF while the store fails,
// NOREPLICAS under min-replicas-to-write; nil when it may.
func (s *Server) WriteRefusal() error {
	if s.ReadOnlyReplica() {
		return rerr.ErrReadOnlyReplica
	}
	if s.storageErr.Load() != nil {
		return rerr.Misconf(s.StorageFailed())
	}
	return s.replicasRefusal()
}

// OverMaxMemory implements command.Observer: used memory is over
// maxmemory (scripts remember it as they start, as Redis's
// pre_command_oom_state).
func (s *Server) OverMaxMemory() bool { return s.overMemory() }

// pubSubContext allows a RESP2 client with subscriptions only the
// commands of the Pub/Sub context.
func pubSubContext(_ *Server, a *admission) error {
	if a.proto == 2 && a.spec.Flags&command.PubSubContext == 0 && a.cl.Subscriptions() > 0 {
		return rerr.Errorf("ERR Can't execute '%s': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context", a.spec.FullName())
	}
	return nil
}

// overMemory reports whether used memory is over maxmemory with no key
// left to evict (every policy but noeviction evicts first: evict.go).
func (s *Server) overMemory() bool {
	return s.overMaxmemory() && (!s.evicting() || s.evictStuck.Load())
}

// overMaxmemory reports whether used memory is over maxmemory.
func (s *Server) overMaxmemory() bool {
	limit := s.rt.maxMemory.Load()
	return limit > 0 && s.rt.usedMemory.Load() > limit
}

// permit checks the client's ACL user for a command line, logging a
// denial (ACL LOG).
func (s *Server) permit(cl *client, spec *command.Spec, args [][]byte) (*acl.Denial, *acl.User) {
	u := s.acl.User(cl.User())
	if u == nil { // deleted while connected: its connection is closing
		return &acl.Denial{Reason: "command", Object: spec.FullName()}, nil
	}
	d := acl.Permit(u, spec, args)
	if d != nil {
		s.acl.Log(d.Reason, "toplevel", d.Object, u.Name, cl.Info())
	}
	return d, u
}

// defaultOpen reports whether the default user is on and needs no
// password: clients start authenticated as it.
func (s *Server) defaultOpen() bool {
	u := s.acl.User("default")
	return u != nil && u.On && u.NoPass
}

// deniedReply is Redis's protected-mode refusal.
const deniedReply = "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user. " +
	"In this mode connections are only accepted from the loopback interface. If you want to connect from external computers to Redis you may adopt one of " +
	"the following solutions: 1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback interface by connecting " +
	"to Redis from the same host the server is running, however MAKE SURE Redis is not publicly accessible from internet if you do so. Use CONFIG REWRITE to " +
	"make this change permanent. 2) Alternatively you can just disable the protected mode by editing the Redis configuration file, and setting the protected " +
	"mode option to 'no', and then restarting the server. 3) If you started the server manually just for testing, restart it with the '--protected-mode no' " +
	"option. 4) Set up an authentication password for the default user. NOTE: You only need to do one of the above things in order for the server to start " +
	"accepting connections from the outside.\r\n"

// refuse reports whether protected mode turns a client away: no password,
// protected mode on, and a peer that is not a loopback address.
func refuse(protected bool, password string, addr stdnet.Addr) bool {
	if !protected || password != "" {
		return false
	}
	tcp, ok := addr.(*stdnet.TCPAddr)
	return ok && tcp != nil && !tcp.IP.IsLoopback()
}

// busy returns BUSY for a command arriving while a script has run past
// busy-reply-threshold, unless the command is allowed then (SCRIPT KILL).
func (s *Server) busy(spec *command.Spec) error {
	if spec.Flags&command.AllowBusy != 0 {
		return nil
	}
	return s.scriptBusy()
}

// scriptBusy returns BUSY while a script has run past
// busy-reply-threshold, nil otherwise.
func (s *Server) scriptBusy() error {
	if s.opts.Busy == nil {
		return nil
	}
	return s.busyAfter(s.opts.Busy())
}

// busyAfter returns BUSY for the longest-running script (d, function,
// as opts.Busy reports it) when it has run past busy-reply-threshold.
func (s *Server) busyAfter(d time.Duration, function bool) error {
	limit := s.busyMs.Load()
	if limit <= 0 || d < time.Duration(limit)*time.Millisecond {
		return nil
	}
	return s.opts.BusyError(function)
}
