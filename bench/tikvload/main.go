// Command tikvload is the raw client-go load that bench/tikv.sh sets
// beside rekv: the given number of goroutines each run one-key
// transactions (a read: Get in a fresh transaction; a write: Set and
// commit) against a TiKV cluster for a fixed time, on random keys of a
// keyspace in a namespace of their own, and it prints the transactions
// per second. This is what the store alone gives one client process at
// that concurrency. client-go logs to standard output and error; the
// result is the one line with "txn/s".
//
//	go run ./bench/tikvload -pd 127.0.0.1:2379 -op read -c 50 -d 10s
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
)

func main() {
	pd := flag.String("pd", "127.0.0.1:2379", "PD endpoints, comma separated")
	op := flag.String("op", "read", "read or write")
	clients := flag.Int("c", 50, "concurrent transactions")
	dur := flag.Duration("d", 10*time.Second, "how long to run")
	keys := flag.Int("keys", 100000, "keyspace size")
	flag.Parse()
	if err := run(strings.Split(*pd, ","), *op, *clients, *dur, *keys); err != nil {
		fmt.Fprintln(os.Stderr, "tikvload:", err)
		os.Exit(1)
	}
}

func run(pd []string, op string, clients int, dur time.Duration, keys int) error {
	if op != "read" && op != "write" {
		return fmt.Errorf("-op must be read or write, not %q", op)
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
				key := []byte(fmt.Sprintf("%skey:%d", ns, rand.IntN(keys)))
				tx, err := c.Begin()
				if err == nil {
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
	fmt.Printf("%s c=%d: %.0f txn/s (%d failed)\n", op, clients, float64(done.Load())/dur.Seconds(), failed.Load())
	return nil
}
