'use strict'
// `benchrig merge` and --hist-out: three real generators against one local
// server merge into exactly the histogram of all their requests (recorded one
// by one from the engine's 'response' event), the CLI gives the same JSON as
// the API, seconds line up on absolute time, timelines and the uncorrected
// histogram merge too, unknown fields are reported rather than guessed, and
// the HdrHistogram percentile text parses back to the histogram.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const http = require('node:http')
const path = require('node:path')
const { load, merge } = require('../../index.js')
const { Histogram } = require('../../lib/engine/measure/histogram.js')
const { encode, decode } = require('../../lib/engine/measure/hdr-codec.js')
const { latencyStats } = require('../../lib/engine/result/result.js')
const { percentileDistribution } = require('../../lib/engine/measure/hist-text.js')
const { UsageError } = require('../../lib/errors.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

function run (args, input) {
  return spawnOutput(process.execPath, [BIN, ...args], { input })
}

async function server (t) {
  const s = http.createServer((req, res) => {
    // a little spread in latency, so the histograms have many buckets
    if (Math.random() < 0.2) setTimeout(() => res.end('hello'), 2)
    else res.end('hello')
  })
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
  return `http://127.0.0.1:${s.address().port}/`
}

function tmpdir (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-merge-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** JSON round trip: what `benchrig load -j` hands to `benchrig merge`. */
const asJson = (r) => JSON.parse(JSON.stringify(r))

/** A result of the shape `benchrig load -j` prints, from latencies in µs. */
function fakeResult (values, { start = 1_700_000_000_000, seconds = [values.length], extra = {} } = {}) {
  const h = new Histogram()
  for (const v of values) h.record(v)
  return asJson({
    url: 'http://127.0.0.1:1/',
    connections: 1,
    sampleInt: 1000,
    pipelining: 1,
    workers: 0,
    duration: seconds.length,
    start: new Date(start),
    finish: new Date(start + seconds.length * 1000),
    errors: 0,
    '2xx': values.length,
    statusCodeStats: { 200: { count: values.length } },
    latency: latencyStats(h, 1000),
    latencyUs: latencyStats(h, 1),
    requests: { total: values.length, sent: values.length },
    throughput: { total: values.length * 100 },
    errorsByKind: { connect: 0 },
    errorDetails: {},
    stoppedBy: 'amount',
    histogram: encode(h),
    perSecond: { start, ms: 1000, requests: seconds, bytes: seconds.map((s) => s * 100) },
    saturation: { cpuCores: 0.5, workers: [{ cpu: 0.5, eventLoopUtilization: 0.5 }] },
    ...extra
  })
}

t.test('three generators merge into exactly the histogram of all their requests', async (t) => {
  const url = await server(t)
  const reference = new Histogram()
  let responses = 0
  const runs = [0, 1, 2].map((i) => {
    const r = load({ url, connections: 2 + i, amount: 300 + 100 * i, timeout: 10 })
    // the same value the runner records: latency in µs. The event is moving
    // to autocannon's (client, status, resBytes, ms) from (status, ms, id):
    // take the latency from whichever form this engine emits
    r.on('response', (...args) => {
      responses++
      reference.record((typeof args[0] === 'number' ? args[1] : args[3]) * 1000)
    })
    return r
  })
  const results = (await Promise.all(runs)).map(asJson)
  const m = merge(results)

  t.equal(responses, 1200)
  const h = decode(m.histogram)
  t.same(Array.from(h.counts), Array.from(reference.counts), 'bucket counts equal the reference histogram')
  t.equal(h.totalCount, 1200)
  t.same(m.latency, latencyStats(reference, 1000), 'every latency statistic is recomputed from the merged histogram')
  t.same(m.latencyUs, latencyStats(reference, 1))
  t.equal(m.latency.totalCount, 1200)

  t.equal(m.requests.total, 1200)
  t.equal(m.requests.sent, results.reduce((a, r) => a + r.requests.sent, 0))
  t.equal(m.throughput.total, results.reduce((a, r) => a + r.throughput.total, 0))
  t.equal(m['2xx'], 1200)
  t.same(m.statusCodeStats, { 200: { count: 1200 } })
  t.equal(m.connections, 9)
  t.equal(m.errors, 0)
  t.equal(m.errorsByKind.status, 0)
  t.equal(m.stoppedBy, 'amount')
  t.equal(m.url, url)
  const starts = results.map((r) => Date.parse(r.start))
  const finishes = results.map((r) => Date.parse(r.finish))
  t.equal(m.start.getTime(), Math.min(...starts))
  t.equal(m.finish.getTime(), Math.max(...finishes))
  t.equal(m.duration, Math.round(Math.max(...finishes) - Math.min(...starts)) / 1000)
  t.equal(m.saturation.workers.length, 3)
  t.equal(m.merge.runs, 3)
  const sumSeconds = (r) => r.perSecond.requests.reduce((a, b) => a + (b ?? 0), 0)
  t.equal(sumSeconds(m), results.reduce((a, r) => a + sumSeconds(r), 0), 'every sampled second is kept')

  // merging is associative: (a + b) + c equals a + b + c
  const twoStep = merge([asJson(merge(results.slice(0, 2))), results[2]])
  t.same(Array.from(decode(twoStep.histogram).counts), Array.from(h.counts))
  t.equal(twoStep.requests.total, 1200)
  t.equal(twoStep.merge.runs, 3)
})

t.test('CLI: three generator processes, merged by benchrig merge, equal the API merge', async (t) => {
  const url = await server(t)
  const dir = tmpdir(t)
  const files = [0, 1, 2].map((i) => path.join(dir, `result-${i}.json`))
  const gens = await Promise.all(files.map((_, i) => run(['load', '-c', '2', '-a', String(200 + 50 * i), '-j', url])))
  gens.forEach((g, i) => {
    t.equal(g.code, 0, g.stderr)
    fs.writeFileSync(files[i], g.stdout)
  })
  const results = gens.map((g) => JSON.parse(g.stdout))

  const cli = await run(['merge', '-j', ...files])
  t.equal(cli.code, 0, cli.stderr)
  t.equal(cli.stdout.trim().split('\n').length, 1, 'one JSON line on stdout')
  const merged = JSON.parse(cli.stdout)
  t.same(merged, asJson(merge(results, { names: files })), 'the CLI prints what the API returns')
  const sum = new Histogram()
  for (const r of results) sum.add(decode(r.histogram))
  t.same(Array.from(decode(merged.histogram).counts), Array.from(sum.counts), 'the sum of the three histograms, exactly')
  t.equal(merged.requests.total, 750)
  t.equal(merged.connections, 6)

  // stdin: results one per line, as `cat result-*.json | benchrig merge -`
  const piped = await run(['merge', '-j', '-'], gens.map((g) => g.stdout).join(''))
  t.equal(piped.code, 0, piped.stderr)
  t.same(JSON.parse(piped.stdout).histogram, merged.histogram)

  // text output: benchrig load's tables, and the percentile text file
  const hgrm = path.join(dir, 'merged.hgrm')
  const text = await run(['merge', '--hist-out', hgrm, ...files])
  t.equal(text.code, 0, text.stderr)
  t.match(text.stdout, /Merged 3 runs: 6 connections/)
  t.match(text.stdout, /│ Latency/)
  t.match(text.stdout, /750 requests in/)
  t.equal(fs.readFileSync(hgrm, 'utf8'), percentileDistribution(decode(merged.histogram)))

  // --hist-out on benchrig load itself
  const one = path.join(dir, 'one.hgrm')
  const single = await run(['load', '-c', '1', '-a', '50', '-j', '--hist-out', one, url])
  t.equal(single.code, 0, single.stderr)
  t.equal(fs.readFileSync(one, 'utf8'), percentileDistribution(decode(JSON.parse(single.stdout).histogram)))
})

/** Parses percentile-distribution text back into rows and trailer values. */
function parseHgrm (text) {
  const lines = text.split('\n')
  const rows = []
  const trailer = {}
  for (const line of lines.slice(2)) {
    if (line.startsWith('#[')) {
      for (const m of line.matchAll(/(\w[\w ]*?)\s*=\s*([\d.]+)/g)) trailer[m[1].trim()] = Number(m[2])
    } else if (line.trim() !== '') {
      const f = line.trim().split(/\s+/)
      rows.push({ value: Number(f[0]), p: Number(f[1]), count: Number(f[2]), inverse: f[3] === undefined ? undefined : Number(f[3]), line })
    }
  }
  return { header: lines[0], blank: lines[1], rows, trailer }
}

t.test('--hist-out text: HdrHistogram percentile-distribution format that parses back to the histogram', async (t) => {
  // seeded spread over 50 µs .. 100 ms
  let seed = 7
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
  const h = new Histogram()
  for (let i = 0; i < 20000; i++) h.record(Math.floor(50 * Math.exp(next() * Math.log(2000))))
  const text = percentileDistribution(h)
  const { header, blank, rows, trailer } = parseHgrm(text)
  t.equal(header, '       Value     Percentile TotalCount 1/(1-Percentile)')
  t.equal(blank, '')
  t.match(rows[0].line, /^ {0,12}\d+\.\d{3} 0\.\d{12} {1,10}\d+ {1,14}\d+\.\d{2}$/, 'a row: %12.3f %2.12f %10d %14.2f')

  // 5 ticks per half distance: 0, 10 .. 50 %, then 55 .. 75 %, then 77.5 ..
  t.same(rows.slice(0, 13).map((r) => r.p), [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.775, 0.8])

  // every row: the count column is the cumulative count up to that value,
  // the first bucket whose cumulative share reaches the row's level
  const cumulative = []
  let acc = 0
  for (let i = 0; i < h.counts.length; i++) cumulative.push(acc += h.counts[i])
  for (const r of rows.slice(0, -1)) {
    const us = Math.round(r.value * 1000)
    const i = h.indexOf(us)
    t.equal(h.valueFromIndex(i) + h.rangeAtIndex(i) - 1, us, `${r.value} ms is the top of its bucket`)
    t.equal(cumulative[i], r.count, `count at ${r.value} ms`)
    const first = cumulative.findIndex((c, j) => h.counts[j] > 0 && (100 * c) / h.totalCount >= r.p * 100 - 1e-9)
    t.equal(i, first, `p ${r.p} lands on the first bucket reaching it`)
    t.ok(Math.abs(h.percentile(r.p * 100) - us) <= h.rangeAtIndex(i), `agrees with percentile(${r.p * 100})`)
    t.ok(Math.abs(r.inverse - 1 / (1 - r.p)) <= 0.005 + 1e-9 * r.inverse, `1/(1-p) at ${r.p}`)
  }
  const lastRow = rows[rows.length - 1]
  t.equal(lastRow.p, 1)
  t.equal(lastRow.count, 20000)
  t.equal(lastRow.inverse, undefined, 'the 100 % row has no 1/(1-p) column')
  t.match(lastRow.line, / 1\.000000000000 {6}20000$/)
  t.equal(trailer.Mean, Number((h.mean() / 1000).toFixed(3)))
  t.equal(trailer.StdDeviation, Number((h.stddev() / 1000).toFixed(3)))
  t.equal(trailer.Max, lastRow.value)
  t.equal(trailer['Total count'], 20000)
  t.equal(trailer.Buckets, 22)
  t.equal(trailer.SubBuckets, 2048)
  t.match(text, /\n#\[Mean {4}= +[\d.]+, StdDeviation {3}= +[\d.]+\]\n#\[Max {5}= +[\d.]+, Total count {4}= +\d+\]\n#\[Buckets = +22, SubBuckets {5}= +2048\]\n$/)

  // one value only: the 0 % row and the 100 % row
  const one = new Histogram()
  one.record(1500)
  t.same(parseHgrm(percentileDistribution(one)).rows.map((r) => [r.value, r.p, r.count]), [[1.5, 0, 1], [1.5, 1, 1]])
  t.same(parseHgrm(percentileDistribution(new Histogram())).rows, [], 'empty: no rows')
})

t.test('--hist-out text equals what another HdrHistogram implementation prints', async (t) => {
  let hdr
  try {
    hdr = require('hdr-histogram-js')
  } catch {
    t.skip('hdr-histogram-js (installed with autocannon) is not available')
    return
  }
  let seed = 11
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
  const cases = {
    'log-spread 20 µs .. 2 s': Array.from({ length: 30000 }, () => Math.floor(20 * Math.exp(next() * Math.log(100000)))),
    'one value': [1234],
    'two clusters': Array.from({ length: 5000 }, (_, i) => (i % 10 === 0 ? 250000 + i : 800 + (i % 300)))
  }
  for (const [name, values] of Object.entries(cases)) {
    const h = new Histogram()
    for (const v of values) h.record(v)
    const theirs = hdr.decodeFromCompressedBase64(encode(h), 32, false).outputPercentileDistribution(5, 1000)
    t.equal(percentileDistribution(h), theirs, name)
  }
})

t.test('per-second samples are added on absolute seconds', async (t) => {
  const base = 1_700_000_000_000
  const a = fakeResult([100, 200], { start: base, seconds: [10, 20, 30] })
  const b = fakeResult([300], { start: base + 1000, seconds: [1, 2] })
  const c = fakeResult([400], { start: base + 6000, seconds: [5] })
  const m = merge([a, b, c])
  t.same(m.perSecond.requests, [10, 21, 32, null, null, null, 5], 'same seconds added, gaps are null')
  t.same(m.perSecond.bytes, [1000, 2100, 3200, null, null, null, 500])
  t.equal(m.perSecond.start, base)
  t.equal(m.samples, 4, 'seconds in which nothing ran are no sample')
  t.equal(m.requests.min, 5)
  t.equal(m.requests.max, 32)
  t.equal(m.merge.sampleSkewMs, 0)
  t.equal(m.duration, 7)

  // seconds on another grid go to the nearest second of the earliest run
  const d = fakeResult([500], { start: base + 2400, seconds: [7] })
  const skewed = merge([a, d])
  t.same(skewed.perSecond.requests, [10, 20, 37])
  t.equal(skewed.merge.sampleSkewMs, 400)

  // merging a merge again keeps the gaps as gaps
  t.same(merge([asJson(m)]).perSecond.requests, m.perSecond.requests)
})

t.test('uncorrected histograms and timelines merge when present', async (t) => {
  const hist = (values) => {
    const h = new Histogram()
    for (const v of values) h.record(v)
    return h
  }
  const row = (start, values, extra = {}) => ({ start, ms: 1000, count: values.length, errors: 1, histogram: encode(hist(values)), p99: 123, max: Math.max(...values) / 1000, ...extra })
  const a = fakeResult([1000, 2000], {
    extra: {
      uncorrectedHistogram: encode(hist([900, 1900])),
      uncorrectedLatency: latencyStats(hist([900, 1900]), 1000),
      intervals: [row(0, [1000]), row(1000, [2000], { label: 'x', rate: 5 })]
    }
  })
  const b = fakeResult([3000], {
    extra: {
      uncorrectedHistogram: encode(hist([2900])),
      uncorrectedLatency: latencyStats(hist([2900]), 1000),
      intervals: [row(1000, [3000], { label: 'x', rate: 6 }), row(500, [4000])]
    }
  })
  const m = merge([a, b])
  const unc = hist([900, 1900, 2900])
  t.same(Array.from(decode(m.uncorrectedHistogram).counts), Array.from(unc.counts))
  t.same(m.uncorrectedLatency, latencyStats(unc, 1000))
  t.equal(m.uncorrectedLatencyUs, undefined, 'only the keys the inputs had')

  t.same(m.intervals.map((r) => [r.start, r.count, r.errors]), [[0, 1, 1], [500, 1, 1], [1000, 2, 2]], 'equal starts added, others kept, sorted')
  const added = m.intervals[2]
  t.same(Array.from(decode(added.histogram).counts), Array.from(hist([2000, 3000]).counts))
  t.equal(added.p99, latencyStats(hist([2000, 3000]), 1000).p99, 'derived stats recomputed from the merged histogram')
  t.equal(added.label, 'x', 'an equal non-numeric field is kept')
  t.notOk('rate' in added)
  t.ok(m.merge.ignored.includes('intervals[].rate'), 'an unknown numeric field is reported, not summed or averaged')

  const plain = fakeResult([1])
  t.throws(() => merge([a, plain]), { name: 'UsageError', message: /result 2 has no "uncorrectedHistogram" but result 1 has/ })
  t.throws(() => merge([{ ...a, intervals: undefined }, b]), /result 1 has no "intervals" but result 2 has/)
})

t.test('constant-rate plans add up; their lag merges from its histogram', async (t) => {
  const lagOf = (values) => {
    const h = new Histogram()
    for (const v of values) h.record(v)
    return h
  }
  const rate = (sent, lag) => ({ mode: 'overall', target: 100, planned: sent + 1, sent, unsent: 1, achieved: 99, lag: latencyStats(lagOf(lag), 1000), lagHistogram: encode(lagOf(lag)) })
  const a = fakeResult([100], { extra: { rate: rate(10, [50, 60]), goaways: 1, openConnectionsMax: 3 } })
  const b = fakeResult([200], { extra: { rate: rate(20, [70]), goaways: 2, openConnectionsMax: 4 } })
  const m = merge([a, b])
  t.same({ ...m.rate, lag: undefined, lagHistogram: undefined }, { mode: 'overall', target: 200, planned: 32, sent: 30, unsent: 2, achieved: 30, lag: undefined, lagHistogram: undefined })
  t.same(m.rate.lag, latencyStats(lagOf([50, 60, 70]), 1000))
  t.equal(m.goaways, 3)
  t.equal(m.openConnectionsMax, 7, 'an upper bound, as over workers')
  const noLag = merge([{ ...a, rate: { ...a.rate, lagHistogram: undefined } }, b])
  t.notOk('lag' in noLag.rate)
  t.ok(noLag.merge.ignored.includes('rate.lag'))
  t.throws(() => merge([a, fakeResult([1])]), /result 2 has no "rate" but result 1 has/)
})

t.test('--breakout merges: connect from connectHistogram, first and last byte from theirs', async (t) => {
  const hist = (values) => {
    const h = new Histogram()
    for (const v of values) h.record(v)
    return h
  }
  const breakoutOf = (connect, first, last) => ({
    connectHistogram: encode(hist(connect)),
    connectLatency: latencyStats(hist(connect), 1000),
    breakout: {
      connect: latencyStats(hist(connect), 1000),
      firstByte: latencyStats(hist(first), 1000),
      lastByte: latencyStats(hist(last), 1000),
      firstByteHistogram: encode(hist(first)),
      lastByteHistogram: encode(hist(last))
    }
  })
  const a = fakeResult([1000, 2000], { extra: breakoutOf([300], [800, 1500], [100, 400]) })
  const b = fakeResult([3000], { extra: breakoutOf([500, 700], [2600], [300]) })
  const m = merge([a, b])
  t.same(m.breakout.connect, latencyStats(hist([300, 500, 700]), 1000), 'connect: the merged connect latency')
  t.same(m.breakout.firstByte, latencyStats(hist([800, 1500, 2600]), 1000))
  t.same(m.breakout.lastByte, latencyStats(hist([100, 400, 300]), 1000))
  t.same(Array.from(decode(m.breakout.firstByteHistogram).counts), Array.from(hist([800, 1500, 2600]).counts))
  t.same(Array.from(decode(m.breakout.lastByteHistogram).counts), Array.from(hist([100, 400, 300]).counts))
  t.notOk(m.merge.ignored.some((k) => k.startsWith('breakout')), 'nothing of breakout left out')

  // a result without the histograms (older): its two rows are reported, not averaged
  const old = { ...a, breakout: { ...a.breakout, firstByteHistogram: undefined, lastByteHistogram: undefined } }
  const partial = merge([old, b])
  t.same(Object.keys(partial.breakout), ['connect'])
  t.ok(partial.merge.ignored.includes('breakout.firstByte') && partial.merge.ignored.includes('breakout.lastByte'))
  const { breakout, ...connectOnly } = breakoutOf([300], [800], [100])
  t.ok(breakout)
  t.throws(() => merge([a, fakeResult([1], { extra: connectOnly })]), /result 2 has no "breakout" but result 1 has/)
})

t.test('the engine keeps the breakout histograms that merge adds', async (t) => {
  const s = await server(t)
  const r = asJson(await load({ url: s, connections: 1, amount: 20, breakout: true }))
  const counts = (key) => decode(r.breakout[key]).totalCount
  t.equal(counts('firstByteHistogram'), 20, 'one first byte per response')
  t.equal(counts('lastByteHistogram'), 20, 'one first-to-last per response')
  const m = merge([r, r])
  t.equal(decode(m.breakout.firstByteHistogram).totalCount, 40)
  t.equal(m.breakout.firstByte.max, r.breakout.firstByte.max, 'a run merged with itself keeps its max')
})

t.test('fields without an exact rule are reported, not guessed', async (t) => {
  const a = fakeResult([100], { extra: { tool: 'x', threads: 4, connectLatency: { p50: 1 }, requests: { total: 1, sent: 1, dropped: 3 } } })
  const b = fakeResult([200], { extra: { tool: 'x', threads: 4, connectLatency: { p50: 2 } } })
  const m = merge([a, b])
  t.equal(m.tool, 'x', 'an equal string is kept')
  t.notOk('threads' in m, 'an unknown number is not copied, even when equal')
  t.notOk('connectLatency' in m, 'statistics without a histogram are not averaged')
  t.same(m.merge.ignored, ['connectLatency', 'requests.dropped', 'threads'])
})

t.test('errors name the input', async (t) => {
  const good = fakeResult([100])
  t.throws(() => merge([good, { hello: 1 }], { names: ['a.json', 'b.json'] }), { name: 'UsageError', message: /^b\.json: not a benchrig load result \(no "histogram"\)/ })
  t.throws(() => merge([good, 'text']), /result 2: not a benchrig load result/)
  t.throws(() => merge([]), UsageError)
  const coarse = { ...good, histogram: encode(new Histogram({ digits: 2 })) }
  t.throws(() => merge([good, coarse], { names: ['a.json', 'b.json'] }), /^b\.json: "histogram" has a different layout \(2 significant digits/)
  t.throws(() => merge([good, { ...good, histogram: 'bm90IGEgaGlzdG9ncmFt' }]), /result 2: "histogram" is not an HdrHistogram V2 base64 encoding/)
  t.throws(() => merge([good, { ...good, perSecond: undefined }]), /result 2: no per-second samples/)

  const dir = tmpdir(t)
  const notJson = path.join(dir, 'not.json')
  fs.writeFileSync(notJson, 'Running 10s test @ http://127.0.0.1/\n')
  const okFile = path.join(dir, 'ok.json')
  fs.writeFileSync(okFile, JSON.stringify(good))
  let r = await run(['merge', okFile, notJson])
  t.equal(r.code, 2)
  t.match(r.stderr, `benchrig merge: ${notJson} is not JSON`)
  r = await run(['merge', okFile, path.join(dir, 'missing.json')])
  t.equal(r.code, 2)
  t.match(r.stderr, /cannot read .*missing\.json \(ENOENT\)/)
  r = await run(['merge'])
  t.equal(r.code, 2)
  t.match(r.stderr, /no file given/)
  r = await run(['merge', '-j', '-', '-'], '')
  t.equal(r.code, 2)
  t.match(r.stderr, /"-" \(stdin\) can be given once/)
  r = await run(['merge', '--hist-out', path.join(dir, 'no', 'such', 'dir.hgrm'), okFile])
  t.equal(r.code, 2)
  t.match(r.stderr, /--hist-out .*dir\.hgrm: cannot write the histogram \(ENOENT\)/)
})

t.test('the saturation warning: a busy thread over a run long enough to judge, none for a run of a few requests', async (t) => {
  const { saturationWarning } = require('../../lib/engine/result/result.js')
  t.match(saturationWarning(0.97, 2000), /a generator thread was busy 97% of the run/)
  t.equal(saturationWarning(0.97, 10), undefined, 'a 10 ms run: its busy share is its own start-up')
  t.equal(saturationWarning(0.5, 5000), undefined, 'half busy: no limit reached')
  t.equal(saturationWarning(0.9, 1000), saturationWarning(0.9, 60000), 'from 1 s on, as long runs')
})
