'use strict'
// A log-linear latency histogram with HdrHistogram's bucket layout (so its
// V2 encoding is readable by any HdrHistogram implementation), kept in one
// Float64Array so that recording is an index computation and an increment,
// and merging two histograms is an exact element-wise sum.
//
// Layout for 3 significant digits and a 1 µs unit: 2048 sub-buckets per
// bucket, the upper half of each bucket doubling the value range of the
// previous one. Values are integers (µs); highest trackable is 1 h by default.

const DEFAULT_HIGHEST = 3_600_000_000 // 1 hour in µs
const DEFAULT_DIGITS = 3

class Histogram {
  /**
   * @param {{highest?: number, digits?: number}} [options]
   */
  constructor (options = {}) {
    const highest = options.highest ?? DEFAULT_HIGHEST
    const digits = options.digits ?? DEFAULT_DIGITS
    if (!Number.isInteger(digits) || digits < 1 || digits > 5) throw new RangeError('digits must be 1..5')
    if (!(highest >= 2) || highest > 0xffffffff) throw new RangeError('highest must be 2..2^32-1')
    this.highest = highest
    this.digits = digits
    this.lowest = 1
    const largestSingleUnit = 2 * Math.pow(10, digits)
    this.subBucketCountMagnitude = Math.ceil(Math.log2(largestSingleUnit))
    this.subBucketHalfCountMagnitude = this.subBucketCountMagnitude - 1
    this.subBucketCount = 1 << this.subBucketCountMagnitude
    this.subBucketHalfCount = this.subBucketCount >> 1
    this.subBucketMask = this.subBucketCount - 1
    let smallestUntrackable = this.subBucketCount
    let buckets = 1
    while (smallestUntrackable <= highest) {
      smallestUntrackable *= 2
      buckets++
    }
    this.bucketCount = buckets
    // clz32(v | mask) is 32 - subBucketCountMagnitude for values in bucket 0.
    this.clzBase = 32 - this.subBucketCountMagnitude
    this.length = (buckets + 1) * this.subBucketHalfCount
    this.counts = new Float64Array(this.length)
    this.totalCount = 0
    this.minValue = Infinity
    this.maxValue = 0
  }

  /** Index into counts of an integer value in [0, 2^32). */
  indexOf (value) {
    const bucket = this.clzBase - Math.clz32(value | this.subBucketMask)
    const sub = value >>> bucket
    return ((bucket + 1) << this.subBucketHalfCountMagnitude) + sub - this.subBucketHalfCount
  }

  /**
   * Records one value (µs). Fractions are truncated; values above the
   * highest trackable value are clamped to it (and still counted).
   * @param {number} value
   */
  record (value) {
    // NaN fails every comparison and lands on 0
    const v = value > this.highest ? this.highest : (value >= 0 ? Math.floor(value) : 0)
    this.counts[this.indexOf(v)]++
    this.totalCount++
    if (v < this.minValue) this.minValue = v
    if (v > this.maxValue) this.maxValue = v
  }

  /** Lowest value that shares index i. */
  valueFromIndex (i) {
    let bucket = (i >> this.subBucketHalfCountMagnitude) - 1
    let sub = (i & (this.subBucketHalfCount - 1)) + this.subBucketHalfCount
    if (bucket < 0) {
      sub -= this.subBucketHalfCount
      bucket = 0
    }
    return sub * Math.pow(2, bucket)
  }

  /** Width of the range of values that share index i. */
  rangeAtIndex (i) {
    const bucket = (i >> this.subBucketHalfCountMagnitude) - 1
    return bucket < 0 ? 1 : Math.pow(2, bucket)
  }

  /**
   * Adds another histogram of the same layout, exactly.
   * @param {Histogram} other
   */
  add (other) {
    if (other.length !== this.length || other.digits !== this.digits) {
      throw new RangeError('cannot merge histograms of different layouts')
    }
    const a = this.counts
    const b = other.counts
    // other's counts lie in its span (see firstIndex)
    for (let i = other.firstIndex(), end = other.spanEnd(); i < end; i++) a[i] += b[i]
    this.totalCount += other.totalCount
    if (other.minValue < this.minValue) this.minValue = other.minValue
    if (other.maxValue > this.maxValue) this.maxValue = other.maxValue
    return this
  }

