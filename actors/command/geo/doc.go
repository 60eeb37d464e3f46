// Package geo implements the geo commands on sorted sets whose scores are
// Redis's 52-bit geohashes (actors/types/rgeo): GEOADD, GEOPOS, GEODIST
// and GEOHASH. GEOADD is ZADD with computed scores, and announces "zadd"
// like Redis.
package geo
