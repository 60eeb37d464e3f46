package node

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rekv/rekv/conf"
)

// configValue returns a parameter's value now (CONFIG GET name).
func (n *Node) configValue(name string) string {
	for _, kv := range n.net.Roles().Config.ConfigGet([][]byte{[]byte(name)}) {
		return kv[1]
	}
	return ""
}

// syncDir is where a replica keeps its master's RDB file while it loads
// it: Badger's data directory (the file is as big as the data set).
func syncDir(s conf.Storage) string {
	if s.Driver == "badger" && s.Badger.Dir != "" {
		return s.Badger.Dir
	}
	return os.TempDir()
}

// followConfigured starts replicating the master the replicaof parameter
// names ("host port"), if any.
func (n *Node) followConfigured() error {
	v := strings.Fields(n.configValue("replicaof"))
	if len(v) == 0 {
		return nil
	}
	port, err := strconv.Atoi(v[len(v)-1])
	if len(v) != 2 || err != nil || port < 0 || port > 65535 {
		return fmt.Errorf("replicaof: want \"host port\", got %q", n.configValue("replicaof"))
	}
	_, err = n.repl.Follow(v[0], port)
	return err
}

// pauseWrites holds clients' writes during a FAILOVER (as CLIENT PAUSE
// WRITE), or lets them go.
func (n *Node) pauseWrites(on bool) {
	if on {
		n.net.Pause(time.Now().Add(365*24*time.Hour), true)
		return
	}
	n.net.Unpause()
}
