package rhash_test

import (
	"testing"

	"github.com/rekv/rekv/actors/store/storetest"
	"github.com/rekv/rekv/actors/types/rhash"
)

func TestSetFieldReportsNew(t *testing.T) {
	tx := storetest.New(t).Begin()
	h, err := rhash.Open(tx, []byte("h"), true)
	if err != nil {
		t.Fatal(err)
	}
	if isNew, err := rhash.SetField(h, []byte("f"), []byte("1")); !isNew || err != nil {
		t.Fatal("first set not new", err)
	}
	if isNew, err := rhash.SetField(h, []byte("f"), []byte("2")); isNew || err != nil {
		t.Fatal("second set new", err)
	}
	if v, ok, err := h.Get([]byte("f")); !ok || err != nil || string(v) != "2" {
		t.Fatalf("f = %q %v %v", v, ok, err)
	}
	if _, err := rhash.Open(tx, []byte("h"), false); err != nil {
		t.Fatal(err)
	}
	if err := tx.SetString([]byte("s"), []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := rhash.Open(tx, []byte("s"), false); err == nil {
		t.Fatal("a string opened as a hash")
	}
}
