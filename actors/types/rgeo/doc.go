// Package rgeo is the geo layer over sorted sets: Redis's 52-bit geohash
// scores (interleaved latitude and longitude bits, 26 steps each), their
// decoding to the centre of the cell, the geohash strings and the
// haversine distance, computed as Redis does so that scores, positions and
// distances print the same.
//
// Invariants:
//   - A member's score is its geohash as an integer below 2^52, exact in a
//     float64; latitude bits sit at even positions, longitude at odd.
//   - Coordinates decode to the middle of the member's cell, clamped to
//     the valid ranges, not to the values given to GEOADD.
package rgeo
