package store

import "github.com/rekv/rekv/resp"

// Effect is one command line of a transaction's replication stream: what
// a replica runs to make the same change (a write's effect form), as a
// RESP array, to run in database DB (-1: any, MULTI and EXEC).
type Effect struct {
	DB  int
	Cmd []byte
}

// effects is the part of the journal a replication master streams.
type effects struct {
	collect bool // Env.Effects: record the effects of writes
	list    []Effect
	own     int // effects the commands recorded (not the store's expiries)
	writes  int // writes done so far, effects or not
	depth   int // nesting of the commands running (a script's calls)
}

// Collecting reports whether the transaction records effects.
func (vw Repl) Collecting() bool {
	t := vw.t
	return t.fx.collect
}

// Writes returns how many writes the transaction has done so far: a
// command that leaves it unchanged changed nothing.
func (vw Repl) Writes() int {
	t := vw.t
	return t.fx.writes
}

// wrote counts a write.
func (t *Tx) wrote() { t.fx.writes++ }

// AddEffect records a command line a replica runs to repeat what the
// running command did, in the current database; nothing unless the
// transaction collects effects.
func (vw Repl) AddEffect(args ...[]byte) {
	t := vw.t
	if !t.fx.collect {
		return
	}
	t.fx.own++
	if len(args) == 0 { // a mark: the command streams nothing of its own
		t.fx.list = append(t.fx.list, Effect{DB: int(t.db)})
		return
	}
	t.fx.list = append(t.fx.list, Effect{DB: int(t.db), Cmd: resp.AppendCommand(nil, args...)})
}

// expired records the deletion of a key found expired by a write (which
// replaces or removes it): a replica, which keeps an expired key until
// its master deletes it (Redis's do), must not apply the write to the
// old value.
func (t *Tx) expired(key []byte) {
	if t.fx.collect {
		t.fx.list = append(t.fx.list, Effect{DB: int(t.db), Cmd: resp.AppendCommand(nil, []byte("DEL"), key)})
	}
}

// OwnEffects returns how many effects the commands recorded (AddEffect),
// not counting the deletions of expired keys the store records.
func (vw Repl) OwnEffects() int {
	t := vw.t
	return t.fx.own
}

// Effects returns the effects recorded, in order.
func (vw Repl) Effects() []Effect {
	t := vw.t
	return t.fx.list
}

// EnterCommand marks the start of a command (a top-level one, or one a
// script or EXEC runs inside it); LeaveCommand its end. When the
// outermost command leaves, the effects it recorded from position from
// on become one atomic group: wrapped in MULTI ... EXEC when there are
// several, as Redis propagates a script or a transaction.
func (vw Repl) EnterCommand() (from int) {
	t := vw.t
	t.fx.depth++
	return len(t.fx.list)
}

// LeaveCommand: see EnterCommand.
func (vw Repl) LeaveCommand(from int) {
	t := vw.t
	t.fx.depth--
	if t.fx.depth > 0 {
		return
	}
	kept := t.fx.list[:from] // marks (Cmd nil) go
	for _, e := range t.fx.list[from:] {
		if e.Cmd != nil {
			kept = append(kept, e)
		}
	}
	t.fx.list = kept
	if len(t.fx.list)-from < 2 {
		return
	}
	group := make([]Effect, 0, len(t.fx.list)-from+2)
	group = append(group, Effect{DB: t.fx.list[from].DB, Cmd: multiCmd})
	group = append(group, t.fx.list[from:]...)
	group = append(group, Effect{DB: -1, Cmd: execCmd})
	t.fx.list = append(t.fx.list[:from], group...)
}

var (
	multiCmd = resp.AppendCommand(nil, []byte("MULTI"))
	execCmd  = resp.AppendCommand(nil, []byte("EXEC"))
)

// IsMulti reports whether an effect opens a transaction (its DB is the
// first command's).
func (e Effect) IsMulti() bool {
	return len(e.Cmd) == len(multiCmd) && string(e.Cmd) == string(multiCmd)
}
