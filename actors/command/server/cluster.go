package server

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rekv/rekv/actors/command"
	"github.com/rekv/rekv/actors/rerr"
	"github.com/rekv/rekv/cluster"
	"github.com/rekv/rekv/codec"
	"github.com/rekv/rekv/resp"
)

// CLUSTER, READONLY, READWRITE and ASKING: Redis Cluster's commands, as
// Redis 7.0 answers them, over the node's view of the cluster (package
// cluster). Without cluster mode each answers Redis's refusal. The
// subcommands that configure a Redis Cluster by hand (ADDSLOTS, MEET,
// SETSLOT, FAILOVER...) answer an error that says why: membership and
// slots are automatic.
func clusterCommands() []*command.Spec {
	conn := func(name string, arity int, run func(c *command.Ctx, st *cluster.State, current bool, args [][]byte) error) *command.Spec {
		return &command.Spec{Name: name, Arity: arity, Flags: command.Conn, Parse: func(args [][]byte) (command.Runner, error) {
			return clusterRunner{args: args, run: run}, nil
		}}
	}
	// manual is a subcommand that configures a Redis Cluster by hand:
	// rekv's membership does that itself.
	manual := func(name string, arity int) *command.Spec {
		return conn(name, arity, func(*command.Ctx, *cluster.State, bool, [][]byte) error {
			return rerr.Errorf("ERR CLUSTER %s is not supported: rekv spreads the slots over its live nodes by itself", strings.ToUpper(name))
		})
	}
	return []*command.Spec{
		{Name: "cluster", Arity: -2, Subcommands: []*command.Spec{
			conn("myid", 2, func(c *command.Ctx, st *cluster.State, _ bool, _ [][]byte) error {
				c.W.BulkString(st.Self.ID)
				return nil
			}),
			conn("keyslot", 3, func(c *command.Ctx, _ *cluster.State, _ bool, args [][]byte) error {
				c.W.Int(int64(cluster.KeySlot(args[2])))
				return nil
			}),
			conn("info", 2, clusterInfo),
			conn("slots", 2, clusterSlots),
			conn("shards", 2, clusterShards),
			conn("nodes", 2, clusterNodes),
			conn("links", 2, clusterLinks),
			conn("help", 2, func(c *command.Ctx, _ *cluster.State, _ bool, _ [][]byte) error {
				c.W.SimpleArray(clusterHelp)
				return nil
			}),
			conn("replicas", 3, clusterReplicas),
			conn("slaves", 3, clusterReplicas),
			conn("count-failure-reports", 3, func(c *command.Ctx, st *cluster.State, _ bool, args [][]byte) error {
				if _, ok := st.Members[string(args[2])]; !ok {
					return rerr.Errorf("ERR Unknown node %s", args[2])
				}
				c.W.Int(0) // nodes are judged by their leases, not by reports
				return nil
			}),
			conn("saveconfig", 2, clusterOK), // nothing to save: the cluster's state is in the store
			manual("addslots", -3), manual("addslotsrange", -4), manual("delslots", -3), manual("delslotsrange", -4),
			manual("flushslots", 2), manual("setslot", -4), manual("meet", -4), manual("forget", 3),
			manual("replicate", 3), manual("failover", -2), manual("reset", -2), manual("bumpepoch", 2),
			manual("set-config-epoch", 3),
			{Name: "countkeysinslot", Arity: 3, Flags: command.ReadOnly | command.Keyspace, Parse: parseKeysInSlot(false)},
			{Name: "getkeysinslot", Arity: 4, Flags: command.ReadOnly | command.Keyspace, Parse: parseKeysInSlot(true)},
		}},
		conn("readonly", 1, clusterOK),
		conn("readwrite", 1, clusterOK),
		conn("asking", 1, clusterOK),
	}
}

// clusterRunner runs a cluster command in cluster mode, and refuses it
// otherwise.
type clusterRunner struct {
	args [][]byte
	run  func(c *command.Ctx, st *cluster.State, current bool, args [][]byte) error
}

func (r clusterRunner) Run(c *command.Ctx) error {
	st, current := c.Server.Status.Cluster()
	if st == nil {
		return rerr.ErrClusterDisabled
	}
	return r.run(c, st, current, r.args)
}

// clusterLinks answers CLUSTER LINKS: the node's bus connections (one it
// opened to each other node, one each opened to it), as Redis 7.0 lists
// its cluster bus links: a map per link in RESP3, a flat array in RESP2.
// A link opened to this node that has not named its node yet shows an
// empty node.
func clusterLinks(c *command.Ctx, _ *cluster.State, _ bool, _ [][]byte) error {
	links := c.Server.Status.ClusterLinks()
	c.W.Array(len(links))
	for _, l := range links {
		dir, events := "from", "r"
		if l.To {
			dir, events = "to", "w"
		}
		c.W.Map(6)
		c.W.BulkString("direction")
		c.W.BulkString(dir)
		c.W.BulkString("node")
		c.W.BulkString(l.Node)
		c.W.BulkString("create-time")
		c.W.Int(l.Created.UnixMilli())
		c.W.BulkString("events")
		c.W.BulkString(events)
		c.W.BulkString("send-buffer-allocated")
		c.W.Int(l.Buffer + l.Queued)
		c.W.BulkString("send-buffer-used")
		c.W.Int(l.Queued)
	}
	return nil
}