  /** Recomputes total, min and max from counts (after decoding or merging raw arrays). */
  recount () {
    let total = 0
    let min = Infinity
    let max = 0
    const c = this.counts
    for (let i = 0; i < c.length; i++) {
      if (c[i] === 0) continue
      total += c[i]
      const low = this.valueFromIndex(i)
      if (low < min) min = low
      const high = low + this.rangeAtIndex(i) - 1
      if (high > max) max = high
    }
    this.totalCount = total
    this.minValue = min
    this.maxValue = total === 0 ? 0 : Math.min(max, this.highest)
    return this
  }

  /**
   * The value at a percentile, like HdrHistogram: the highest value
   * equivalent to the recorded value at rank ceil-ish(p% of count), capped by
   * the exact max (and the exact min for p = 0).
   * @param {number} percentile 0..100
   */
  percentile (percentile) {
    if (this.totalCount === 0) return 0
    const p = Math.min(Math.max(percentile, 0), 100)
    if (p === 0) return this.minValue
    const rank = Math.max(1, Math.ceil((p / 100) * this.totalCount - 1e-9))
    const c = this.counts
    let seen = 0
    for (let i = this.firstIndex(), end = this.spanEnd(); i < end; i++) {
      seen += c[i]
      if (seen >= rank) {
        const high = this.valueFromIndex(i) + this.rangeAtIndex(i) - 1
        return Math.max(this.minValue, Math.min(high, this.maxValue))
      }
    }
    return this.maxValue
  }

  /** Mean from bucket midpoints (what every HdrHistogram reports). */
  mean () {
    if (this.totalCount === 0) return 0
    let sum = 0
    const c = this.counts
    for (let i = this.firstIndex(), end = this.spanEnd(); i < end; i++) {
      if (c[i] !== 0) sum += c[i] * this.midpoint(i)
    }
    return sum / this.totalCount
  }

  /** Population standard deviation from bucket midpoints. */
  stddev () {
    if (this.totalCount === 0) return 0
    const m = this.mean()
    let sq = 0
    const c = this.counts
    for (let i = this.firstIndex(), end = this.spanEnd(); i < end; i++) {
      if (c[i] !== 0) {
        const d = this.midpoint(i) - m
        sq += c[i] * d * d
      }
    }
    return Math.sqrt(sq / this.totalCount)
  }

  midpoint (i) {
    const range = this.rangeAtIndex(i)
    return this.valueFromIndex(i) + (range > 1 ? range / 2 : 0)
  }

  /** Highest index with a non-zero count, or -1. */
  lastIndex () {
    const c = this.counts
    for (let i = this.spanEnd() - 1; i >= 0; i--) if (c[i] !== 0) return i
    return -1
  }

  // Every count lies between the indices of minValue and maxValue (record,
  // add and recount keep them, exact or bucket-wide), so the summaries scan
  // that span only: the whole array is tens of thousands of entries, and a
  // run's result asks several histograms for mean, stddev and a dozen
  // percentiles (a short run of two responses: 10.8k CPU-profile samples
  // before, 6.4k after, of which result building 30% before, 11% after).
  /** Index of minValue: the first that may hold a count. */
  firstIndex () {
    // a min that is not a finite value >= 0 bounds nothing
    return this.totalCount === 0 || !(this.minValue >= 0 && this.minValue !== Infinity) ? 0 : this.indexOf(Math.floor(Math.min(this.minValue, this.highest)))
  }

  /** One past the index of maxValue: the end of the span that may hold counts. */
  spanEnd () {
    if (this.totalCount === 0) return 0
    if (!(this.maxValue >= 0)) return this.counts.length
    return Math.min(this.counts.length, this.indexOf(Math.floor(Math.min(this.maxValue, this.highest))) + 1)
  }

  /** A plain object for postMessage (the counts buffer can be transferred). */
  toTransfer () {
    return { highest: this.highest, digits: this.digits, counts: this.counts, totalCount: this.totalCount, minValue: this.minValue, maxValue: this.maxValue }
  }

  /** @param {{highest:number,digits:number,counts:Float64Array,totalCount:number,minValue:number,maxValue:number}} o */
  static fromTransfer (o) {
    const h = new Histogram({ highest: o.highest, digits: o.digits })
    h.totalCount = o.totalCount
    h.minValue = o.minValue
    h.maxValue = o.maxValue
    // the span only (see firstIndex): the rest is zero on both sides
    const from = h.firstIndex()
    h.counts.set(o.counts.subarray(from, h.spanEnd()), from)
    return h
  }
}

module.exports = { Histogram, DEFAULT_HIGHEST }
