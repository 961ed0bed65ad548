'use strict'
// --prometheus FILE: a run's metrics in the Prometheus text format. The
// buckets are counted from the HdrHistogram exactly as documented; the file
// is read back by the real consumer, node_exporter's textfile collector
// (Debian prometheus-node-exporter), whose own parser must accept it and
// whose /metrics must give the run's numbers; a file it cannot parse must be
// reported by it (so the check can fail).
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { load } = require('../../index.js')
const { Histogram } = require('../../lib/engine/measure/histogram.js')
const { prometheusText, bucketCounts, BUCKETS } = require('../../lib/engine/result/prometheus.js')
const { main: report } = require('../../lib/cli/report.js')
const { needTool } = require('../helpers/tools.js')
const { statusTarget } = require('../helpers/loopback.js')
const { samples, textfileExporter } = require('../helpers/prometheus-text.js')

let runResult
async function runOnce (t) {
  if (runResult) return runResult
  const base = await statusTarget(t)
  runResult = JSON.parse(JSON.stringify(await load({ url: [`${base}/`, `${base}/missing`, `${base}/drop`], amount: 300, connections: 3 })))
  return runResult
}

t.test('buckets from the HdrHistogram: a bin counts under le when it lies wholly at or below it', async (t) => {
  const h = new Histogram()
  for (const v of [100, 100, 100, 1000, 1000, 5000, 30000, 2_000_000]) h.record(v)
  const counts = Object.fromEntries(BUCKETS.map((le, i) => [le, bucketCounts(h, BUCKETS)[i]]))
  t.equal(counts['0.00005'], 0)
  t.equal(counts['0.0001'], 3, '100 µs: its 1 µs bin ends at 100')
  t.equal(counts['0.001'], 5)
  t.equal(counts['0.005'], 5, '5000 µs sits in the bin 5000-5003, which reaches past 5 ms')
  t.equal(counts['0.01'], 6)
  t.equal(counts['0.05'], 7)
  t.equal(counts['2.5'], 8)
  t.equal(counts['50'], 8)
  t.same(BUCKETS.slice(0, 3), ['0.00001', '0.000025', '0.00005'], 'bounds are plain decimals')
  t.equal(BUCKETS.length, 21)
})

t.test('the text of a real run: families, counters by status and kind, histogram and summary agree with the JSON', async (t) => {
  const r = await runOnce(t)
  const text = prometheusText(r, { version: '9.9.9' })
  const s = samples(text)
  const families = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`)
  t.same(families, [
    'benchrig_load_info gauge', 'benchrig_load_start_time_seconds gauge', 'benchrig_load_duration_seconds gauge',
    'benchrig_load_connections gauge', 'benchrig_load_requests_total counter', 'benchrig_load_requests_sent_total counter',
    'benchrig_load_requests_per_second gauge', 'benchrig_load_read_bytes_total counter', 'benchrig_load_responses_total counter',
    'benchrig_load_errors_total counter', 'benchrig_load_request_duration_seconds histogram', 'benchrig_load_latency_seconds summary'
  ])
  t.equal([...text.matchAll(/^# HELP /gm)].length, families.length, 'a HELP line per family')
  t.equal(s['benchrig_load_requests_total'], r.requests.total)
  t.ok(r.non2xx > 0 && r.errors > 0, `the run has non-2xx responses (${r.non2xx}) and errors (${r.errors})`)
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) t.equal(s[`benchrig_load_responses_total{code="${code}"}`], count, `status ${code}`)
  const kinds = Object.keys(s).filter((k) => k.startsWith('benchrig_load_errors_total{'))
  t.equal(kinds.length, 7, 'every error kind, zeros included')
  t.equal(kinds.reduce((a, k) => a + s[k], 0), r.errors, 'the kinds add up to errors')
  t.equal(s['benchrig_load_read_bytes_total'], r.throughput.total)
  const buckets = BUCKETS.map((le) => s[`benchrig_load_request_duration_seconds_bucket{le="${le}"}`])
  t.ok(buckets.every((c, i) => i === 0 || c >= buckets[i - 1]), 'cumulative buckets never decrease')
  t.equal(s['benchrig_load_request_duration_seconds_bucket{le="+Inf"}'], r.latency.totalCount)
  t.equal(s['benchrig_load_request_duration_seconds_count'], r.latency.totalCount)
  t.equal(s['benchrig_load_latency_seconds{quantile="0.99"}'], r.latencyUs.p99 / 1e6)
  t.match(text, /^benchrig_load_info\{url="http:\/\/127\.0\.0\.1:\d+\/ http:\/\/127\.0\.0\.1:\d+\/missing http:\/\/127\.0\.0\.1:\d+\/drop",version="9\.9\.9"\} 1$/m)
  t.notMatch(text, /^[a-z_]+(\{[^}]*\})? \S+ \S+$/m, 'no sample has a timestamp (the textfile collector refuses them)')
})

t.test('node_exporter\'s textfile collector reads the file benchrig report writes, and reports a broken one', async (t) => {
  if (!needTool(t, 'node_exporter')) return
  const r = await runOnce(t)
  const dir = t.testdir({ textfile: {} })
  const json = path.join(dir, 'result.json')
  fs.writeFileSync(json, JSON.stringify(r))
  const prom = path.join(dir, 'textfile', 'benchrig.prom')
  t.equal(await report([json, '--prometheus', prom]), 0)
  t.same(fs.readdirSync(path.join(dir, 'textfile')), ['benchrig.prom'], 'no temporary file left beside it')

  const { scrape } = await textfileExporter(t, path.join(dir, 'textfile'))
  const exported = await scrape()
  t.equal(exported['node_textfile_scrape_error'], 0, 'node_exporter parsed the file')
  t.equal(exported['benchrig_load_requests_total'], r.requests.total)
  t.equal(exported['benchrig_load_request_duration_seconds_count'], r.latency.totalCount)
  t.equal(exported['benchrig_load_request_duration_seconds_bucket{le="+Inf"}'], r.latency.totalCount)
  // node_exporter prints the bounds in Go's float form (1e-05): compare as numbers
  const ours = samples(prometheusText(r))
  const buckets = (m) => Object.entries(m).filter(([k]) => k.includes('_bucket{')).map(([k, v]) => [Number(k.match(/le="([^"]+)"/)[1]), v]).sort((a, b) => a[0] - b[0])
  t.same(buckets(exported), buckets(ours), 'the 22 buckets as written')
  t.equal(buckets(exported).length, 22)
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) t.equal(exported[`benchrig_load_responses_total{code="${code}"}`], count, `status ${code}`)
  t.equal(exported['benchrig_load_errors_total{kind="read"}'] + exported['benchrig_load_errors_total{kind="parse"}'] + exported['benchrig_load_errors_total{kind="connect"}'] +
    exported['benchrig_load_errors_total{kind="write"}'] + exported['benchrig_load_errors_total{kind="timeout"}'] +
    exported['benchrig_load_errors_total{kind="reset"}'] + exported['benchrig_load_errors_total{kind="goaway"}'], r.errors)

  // the collector reads the folder at every scrape: a bucket bound that is not a number must be refused
  fs.writeFileSync(prom, prometheusText(r).replace('le="0.001"', 'le="one ms"'))
  const broken = await scrape()
  t.equal(broken['node_textfile_scrape_error'], 1, 'a file node_exporter cannot parse is reported')
  t.equal(broken['benchrig_load_requests_total'], undefined, 'and not exported')
})
