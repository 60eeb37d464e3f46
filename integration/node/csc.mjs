// Client-side caching through node-redis (RESP3, BasicClientSideCache)
// against the server at 127.0.0.1:$REDIS_PORT: reads are served from the
// local cache until the server's invalidation arrives, and a read after a
// write never returns the old value. Exits non-zero on the first failure.
import assert from 'node:assert/strict';
import { createClient, BasicClientSideCache } from 'redis';

const port = Number(process.env.REDIS_PORT);
const socket = { host: '127.0.0.1', port, connectTimeout: 5000 };
const cache = new BasicClientSideCache({ ttl: 0, maxEntries: 0 });
const invalidated = [];
cache.on('invalidate', (key) => invalidated.push(key === null ? null : key.toString()));

const client = createClient({ socket, RESP: 3, clientSideCache: cache });
const writer = createClient({ socket });
client.on('error', (e) => { console.error('client error', e); process.exit(1); });
writer.on('error', (e) => { console.error('writer error', e); process.exit(1); });
await writer.connect();
await writer.flushAll(); // before the client tracks: no null invalidation to tell apart
await client.connect();

// waitInvalidated resolves once key (null: a flush) was invalidated,
// failing after 5 s.
async function waitInvalidated(key) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const i = invalidated.indexOf(key);
    if (i >= 0) {
      invalidated.splice(i, 1);
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`no invalidation for ${key}; got ${JSON.stringify(invalidated)}`);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

const stats = () => cache.stats();

// A read is a miss, the same read again a hit.
await writer.set('csc:k', 'v1');
assert.equal(await client.get('csc:k'), 'v1');
assert.equal(await client.get('csc:k'), 'v1');
assert.equal(stats().hitCount, 1, 'second GET served from the cache');
assert.equal(stats().missCount, 1);

// Another connection's write invalidates it; the next read is fresh.
await writer.set('csc:k', 'v2');
await waitInvalidated('csc:k');
assert.equal(await client.get('csc:k'), 'v2');
assert.equal(stats().missCount, 2);

// Other types and other commands.
await writer.hSet('csc:h', 'f', '1');
assert.deepEqual({ ...(await client.hGetAll('csc:h')) }, { f: '1' });
assert.deepEqual({ ...(await client.hGetAll('csc:h')) }, { f: '1' });
await writer.hSet('csc:h', 'g', '2');
await waitInvalidated('csc:h');
assert.deepEqual({ ...(await client.hGetAll('csc:h')) }, { f: '1', g: '2' });
await writer.rPush('csc:l', ['a', 'b']);
assert.deepEqual(await client.lRange('csc:l', 0, -1), ['a', 'b']);
await writer.lPop('csc:l');
await waitInvalidated('csc:l');
assert.deepEqual(await client.lRange('csc:l', 0, -1), ['b']);

// The client's own write invalidates what it cached.
assert.equal(await client.get('csc:k'), 'v2');
await client.set('csc:k', 'mine');
await waitInvalidated('csc:k');
assert.equal(await client.get('csc:k'), 'mine');

// A flush invalidates everything at once.
await writer.flushAll();
await waitInvalidated(null);
assert.equal(await client.get('csc:k'), null);

// Write, then read: never a stale value (bounded: 300 rounds).
for (let i = 0; i < 300; i++) {
  await writer.set('csc:n', String(i));
  if (i > 0) await waitInvalidated('csc:n');
  assert.equal(await client.get('csc:n'), String(i), `round ${i}`);
  assert.equal(await client.get('csc:n'), String(i), `round ${i} cached`);
}
const s = stats();
assert.ok(s.hitCount >= 300, `hits: ${s.hitCount}`);

await client.quit();
await writer.quit();
console.log(`ok hits=${s.hitCount} misses=${s.missCount}`);
