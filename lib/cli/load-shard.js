'use strict'
// `benchrig load --shard I/N|auto` and `--start-at EPOCH_MS`: one generator
// of several on different machines. The shard takes its part of the totals
// the way the engine shares them over its workers (lib/engine/split.js:
// near-equal whole parts, the first ones one larger, nothing dropped), so
// that `benchrig merge` of the shards' JSON is the run the totals describe;
// --start-at makes every shard begin at the same wall-clock instant (the
// engine waits for it once its connections and workers are set up:
// lib/engine/start-at.js).
const { split } = require('../engine/split.js')
const { UsageError } = require('../errors.js')
const { parseCount } = require('../engine/options/units.js')

/**
 * A whole number >= 1 from a flag's raw value, or undefined (left to the engine's checks).
 * @param {unknown} raw
 */
function whole (raw) {
  if (raw === undefined || raw === null) return undefined
  try {
    return parseCount(raw, 'shard') // SI forms too: -c 1k over 4 shards is 250 each
  } catch {
    return undefined
  }
}

/**
 * This shard's options: -c, -a, -O and --burst split over the shards; -R in
 * proportion to this shard's connections (as for workers); -r stays per
 * connection, so it follows the connections by itself.
 * @template {Record<string, any>} T
 * @param {T} opts the CLI's raw options (strings)
 * @param {{index: number, count: number}} shard
 * @returns {T}
 */
function shardLoadOptions (opts, shard) {
  /** @param {string} raw @param {string} flag */
  const part = (raw, flag) => {
    const n = whole(raw)
    if (n === undefined) return raw
    const mine = split(n, shard.count)[shard.index]
    if (mine < 1) throw new UsageError(`${flag} ${raw} over ${shard.count} shards leaves shard ${shard.index} none: give ${flag} ${shard.count} or more, or fewer shards`)
    return String(mine)
  }
  /** @type {Record<string, any>} */
  const out = { ...opts }
  const total = whole(opts.connections ?? '10')
  out.connections = part(opts.connections ?? '10', '-c/--connections')
  if (opts.amount !== undefined) out.amount = part(opts.amount, '-a/--amount')
  if (opts.maxOverallRequests !== undefined) out.maxOverallRequests = part(opts.maxOverallRequests, '-O/--max-overall-requests')
  if (opts.burst !== undefined) out.burst = part(opts.burst, '--burst')
  let rate = NaN
  try {
    rate = parseCount(opts.overallRate, '-R/--overall-rate', { whole: false })
  } catch {
    // left to the engine's check and message
  }
  if (opts.overallRate !== undefined && rate > 0 && total !== undefined) out.overallRate = String(rate * Number(out.connections) / total)
  return /** @type {T} */ (out)
}

/**
 * Parses --start-at: epoch milliseconds, at most a day ahead.
 * @param {string|undefined} raw
 * @param {number} now epoch ms
 * @returns {number|undefined}
 */
function parseStartAt (raw, now) {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(String(raw))) throw new UsageError(`--start-at ${raw}: give the start as epoch milliseconds, e.g. --start-at $(( $(date +%s%3N) + 5000 ))`)
  const at = Number(raw)
  if (at - now > 24 * 3600 * 1000) throw new UsageError(`--start-at ${raw}: more than a day ahead (${new Date(at).toISOString()}); give epoch milliseconds, not microseconds`)
  return at
}

module.exports = { shardLoadOptions, parseStartAt }
