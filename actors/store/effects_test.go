package store

import (
	"fmt"
	"strings"
	"testing"
)

// effectLines renders a transaction's effects as "db:CMD arg ...".
func effectLines(tx *Tx) []string {
	var out []string
	for _, e := range tx.Repl().Effects() {
		s := strings.ReplaceAll(string(e.Cmd), "\r\n", " ")
		out = append(out, fmt.Sprintf("%d:%s", e.DB, strings.TrimSpace(s)))
	}
	return out
}

func TestEffectsGroups(t *testing.T) {
	d := open(t)
	tx, err := Env{Drv: d, Effects: true}.Begin(true, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// One command, one effect: as it is.
	from := tx.Repl().EnterCommand()
	tx.Repl().AddEffect([]byte("SET"), []byte("a"), []byte("1"))
	tx.Repl().LeaveCommand(from)
	// A script: its calls' effects (a mark dropped) in MULTI ... EXEC,
	// the MULTI in the first call's database.
	from = tx.Repl().EnterCommand()
	inner := tx.Repl().EnterCommand()
	tx.Use(3)
	tx.Repl().AddEffect([]byte("INCR"), []byte("n"))
	tx.Repl().LeaveCommand(inner)
	inner = tx.Repl().EnterCommand()
	tx.Repl().AddEffect() // a mark: nothing of its own
	tx.Repl().LeaveCommand(inner)
	inner = tx.Repl().EnterCommand()
	tx.Repl().AddEffect([]byte("DEL"), []byte("b"))
	tx.Repl().LeaveCommand(inner)
	tx.Repl().LeaveCommand(from)
	// A command that only marks streams nothing.
	from = tx.Repl().EnterCommand()
	tx.Repl().AddEffect()
	tx.Repl().LeaveCommand(from)
	want := []string{"0:*3 $3 SET $1 a $1 1", "3:*1 $5 MULTI", "3:*2 $4 INCR $1 n", "3:*2 $3 DEL $1 b", "-1:*1 $4 EXEC"}
	if got := effectLines(tx); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("effects %q, want %q", got, want)
	}
	if !tx.Repl().Effects()[1].IsMulti() || tx.Repl().Effects()[0].IsMulti() {
		t.Fatal("IsMulti")
	}
}

func TestEffectsOff(t *testing.T) {
	d := open(t)
	tx, err := Env{Drv: d}.Begin(true, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if tx.Repl().Collecting() {
		t.Fatal("collecting without Env.Effects")
	}
	tx.Repl().AddEffect([]byte("SET"), []byte("a"), []byte("1"))
	w := tx.Repl().Writes()
	if err := tx.SetString([]byte("a"), []byte("1"), 0); err != nil {
		t.Fatal(err)
	}
	if len(tx.Repl().Effects()) != 0 || tx.Repl().Writes() <= w {
		t.Fatalf("effects %d, writes %d -> %d", len(tx.Repl().Effects()), w, tx.Repl().Writes())
	}
}
