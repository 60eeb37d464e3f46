package integration

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestGeoMatchesRedis adds 2,000 random places on redis-server and on rekv
// and requires the same scores, positions, geohashes and distances, digit
// for digit.
func TestGeoMatchesRedis(t *testing.T) {
	ctx := context.Background()
	redisAddr := redisServer(t)
	red := newClient(t, redisAddr, 2)
	rk := newClient(t, startNode(t, "badger", nil).Addr(), 3)
	red3 := newClient(t, redisAddr, 3)
	must(t, red.FlushAll(ctx).Err())
	rng := rand.New(rand.NewPCG(21, 22))
	args := []any{"geoadd", "g"}
	var names []any
	for i := 0; i < 2000; i++ {
		lon := rng.Float64()*360 - 180
		lat := rng.Float64()*170.1 - 85.05
		name := fmt.Sprint("p", i)
		args = append(args, fmt.Sprintf("%.7f", lon), fmt.Sprintf("%.7f", lat), name)
		names = append(names, name)
	}
	for _, c := range []*redis.Client{red, rk} {
		must(t, c.Do(ctx, args...).Err())
	}
	same := func(what string, cmd ...any) {
		t.Helper()
		// RESP3 on both sides: GEOPOS coordinates come as doubles.
		w, werr := red3.Do(ctx, cmd...).Result()
		g, gerr := rk.Do(ctx, cmd...).Result()
		if fmt.Sprint(w, werr) != fmt.Sprint(g, gerr) {
			t.Fatalf("%s differs:\n redis %.300v %v\n  rekv %.300v %v", what, w, werr, g, gerr)
		}
	}
	same("scores", "zrange", "g", 0, -1, "withscores")
	same("positions", append([]any{"geopos", "g"}, names...)...)
	same("geohashes", append([]any{"geohash", "g"}, names...)...)
	for i := 0; i < 500; i++ {
		a, b := names[rng.IntN(len(names))], names[rng.IntN(len(names))]
		same("distance", "geodist", "g", a, b, []string{"m", "km", "mi", "ft"}[i%4])
	}
	// Searches around random places, of every size: the same members in
	// the same order (unsorted too: the cells are scanned in Redis's
	// order), the same printed distances.
	for i := 0; i < 300; i++ {
		lon := fmt.Sprintf("%.5f", rng.Float64()*360-180)
		lat := fmt.Sprintf("%.5f", rng.Float64()*170-85)
		r := fmt.Sprintf("%.1f", math.Pow(10, 1+rng.Float64()*4))
		same("GEOSEARCH radius", "geosearch", "g", "fromlonlat", lon, lat, "byradius", r, "km", "withdist", "withhash")
		same("GEOSEARCH box", "geosearch", "g", "fromlonlat", lon, lat, "bybox", r, fmt.Sprint(rng.IntN(3000)+1), "km", "asc", "withdist")
		same("GEORADIUSBYMEMBER", "georadiusbymember", "g", names[rng.IntN(len(names))], r, "km", "count", 5, "withcoord")
	}
	// STOREDIST keeps full-precision distances, which may differ from
	// Redis's in the last bit: equal to 1e-9 relative.
	must(t, red.Do(ctx, "georadius", "g", 10, 10, 3000, "km", "storedist", "d").Err())
	must(t, rk.Do(ctx, "georadius", "g", 10, 10, 3000, "km", "storedist", "d").Err())
	w := red.ZRangeWithScores(ctx, "d", 0, -1).Val()
	g := rk.ZRangeWithScores(ctx, "d", 0, -1).Val()
	if len(w) != len(g) || len(w) == 0 {
		t.Fatalf("STOREDIST: %d members on redis, %d on rekv", len(w), len(g))
	}
	for i := range w {
		if w[i].Member != g[i].Member || math.Abs(w[i].Score-g[i].Score) > 1e-9*w[i].Score {
			t.Fatalf("STOREDIST %d: redis %v, rekv %v", i, w[i], g[i])
		}
	}
}
