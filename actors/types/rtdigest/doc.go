// Package rtdigest is the t-digest type (codec.TypeTDigest) on a store
// transaction, as RedisBloom's works (its t-digest-c library, a merging
// digest): a buffer of Cap = 6 x compression + 10 nodes, each a mean and
// a weight; an observation is appended as a node of weight 1, and when
// the nodes reach Cap-1 the digest compresses: it sorts them by mean and
// merges neighbours while their weight stays under the k1 scale's bound
// (compression / (2 pi W ln W) x weight <= q(1-q) at both ends).
// Quantiles, CDF and trimmed means interpolate between centroids as
// RedisBloom does, treating a centroid of weight 1 as a point and the
// observations at min and max as points, so replies match Redis 8's
// where the nodes are the same.
//
// Digest is the pure algorithm on nodes in memory; Sketch keeps one in
// storage: the header (counts, weights, min, max) in one sub-key, the
// nodes 4 to a chunk of codec.TDigestChunk bytes, so an addition reads
// and writes the header and one chunk, and only a compression or a read
// loads every node. Reads compress a copy and store nothing.
//
// One difference: RedisBloom sorts nodes with an unstable introsort;
// rekv's sort is stable, which can split centroids of equal means
// differently (the estimates stay within the digest's accuracy).
package rtdigest
