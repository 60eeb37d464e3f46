package integration

// listScripts are the list commands' differential scripts (see scripts).
// Blocking commands appear only where they do not wait: with data, or
// with an error; waiting is tested in list_test.go.
func listScripts() map[string]string {
	return map[string]string{
		"list-push-pop": `LPUSH l a b c
RPUSH l d e
LRANGE l 0 -1
LLEN l
LPUSHX l x
RPUSHX l y
LPUSHX nokey x
RPUSHX nokey x
EXISTS nokey
LPOP l
RPOP l
LPOP l 2
RPOP l 2
LRANGE l 0 -1
LPOP l 0
RPOP l 0
LPOP l 10
EXISTS l
LPOP l
RPOP l
LPOP l 2
LPOP nokey 0
RPOP nokey 1
LPOP l -1
LPOP l abc
LPOP l 1 2
LPUSH
LPUSH l
RPUSH l a
LPOP l 0
LLEN nokey
SET s v
LPUSH s a
RPUSHX s a
LPOP s
RPOP s 1
LLEN s
TYPE l
RPUSH bin "" "a b" "\x00\xff"
LRANGE bin 0 -1
DEL bin
EXISTS bin
RPUSH l2 1 2 3
RENAME l2 l3
LRANGE l3 0 -1
LRANGE l2 0 -1`,
		"list-index": `RPUSH l a b c d e
LINDEX l 0
LINDEX l 4
LINDEX l 5
LINDEX l -1
LINDEX l -5
LINDEX l -6
LINDEX l abc
LINDEX nokey 0
LINDEX nokey abc
LSET l 0 A
LSET l -1 E
LSET l 5 x
LSET l -6 x
LSET l abc x
LSET nokey 0 x
LSET nokey abc x
LRANGE l 0 -1
LRANGE l 1 3
LRANGE l -3 -2
LRANGE l -100 100
LRANGE l 3 1
LRANGE l 5 10
LRANGE l -1 -5
LRANGE l 0 0
LRANGE l abc 1
LRANGE l 0 abc
LRANGE nokey 0 -1
LRANGE nokey abc 1
SET s v
LINDEX s 0
LSET s 0 x
LRANGE s 0 -1
LINDEX s abc`,
		"list-trim": `RPUSH l a b c d e f g h i j
LTRIM l 1 -2
LRANGE l 0 -1
LTRIM l 0 100
LRANGE l 0 -1
LTRIM l -3 -1
LRANGE l 0 -1
LLEN l
LTRIM l 2 1
EXISTS l
RPUSH l a b c
LTRIM l 5 10
EXISTS l
RPUSH l a b c
LTRIM l -100 -50
EXISTS l
RPUSH l a b c d e f g h i j
LTRIM l 4 4
LRANGE l 0 -1
LPUSH l 1 2
RPUSH l 3
LRANGE l 0 -1
LTRIM nokey 0 1
LTRIM l abc 1
LTRIM l 0 abc
LTRIM nokey abc 1
SET s v
LTRIM s 0 1`,
		"list-insert-rem": `RPUSH l a b c d e
LINSERT l BEFORE a x
LINSERT l AFTER e y
LINSERT l before c m
LINSERT l after c n
LRANGE l 0 -1
LINSERT l AFTER nope z
LINSERT l MIDDLE a z
LINSERT nokey BEFORE a z
LINSERT nokey MIDDLE a z
EXISTS nokey
LLEN l
RPUSH r a x a y a z a
LREM r 2 a
LRANGE r 0 -1
RPUSH r a b a
LREM r -2 a
LRANGE r 0 -1
LREM r 0 a
LRANGE r 0 -1
LREM r 0 nope
LREM r 1 x
LREM r -1 z
LRANGE r 0 -1
LREM r 0 y
LREM r 0 b
EXISTS r
LREM nokey 0 a
LREM r abc a
RPUSH big 1 2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 8 9
LREM big 0 9
LRANGE big 0 -1
LREM big 1 2
LRANGE big 0 -1
LREM big -1 1
LRANGE big 0 -1
LINSERT big BEFORE 8 x
LINSERT big AFTER 3 y
LRANGE big 0 -1
LREM big -9223372036854775808 x
LRANGE big 0 -1
SET s v
LINSERT s BEFORE a b
LREM s 0 a`,
		"list-pos": `RPUSH l a b c a b c a
LPOS l a
LPOS l c
LPOS l nope
LPOS l a RANK 2
LPOS l a RANK -1
LPOS l a RANK -2
LPOS l a RANK 5
LPOS l a COUNT 0
LPOS l a COUNT 2
LPOS l a COUNT 2 RANK 2
LPOS l a COUNT 0 RANK -1
LPOS l a COUNT 10 RANK -2
LPOS l a MAXLEN 3
LPOS l a MAXLEN 4 COUNT 0
LPOS l a RANK -1 MAXLEN 2
LPOS l a RANK -1 MAXLEN 1 COUNT 0
LPOS l nope COUNT 0
LPOS l a RANK 0
LPOS l a RANK abc
LPOS l a RANK -9223372036854775808
LPOS l a COUNT -1
LPOS l a COUNT abc
LPOS l a MAXLEN -1
LPOS l a MAXLEN abc
LPOS l a FOO 1
LPOS l a RANK
LPOS nokey a
LPOS nokey a COUNT 1
LPOS nokey a RANK 0
SET s v
LPOS s a`,
		"list-move": `RPUSH src a b c
LMOVE src dst LEFT RIGHT
LMOVE src dst RIGHT LEFT
LRANGE src 0 -1
LRANGE dst 0 -1
LMOVE src src LEFT RIGHT
LRANGE src 0 -1
RPUSH rot 1 2 3
LMOVE rot rot RIGHT LEFT
LRANGE rot 0 -1
RPOPLPUSH src dst
RPOPLPUSH src dst
LRANGE dst 0 -1
EXISTS src
LMOVE src dst LEFT LEFT
RPOPLPUSH src dst
LMOVE dst src UP LEFT
LMOVE dst src LEFT DOWN
LMOVE nokey dst UP LEFT
SET s v
LMOVE s dst LEFT LEFT
LMOVE dst s LEFT LEFT
LRANGE dst 0 -1
RPOPLPUSH nokey s
RPOPLPUSH s dst
RPUSH one x
RPOPLPUSH one one
LRANGE one 0 -1
BLMOVE dst src LEFT RIGHT 0
BLMOVE dst src LEFT RIGHT abc
BLMOVE dst src LEFT RIGHT -1
BLMOVE dst src UP RIGHT abc
BRPOPLPUSH dst src 0
BRPOPLPUSH dst src abc
BRPOPLPUSH dst s 0
LRANGE src 0 -1`,
		"list-mpop": `RPUSH a 1 2 3
RPUSH b 4 5 6
LMPOP 2 nokey a LEFT
LMPOP 2 nokey a RIGHT COUNT 5
EXISTS a
LMPOP 2 a b LEFT COUNT 2
LMPOP 1 nokey LEFT
LMPOP 0 a LEFT
LMPOP -1 a LEFT
LMPOP abc a LEFT
LMPOP 3 a b LEFT
LMPOP 1 b MIDDLE
LMPOP 1 b LEFT COUNT 0
LMPOP 1 b LEFT COUNT -1
LMPOP 1 b LEFT COUNT abc
LMPOP 1 b LEFT COUNT 1 COUNT 1
LMPOP 1 b LEFT FOO
LMPOP 1 b LEFT COUNT
LRANGE b 0 -1
SET s v
LMPOP 2 s b LEFT
LMPOP 2 nokey s LEFT
RPUSH b 7 8
BLMPOP 0 2 nokey b RIGHT
BLMPOP 0 1 b LEFT COUNT 9
BLMPOP abc 1 b LEFT
BLMPOP -1 1 b LEFT
BLMPOP 0 0 b LEFT
BLMPOP 0 1 b SIDEWAYS
BLMPOP 0 1 s LEFT`,
		"list-bpop": `RPUSH a 1 2
RPUSH b 3
BLPOP nokey a 0
BRPOP nokey a 0
BRPOP a b 0
BLPOP b 1.5
EXISTS a b
BLPOP a abc
BLPOP a -1
BLPOP a -0.5
BLPOP a nan
BLPOP a inf
BLPOP a 1e300
SET s v
RPUSH c 1
BLPOP s c 0
BLPOP c s 0
BRPOP nokey s 0`,
	}
}