// clusterReplicas answers CLUSTER REPLICAS (SLAVES): rekv's nodes have
// no replicas (the store keeps the copies).
func clusterReplicas(c *command.Ctx, st *cluster.State, _ bool, args [][]byte) error {
	if _, ok := st.Members[string(args[2])]; !ok {
		return rerr.Errorf("ERR Unknown node %s", args[2])
	}
	c.W.Array(0)
	return nil
}

// clusterOK answers READONLY, READWRITE and ASKING: every node serves
// reads and writes of the slots it owns, and no slot is ever half moved.
func clusterOK(c *command.Ctx, _ *cluster.State, _ bool, _ [][]byte) error {
	c.W.OK()
	return nil
}

// nodeIDs returns the live members' ids, sorted: a node's config epoch
// (CLUSTER NODES) is its place in this order plus one.
func nodeIDs(st *cluster.State) []string {
	ids := make([]string, 0, len(st.Members))
	for id := range st.Members {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// clusterState is "ok" when every slot has a live owner and the node's
// membership is current, else "fail".
func clusterState(st *cluster.State, current bool) (string, int) {
	served := 0
	for s := range cluster.Slots {
		if _, ok := st.Owner(s); ok {
			served++
		}
	}
	if current && served == cluster.Slots {
		return "ok", served
	}
	return "fail", served
}

func clusterInfo(c *command.Ctx, st *cluster.State, current bool, _ [][]byte) error {
	state, served := clusterState(st, current)
	ids := nodeIDs(st)
	sent, received := "0", "0" // the bus's messages (INFO cluster)
	if fields, ok := c.Server.Status.InfoSection("cluster"); ok {
		for _, kv := range fields {
			switch kv[0] {
			case "cluster_bus_messages_sent":
				sent = kv[1]
			case "cluster_bus_messages_received":
				received = kv[1]
			}
		}
	}
	var b strings.Builder
	for _, kv := range [][2]string{
		{"cluster_state", state},
		{"cluster_slots_assigned", strconv.Itoa(served)},
		{"cluster_slots_ok", strconv.Itoa(served)},
		{"cluster_slots_pfail", "0"},
		{"cluster_slots_fail", "0"},
		{"cluster_known_nodes", strconv.Itoa(len(ids))},
		{"cluster_size", strconv.Itoa(owners(st))},
		{"cluster_current_epoch", strconv.FormatUint(st.Map.Epoch, 10)},
		{"cluster_my_epoch", strconv.Itoa(slices.Index(ids, st.Self.ID) + 1)},
		{"cluster_stats_messages_sent", sent},
		{"cluster_stats_messages_received", received},
		{"total_cluster_links_buffer_limit_exceeded", "0"},
	} {
		b.WriteString(kv[0] + ":" + kv[1] + "\r\n")
	}
	c.W.Verbatim(b.String())
	return nil
}

// owners counts the nodes that own at least one slot (cluster_size).
func owners(st *cluster.State) int {
	seen := map[string]bool{}
	for _, r := range st.Map.Ranges() {
		seen[r.Owner] = true
	}
	return len(seen)
}

// clusterSlots answers CLUSTER SLOTS: each run of slots with its owner's
// ip, port, id and (Redis 7.0) a map of its other endpoints: none.
func clusterSlots(c *command.Ctx, st *cluster.State, _ bool, _ [][]byte) error {
	var rs []cluster.Range
	for _, r := range st.Map.Ranges() {
		if _, ok := st.Members[r.Owner]; ok {
			rs = append(rs, r)
		}
	}
	c.W.Array(len(rs))
	for _, r := range rs {
		m := st.Members[r.Owner]
		c.W.Array(3)
		c.W.Int(int64(r.Start))
		c.W.Int(int64(r.End))
		c.W.Array(4)
		c.W.BulkString(m.IP)
		c.W.Int(int64(m.Port))
		c.W.BulkString(m.ID)
		c.W.Map(0)
	}
	return nil
}

// clusterShards answers CLUSTER SHARDS: one shard per node (no
// replicas), with its slot ranges and its details.
func clusterShards(c *command.Ctx, st *cluster.State, _ bool, _ [][]byte) error {
	ids := nodeIDs(st)
	ranges := map[string][]cluster.Range{}
	for _, r := range st.Map.Ranges() {
		ranges[r.Owner] = append(ranges[r.Owner], r)
	}
	c.W.Array(len(ids))
	for _, id := range ids {
		m := st.Members[id]
		c.W.Map(2)
		c.W.BulkString("slots")
		c.W.Array(2 * len(ranges[id]))
		for _, r := range ranges[id] {
			c.W.Int(int64(r.Start))
			c.W.Int(int64(r.End))
		}
		c.W.BulkString("nodes")
		c.W.Array(1)
		c.W.Map(7)
		c.W.BulkString("id")
		c.W.BulkString(m.ID)
		c.W.BulkString("port")
		c.W.Int(int64(m.Port))
		c.W.BulkString("ip")
		c.W.BulkString(m.IP)
		c.W.BulkString("endpoint")
		c.W.BulkString(m.IP)
		c.W.BulkString("role")
		c.W.BulkString("master")
		c.W.BulkString("replication-offset")
		c.W.Int(0)
		c.W.BulkString("health")
		c.W.BulkString("online")
	}
	return nil
}

// clusterNodes answers CLUSTER NODES: a line per live node, Redis's
// format (id, ip:port@cport, flags, master, ping sent, pong received,
// config epoch, link state, slot ranges).
func clusterNodes(c *command.Ctx, st *cluster.State, _ bool, _ [][]byte) error {
	ids := nodeIDs(st)
	ranges := map[string][]string{}
	for _, r := range st.Map.Ranges() {
		s := strconv.Itoa(r.Start)
		if r.End != r.Start {
			s += "-" + strconv.Itoa(r.End)
		}
		ranges[r.Owner] = append(ranges[r.Owner], s)
	}
	var b strings.Builder
	for i, id := range ids {
		m := st.Members[id]
		flags, pong := "master", strconv.FormatInt(c.Now, 10)
		if id == st.Self.ID {
			flags, pong = "myself,master", "0"
		}
		b.WriteString(id + " " + m.Addr() + "@" + strconv.Itoa(m.BusPort) + " " + flags + " - 0 " + pong + " " +
			strconv.Itoa(i+1) + " connected")
		for _, r := range ranges[id] {
			b.WriteString(" " + r)
		}
		b.WriteString("\n")
	}
	c.W.Verbatim(b.String())
	return nil
}

// CLUSTER COUNTKEYSINSLOT slot / GETKEYSINSLOT slot count: the keys of
// database 0 in a slot. rekv keeps no index by slot: both walk every key.
type keysInSlot struct {
	slot  int
	count int64 // getkeysinslot's bound; -1 for countkeysinslot
}

func parseKeysInSlot(get bool) func(args [][]byte) (command.Runner, error) {
	return func(args [][]byte) (command.Runner, error) {
		slot, ok := resp.ParseInt(args[2])
		if !get {
			if !ok || slot < 0 || slot >= cluster.Slots {
				return nil, rerr.Errorf("ERR Invalid slot")
			}
			return keysInSlot{slot: int(slot), count: -1}, nil
		}
		count, okCount := resp.ParseInt(args[3])
		if !ok || !okCount || slot < 0 || slot >= cluster.Slots || count < 0 {
			return nil, rerr.Errorf("ERR Invalid slot or number of keys")
		}
		return keysInSlot{slot: int(slot), count: count}, nil
	}
}

func (k keysInSlot) Run(c *command.Ctx) error {
	if st, _ := c.Server.Status.Cluster(); st == nil {
		return rerr.ErrClusterDisabled
	}
	var keys [][]byte
	n := int64(0)
	err := c.Tx.ScanMeta(nil, func(key []byte, _ codec.Meta) (bool, error) {
		if k.count >= 0 && n >= k.count {
			return false, nil
		}
		if cluster.KeySlot(key) == k.slot {
			n++
			if k.count >= 0 {
				keys = append(keys, command.Copy(key))
			}
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	if k.count < 0 {
		c.W.Int(n)
		return nil
	}
	c.W.Array(len(keys))
	for _, key := range keys {
		c.W.Bulk(key)
	}
	return nil
}

// clusterHelp is CLUSTER HELP's text: the subcommands rekv has.
var clusterHelp = []string{
	"CLUSTER <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
	"COUNTKEYSINSLOT <slot>",
	"    Return the number of keys in <slot>.",
	"GETKEYSINSLOT <slot> <count>",
	"    Return key names stored by current node in a slot.",
	"INFO",
	"    Return information about the cluster.",
	"KEYSLOT <key>",
	"    Return the hash slot for <key>.",
	"MYID",
	"    Return the node id.",
	"NODES",
	"    Return cluster configuration seen by node. Output format:",
	"    <id> <ip:port> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...",
	"SLOTS",
	"    Return information about slots range mappings. Each range is made of:",
	"    start, end, master and replicas IP addresses, ports and ids",
	"SHARDS",
	"    Return information about slot range mappings and the nodes associated with them.",
	"LINKS",
	"    Return information about all network links between this node and its peers.",
	"    Output format is an array where each array element is a map containing attributes of a link",
	"HELP",
	"    Prints this help.",
}
