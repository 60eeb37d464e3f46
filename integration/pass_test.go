package integration

import (
	"bufio"
	"fmt"
	stdnet "net"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestManyClientsShareLoopPasses: clients pipelining at once, whose
// commands an event loop runs together in place of idle shards (a loop
// pass shares group commits among clients and ends after the wake-up's
// events), each read their own writes in order, no reply is lost or
// stuck, and a shared counter counts every INCR. Single- and multi-shard
// commands alternate, so passes end early for commands that cannot join.
func TestManyClientsShareLoopPasses(t *testing.T) {
	forEachDriverParallel(t, func(t *testing.T, addr string) {
		const clients, rounds = 12, 40
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for i := 0; i < clients; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				if err := passClient(addr, i, rounds); err != nil {
					errs <- fmt.Errorf("client %d: %w", i, err)
				}
			}(i)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		r := dialRaw(t, addr)
		if got, want := r.do("GET", "ctr"), fmt.Sprintf("$%d\r\n%d\r\n", len(strconv.Itoa(clients*rounds)), clients*rounds); got != want {
			t.Fatalf("counter %q, want %q", got, want)
		}
	})
}

// passClient runs one client's rounds of TestManyClientsShareLoopPasses.
func passClient(addr string, i, rounds int) error {
	c, err := stdnet.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(90 * time.Second))
	br := bufio.NewReader(c)
	k, a, b, own := fmt.Sprintf("k%d", i), fmt.Sprintf("m%da", i), fmt.Sprintf("m%db", i), fmt.Sprintf("own%d", i)
	for r := 0; r < rounds; r++ {
		v := strconv.Itoa(r)
		bulk := fmt.Sprintf("$%d\r\n%s\r\n", len(v), v)
		n := strconv.Itoa(r + 1)
		cmds := []struct {
			line []string
			want string
		}{
			{[]string{"SET", k, v}, "+OK\r\n"},
			{[]string{"INCR", "ctr"}, ""},
			{[]string{"GET", k}, bulk},
			{[]string{"MSET", a, v, b, v}, "+OK\r\n"},
			{[]string{"MGET", a, b}, "*2\r\n" + bulk + bulk},
			{[]string{"INCR", own}, ":" + n + "\r\n"},
			{[]string{"GET", own}, fmt.Sprintf("$%d\r\n%s\r\n", len(n), n)},
		}
		var out string
		for _, cmd := range cmds {
			out += encode(cmd.line...)
		}
		if _, err := c.Write([]byte(out)); err != nil {
			return err
		}
		for _, cmd := range cmds {
			got, err := readReply(br)
			if err != nil {
				return fmt.Errorf("round %d, %v: %w", r, cmd.line, err)
			}
			if cmd.want != "" && got != cmd.want {
				return fmt.Errorf("round %d, %v: %q, want %q", r, cmd.line, got, cmd.want)
			}
		}
	}
	return nil
}
