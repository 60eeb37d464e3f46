// Cluster clients — ioredis's Cluster and node-redis's createCluster —
// against the nodes at $REDIS_NODES (host:port,...), seeded with the first
// only: they must find the others from CLUSTER SLOTS, follow MOVED, and
// get CROSSSLOT for multi-key commands across slots. Exits non-zero on
// the first failure.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { createCluster } from 'redis';

const nodes = process.env.REDIS_NODES.split(',').map((a) => {
  const [host, port] = a.split(':');
  return { host, port: Number(port) };
});
const keys = 300;

// ioredis
const io = new Redis.Cluster([nodes[0]], { redisOptions: { connectTimeout: 5000 } });
io.on('error', (e) => { console.error('ioredis error', e); process.exit(1); });
for (let i = 0; i < keys; i++) await io.set(`io:${i}`, String(i));
for (let i = 0; i < keys; i++) assert.equal(await io.get(`io:${i}`), String(i));
assert.equal(io.nodes('master').length, nodes.length, 'ioredis found every node');
await io.mset('{tag}a', '1', '{tag}b', '2');
assert.deepEqual(await io.mget('{tag}a', '{tag}b'), ['1', '2']);
await assert.rejects(io.mset('io:1', 'x', 'io:2', 'y'), /CROSSSLOT/);
const tx = await io.multi().incr('{tag}n').incr('{tag}n').exec();
assert.deepEqual(tx, [[null, 1], [null, 2]]);
const pipe = await io.pipeline().set('{p}x', 'a').get('{p}x').exec();
assert.deepEqual(pipe, [[null, 'OK'], [null, 'a']]);
await io.quit();

// node-redis
const nr = createCluster({ rootNodes: [{ socket: nodes[0] }] });
nr.on('error', (e) => { console.error('node-redis error', e); process.exit(1); });
await nr.connect();
for (let i = 0; i < keys; i++) await nr.set(`nr:${i}`, String(i));
for (let i = 0; i < keys; i++) assert.equal(await nr.get(`nr:${i}`), String(i));
assert.equal(nr.masters.length, nodes.length, 'node-redis found every node');
assert.equal(await nr.get('io:7'), '7', 'what ioredis wrote');
await nr.close();
console.log(`ok: ${keys} keys through each client over ${nodes.length} nodes`);
