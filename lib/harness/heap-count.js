'use strict'
// Bytes allocated on V8's heap over a stretch of code, and the time its
// garbage collections took: the heap's growth plus what every GC in between
// freed (v8.GCProfiler gives the used size before and after each GC, and
// its cost). Node 26 counts allocations itself (total_allocated_bytes); the
// sum agreed with it within 0.5% on sections of 30 and 53 MB of small arrays
// (node 26.12), and was 9% under it on a first section that also compiled
// its loop (code and feedback are allocated outside what GCs free); it
// works on every node from 18.15.
// Runs inside the binary under test: Node 18 APIs only.
const v8 = require('node:v8')

/**
 * @typedef {{bytes: number, gcMs: number, gcs: number, maxRssKb: number}} HeapCount
 *   bytes allocated, GC time in ms, GC count, the process's max RSS so far (kB)
 */

/**
 * The sum of one GCProfiler run's statistics.
 * @param {{statistics?: {cost?: number, beforeGC?: any, afterGC?: any}[]}|undefined} data
 */
function sumGcs (data) {
  let freed = 0
  let costUs = 0
  const stats = (data && data.statistics) || []
  for (const s of stats) {
    freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize
    costUs += s.cost || 0
  }
  return { freed, gcMs: costUs / 1000, gcs: stats.length }
}

/**
 * Starts counting; the returned function stops and returns the count.
 * Reads nothing in between, so the code counted pays only for the GC
 * callbacks (a few µs per GC).
 * @returns {() => HeapCount}
 */
function startHeapCount () {
  const profiler = new v8.GCProfiler()
  profiler.start()
  const used0 = v8.getHeapStatistics().used_heap_size
  return function stop () {
    const used1 = v8.getHeapStatistics().used_heap_size
    const { freed, gcMs, gcs } = sumGcs(profiler.stop())
    return { bytes: Math.max(0, used1 - used0 + freed), gcMs, gcs, maxRssKb: process.resourceUsage().maxRSS }
  }
}

/**
 * The report fields of a count (extra columns of compare, fields of NDJSON).
 * @param {HeapCount} c
 * @param {string} [prefix] 'server_' for what the server of bench.http() did
 */
function heapFields (c, prefix = '') {
  return {
    [`${prefix}alloc_bytes`]: c.bytes,
    [`${prefix}gc_ms`]: Math.round(c.gcMs * 1000) / 1000,
    [`${prefix}gc_count`]: c.gcs,
    [`${prefix}max_rss_kb`]: c.maxRssKb
  }
}

module.exports = { startHeapCount, sumGcs, heapFields }
