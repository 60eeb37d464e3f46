package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tikverr "github.com/tikv/client-go/v2/error"
	"github.com/tikv/client-go/v2/txnkv"
	"github.com/tikv/client-go/v2/txnkv/transaction"
)

func main() {
	pd := flag.String("pd", "127.0.0.1:2379", "PD endpoints, comma separated")
	op := flag.String("op", "read", "read or write")
	clients := flag.Int("c", 50, "concurrent transactions")
	dur := flag.Duration("d", 10*time.Second, "how long to run")
	keys := flag.Int("keys", 100000, "keyspace size")
	batch := flag.Int("batch", 1, "keys per write transaction (read in one BatchGet, then written)")
	flag.Parse()
	if err := run(strings.Split(*pd, ","), *op, *clients, *dur, *keys, *batch); err != nil {
		fmt.Fprintln(os.Stderr, "tikvload:", err)
		os.Exit(1)
	}
}

func run(pd []string, op string, clients int, dur time.Duration, keys, batch int) error {
	if op != "read" && op != "write" {
		return fmt.Errorf("-op must be read or write, not %q", op)
	}
	if batch < 1 {
		return fmt.Errorf("-batch must be at least 1, not %d", batch)
	}
	c, err := txnkv.NewClient(pd)
	if err != nil {
		return err
	}
	defer c.Close()
	ns := fmt.Sprintf("tikvload/%d/", time.Now().UnixNano())
	ctx := context.Background()
	var done, failed atomic.Int64
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			val := []byte("xxx")
			for time.Now().Before(deadline) {
				tx, err := c.Begin()
				if err == nil && batch > 1 && op == "write" {
					err = writeBatch(ctx, tx, ns, keys, batch, val)
				} else if err == nil {
					key := []byte(fmt.Sprintf("%skey:%d", ns, rand.IntN(keys)))
					if op == "read" {
						_, err = tx.Get(ctx, key)
						if tikverr.IsErrNotFound(err) {
							err = nil
						}
						_ = tx.Rollback()
					} else if err = tx.Set(key, val); err == nil {
						err = tx.Commit(ctx)
					}
				}
				if err != nil {
					failed.Add(1)
					continue
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	rate := float64(done.Load()) / dur.Seconds()
	if batch > 1 && op == "write" {
		fmt.Printf("%s c=%d batch=%d: %.0f txn/s, %.0f keys/s (%d failed)\n", op, clients, batch, rate, rate*float64(batch), failed.Load())
		return nil
	}
	fmt.Printf("%s c=%d: %.0f txn/s (%d failed)\n", op, clients, rate, failed.Load())
	return nil
}

// writeBatch reads n random keys in one BatchGet, writes them and
// commits tx.
func writeBatch(ctx context.Context, tx *transaction.KVTxn, ns string, keys, n int, val []byte) error {
	ks := make([][]byte, n)
	for i := range ks {
		ks[i] = []byte(fmt.Sprintf("%skey:%d", ns, rand.IntN(keys)))
	}
	if _, err := tx.BatchGet(ctx, ks); err != nil {
		_ = tx.Rollback()
		return err
	}
	for _, k := range ks {
		if err := tx.Set(k, val); err != nil {
			_ = tx.Rollback()
			return err
		}
	}
	return tx.Commit(ctx)
}
