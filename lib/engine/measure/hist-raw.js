'use strict'
// --hist-raw FILE: the latency histogram as gocannon's hist mode writes it
// (`gocannon --mode hist -o FILE`): one line per 1 µs bin from 0 µs up to
// the last bin that holds a request, each line the number of requests whose
// latency fell in [i, i+1) µs. A column of counts any tool reads (R:
// `scan("FILE")`, numpy: `loadtxt`), beside the HdrHistogram forms
// (--hist-out, the JSON's `histogram`).
//
// The bins come from the run's HdrHistogram, which records whole µs at 3
// significant digits: below 2048 µs each of its buckets is exactly one µs
// wide, so the file is exact there; above, a bucket spans 2, 4, 8 ... µs
// (0.1 % of its value at most) and its count is written at the bucket's
// lowest value, the others of its span being 0. Recording a second, exact
// array would cost every request a store and megabytes per worker for a
// difference below the histogram's own resolution.
const fs = require('node:fs')
const { decode } = require('./hdr-codec.js')
const { UsageError } = require('../../errors.js')

const LINES_PER_WRITE = 65536

/**
 * The 1 µs bins of a histogram, up to its last non-empty one.
 * @param {import('./histogram.js').Histogram} h
 * @returns {Float64Array} counts by µs
 */
function rawBins (h) {
  if (h.totalCount === 0) return new Float64Array(0)
  const last = h.lastIndex()
  const bins = new Float64Array(h.valueFromIndex(last) + 1)
  const c = h.counts
  for (let i = 0; i <= last; i++) if (c[i] > 0) bins[h.valueFromIndex(i)] += c[i]
  return bins
}

/**
 * Writes a result's histogram (HdrHistogram V2 base64) as 1 µs bins.
 * @param {string} file
 * @param {string} encoded
 * @returns {number} lines written
 */
function writeHistRaw (file, encoded) {
  const bins = rawBins(decode(encoded))
  let fd
  try {
    fd = fs.openSync(file, 'w')
    // in slices: a 10 s latency is ten million lines
    for (let from = 0; from < bins.length; from += LINES_PER_WRITE) {
      const slice = bins.subarray(from, Math.min(bins.length, from + LINES_PER_WRITE))
      fs.writeSync(fd, slice.join('\n') + '\n')
    }
  } catch (err) {
    throw new UsageError(`--hist-raw ${file}: cannot write the histogram (${err.code ?? err.message})`)
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
  return bins.length
}

module.exports = { rawBins, writeHistRaw }
