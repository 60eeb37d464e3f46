package rerr

import (
	"errors"
	"fmt"
	"strings"
)

// Error is an error whose text is sent to the client as it is; it starts
// with the Redis error code (ERR, WRONGTYPE, ...).
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Errorf returns an *Error with a formatted message.
func Errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// Redis errors shared by several commands, with Redis's exact text.
var (
	ErrWrongType    = &Error{"WRONGTYPE Operation against a key holding the wrong kind of value"}
	ErrNestedMulti  = &Error{"ERR MULTI calls can not be nested"}
	ErrExecNoMulti  = &Error{"ERR EXEC without MULTI"}
	ErrDiscardMulti = &Error{"ERR DISCARD without MULTI"}
	ErrWatchInMulti = &Error{"ERR WATCH inside MULTI is not allowed"}
	ErrExecAbort    = &Error{"EXECABORT Transaction discarded because of previous errors."}
	ErrSyntax       = &Error{"ERR syntax error"}
	ErrNotInteger   = &Error{"ERR value is not an integer or out of range"}
	// ErrOOM refuses a command that may grow the data set while used
	// memory is over maxmemory.
	ErrOOM           = &Error{"OOM command not allowed when used memory > 'maxmemory'."}
	ErrNotFloat      = &Error{"ERR value is not a valid float"}
	ErrOverflow      = &Error{"ERR increment or decrement would overflow"}
	ErrNoSuchKey     = &Error{"ERR no such key"}
	ErrDBIndex       = &Error{"ERR DB index is out of range"}
	ErrOffsetRange   = &Error{"ERR offset is out of range"}
	ErrStringTooLong = &Error{"ERR string exceeds maximum allowed size (proto-max-bulk-len)"}
	ErrInvalidCursor = &Error{"ERR invalid cursor"}
	ErrNaNOrInfinity = &Error{"ERR increment would produce NaN or Infinity"}
	ErrInternal      = &Error{"ERR internal error"}
	// rekv's own: the storage refused the command's writes as too large
	// (TiKV: one key and value over its raft entry limit, or a
	// transaction over storage.tikv.max_txn_mib).
	ErrStorageTooBig = &Error{"ERR value or transaction too large for the storage"}
	// rekv's own: the command lost every retry against concurrent writes
	// (other nodes on a shared store) and was not applied. TRYAGAIN is
	// Redis Cluster's code for "not applied, retry"; clients retry it.
	ErrTryAgain = &Error{"TRYAGAIN storage write conflict, the command was not applied"}
	// ErrUnavailable and ErrUndetermined: the store could not be reached
	// (drivers.ErrUnavailable, drivers.ErrUndetermined).
	ErrUnavailable     = &Error{"TRYAGAIN the storage is unavailable, the command was not applied"}
	ErrUndetermined    = &Error{"TRYAGAIN the storage became unavailable during the commit, the command may or may not have been applied"}
	ErrUnknownProtocol = &Error{"NOPROTO unsupported protocol version"}
	ErrNoAuth          = &Error{"NOAUTH Authentication required."}
	// ErrAdminOnly refuses a server-wide command to a client in a named
	// namespace (command.Admin), in kvrocks's words.
	ErrAdminOnly  = &Error{"NOPERM admin permission required to perform the command"}
	ErrWrongPass  = &Error{"WRONGPASS invalid username-password pair or user is disabled."}
	ErrNoPassword = &Error{"ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?"}
	// Cluster mode's refusals (Redis Cluster's texts).
	ErrCrossSlot   = &Error{"CROSSSLOT Keys in request don't hash to the same slot"}
	ErrClusterDown = &Error{"CLUSTERDOWN Hash slot not served"}
	// ErrClusterLease: the node's lease ended (it could not renew it in
	// the store), so the other nodes may take its slots; Redis's reply of
	// a node that lost its cluster.
	ErrClusterLease    = &Error{"CLUSTERDOWN The cluster is down"}
	ErrClusterDisabled = &Error{"ERR This instance has cluster support disabled"}
	ErrSelectInCluster = &Error{"ERR SELECT is not allowed in cluster mode"}
	ErrNotInMulti      = &Error{"ERR Command not allowed inside a transaction"}
	// A replica's refusals (Redis's texts).
	ErrReadOnlyReplica = &Error{"READONLY You can't write against a read only replica."}
	ErrNoReplicas      = &Error{"NOREPLICAS Not enough good replicas to write."}
	ErrMasterDown      = &Error{"MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'."}
	ErrLoading         = &Error{"LOADING Redis is loading the dataset in memory"}
	ErrHelloNoAuth     = &Error{"NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time"}
)

// Misconf returns rekv's refusal of writes while its store cannot persist
// them, Redis's MISCONF code (its refusal when it cannot save).
func Misconf(cause string) *Error {
	return &Error{Msg: fmt.Sprintf("MISCONF rekv cannot persist writes to its storage (%s): write commands are refused until it "+
		"recovers, reads go on. Please check the server log for details.", cause)}
}

// Moved returns Redis Cluster's redirection of a key of slot to the node
// at addr (ip:port) that owns it.
func Moved(slot int, addr string) *Error {
	return &Error{Msg: fmt.Sprintf("MOVED %d %s", slot, addr)}
}

// ErrArity returns the wrong-arity error for a command's full name
// ("get", "client|setname").
func ErrArity(fullName string) error {
	return &arityError{&Error{fmt.Sprintf("ERR wrong number of arguments for '%s' command", fullName)}}
}

// ErrArityAny matches every wrong-arity error (errors.Is), whatever the
// command (scripts report those with their own text).
var ErrArityAny = errors.New("rerr: wrong number of arguments")

type arityError struct{ e *Error }

func (e *arityError) Error() string        { return e.e.Msg }
func (e *arityError) Unwrap() error        { return e.e }
func (e *arityError) Is(target error) bool { return target == ErrArityAny }

// ErrInvalidExpire returns the invalid-expire error naming the command.
func ErrInvalidExpire(name string) error {
	return Errorf("ERR invalid expire time in '%s' command", name)
}

// ErrUnknownCommand formats Redis's unknown-command error.
func ErrUnknownCommand(args [][]byte) error {
	var b strings.Builder
	for _, a := range args[1:] {
		if b.Len() >= 128 {
			break
		}
		room := 128 - b.Len()
		if len(a) > room {
			a = a[:room]
		}
		fmt.Fprintf(&b, "'%s' ", a)
	}
	name := args[0]
	if len(name) > 128 {
		name = name[:128]
	}
	return Errorf("ERR unknown command '%s', with args beginning with: %s", name, b.String())
}

// ErrUnknownSubcommand formats Redis's unknown-subcommand error.
func ErrUnknownSubcommand(cmd string, sub []byte) error {
	if len(sub) > 128 {
		sub = sub[:128]
	}
	return Errorf("ERR unknown subcommand '%s'. Try %s HELP.", sub, strings.ToUpper(cmd))
}
