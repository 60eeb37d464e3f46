package gc_test

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkGCReclaim measures sub-keys reclaimed per second: each iteration
// deletes a 100,000-field hash and times the GC draining it.
func BenchmarkGCReclaim(b *testing.B) {
	n, c := start(b, time.Hour, nil)
	ctx := context.Background()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for j := 0; j < 100; j++ {
			args := make([]any, 0, 2000)
			for k := 0; k < 1000; k++ {
				args = append(args, fmt.Sprint("f", j*1000+k), "v")
			}
			c.HSet(ctx, "big", args...)
		}
		c.Del(ctx, "big")
		b.StartTimer()
		t0 := time.Now()
		drain(b, n, 1000)
		total += time.Since(t0)
	}
	b.ReportMetric(float64(100_000*b.N)/total.Seconds(), "subkeys/s")
}

// BenchmarkGCExpire measures keys expired per second: each iteration lets
// 20,000 keys expire and times the GC removing them through the shards.
func BenchmarkGCExpire(b *testing.B) {
	n, c := start(b, time.Hour, nil)
	ctx := context.Background()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		p := c.Pipeline()
		for k := 0; k < 20_000; k++ {
			p.Set(ctx, fmt.Sprint("k", k), "v", time.Millisecond)
		}
		if _, err := p.Exec(ctx); err != nil {
			b.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		b.StartTimer()
		t0 := time.Now()
		drain(b, n, 1000)
		total += time.Since(t0)
	}
	b.ReportMetric(float64(20_000*b.N)/total.Seconds(), "keys/s")
}
