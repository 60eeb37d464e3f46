package command

import "strings"

// NotifyClass is a set of keyspace-notification classes, the letters of
// Redis's notify-keyspace-events.
type NotifyClass uint16

// Notification classes.
const (
	NotifyKeyspace NotifyClass = 1 << iota // K
	NotifyKeyevent                         // E
	NotifyGeneric                          // g
	NotifyString                           // $
	NotifyList                             // l
	NotifySet                              // s
	NotifyHash                             // h
	NotifyZSet                             // z
	NotifyExpired                          // x
	NotifyEvicted                          // e
	NotifyStream                           // t
	NotifyModule                           // d
	NotifyKeyMiss                          // m
	NotifyNew                              // n

	// NotifyAll is "A": every class but key-miss and new.
	NotifyAll = NotifyGeneric | NotifyString | NotifyList | NotifySet | NotifyHash | NotifyZSet |
		NotifyExpired | NotifyEvicted | NotifyStream | NotifyModule
)

const notifyLetters = "KEg$lshzxetdmn"

// ParseNotify parses a notify-keyspace-events value; false for an unknown
// letter.
func ParseNotify(s string) (NotifyClass, bool) {
	var n NotifyClass
	for _, c := range s {
		if c == 'A' {
			n |= NotifyAll
			continue
		}
		i := strings.IndexRune(notifyLetters, c)
		if i < 0 {
			return 0, false
		}
		n |= 1 << i
	}
	return n, true
}

// String renders the classes as Redis's CONFIG GET does.
func (n NotifyClass) String() string {
	var b strings.Builder
	if n&NotifyAll == NotifyAll {
		b.WriteByte('A')
	} else {
		for i, c := range "g$lshzxetd" {
			if n&(NotifyGeneric<<i) != 0 {
				b.WriteRune(c)
			}
		}
	}
	for i, c := range "KEmn" {
		bit := []NotifyClass{NotifyKeyspace, NotifyKeyevent, NotifyKeyMiss, NotifyNew}[i]
		if n&bit != 0 {
			b.WriteRune(c)
		}
	}
	return b.String()
}
