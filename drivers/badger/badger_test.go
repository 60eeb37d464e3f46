package badger

import (
	"testing"
	"time"

	"github.com/rekv/rekv/drivers"
	"github.com/rekv/rekv/drivers/driverstest"
)

func TestConformanceInMemory(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{InMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

func TestConformanceOnDisk(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.Driver {
		d, err := Open(Options{Dir: t.TempDir(), Durability: DurabilityEverySec})
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

// TestVersionsSurviveRestartWithClockBack reopens a store with a clock an hour
// in the past and checks versions still grow.
func TestVersionsSurviveRestartWithClockBack(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(Options{Dir: dir, Durability: DurabilityNo})
	if err != nil {
		t.Fatal(err)
	}
	var last uint64
	for i := 0; i < 100; i++ {
		if last, err = d.NextVersion(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(Options{Dir: dir, Durability: DurabilityNo})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.now = func() time.Time { return time.Now().Add(-time.Hour) }
	v, err := d.NextVersion()
	if err != nil {
		t.Fatal(err)
	}
	if v <= last {
		t.Fatalf("version after restart %d <= %d", v, last)
	}
}

// TestDurabilityAtRunTime: every level can be set while the store runs
// (CONFIG SET appendfsync) and writes commit and survive a restart under
// each; an unknown level is refused.
func TestDurabilityAtRunTime(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(Options{Dir: dir, Durability: DurabilityEverySec})
	if err != nil {
		t.Fatal(err)
	}
	for i, level := range []string{DurabilityAlways, DurabilityNo, DurabilityEverySec} {
		if err := d.SetDurability(level); err != nil {
			t.Fatal(err)
		}
		tx, _ := d.Begin(true)
		if err := tx.Set([]byte{'k', byte('0' + i)}, []byte(level)); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("commit under %s: %v", level, err)
		}
	}
	if err := d.SetDurability("sometimes"); err == nil {
		t.Fatal("unknown durability accepted")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(Options{Dir: dir, Durability: DurabilityNo})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tx, _ := d.Begin(false)
	defer tx.Rollback()
	for i, level := range []string{DurabilityAlways, DurabilityNo, DurabilityEverySec} {
		v, err := tx.Get([]byte{'k', byte('0' + i)})
		if err != nil || string(v) != level {
			t.Fatalf("after restart k%d = %q, %v", i, v, err)
		}
	}
}
