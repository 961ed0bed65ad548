'use strict'
// The outputs of a scenarios run (issue 27: "results per scenario and overall
// in every output"): the text tables and the thresholds block, YAML, the
// Prometheus text (read back by node_exporter's own parser) and benchrig
// merge of the results of several generators. The result is assembled from
// two real runs (test/helpers/scenario-result.js) in the shape the
// --scenarios run writes.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const YAML = require('yaml')
const { formatResult } = require('../../lib/engine/result/format.js')
const { formatScenarios, durationText, paramsText } = require('../../lib/engine/result/format-scenarios.js')
const { prometheusText, BUCKETS } = require('../../lib/engine/result/prometheus.js')
const { toYaml } = require('../../lib/engine/result/yaml.js')
const { merge } = require('../../lib/engine/result/merge.js')
const { decode } = require('../../lib/engine/measure/hdr-codec.js')
const { main: mergeMain } = require('../../lib/cli/merge.js')
const { main: report } = require('../../lib/cli/report.js')
const { scenarioResult, scenarioFile } = require('../helpers/scenario-result.js')
const { statusTarget } = require('../helpers/loopback.js')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { needTool } = require('../helpers/tools.js')
const { samples, textfileExporter } = require('../helpers/prometheus-text.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

let shared
const run = async (t) => (shared ??= await scenarioResult(t))

/** What a function writes to process.stdout and process.stderr while it runs. */
async function captured (fn) {
  const out = { stdout: '', stderr: '' }
  const write = { stdout: process.stdout.write, stderr: process.stderr.write }
  process.stdout.write = (s) => { out.stdout += s; return true }
  process.stderr.write = (s) => { out.stderr += s; return true }
  try {
    out.value = await fn()
  } finally {
    process.stdout.write = write.stdout
    process.stderr.write = write.stderr
  }
  return out
}

t.test('durations as k6 prints them, executor parameters as words', async (t) => {
  t.same([0, 250, 1000, 1500, 59999, 60000, 90000, 3600000 + 5000, NaN].map(durationText), ['0s', '250ms', '1s', '1.5s', '1m0s', '1m0s', '1m30s', '1h0m5s', '-'])
  t.equal(paramsText({ vus: 10, duration: 30000, gracefulStopMs: 5000, stages: [{}, {}], exec: 'main', nested: { a: 1 }, none: null }),
    'vus 10, duration 30s, gracefulStop 5s, stages 2, exec main')
  t.equal(paramsText(undefined), '')
})

t.test('text: the overall tables, then a line and a row per scenario; a plain run prints none of it', async (t) => {
  const r = await run(t)
  const text = formatResult(r)
  const plain = { ...r }
  delete plain.scenarios
  t.equal(text.slice(0, formatResult(plain).length), formatResult(plain), 'the overall part is the plain layout, unchanged')
  t.notMatch(formatResult(plain), /Scenario/, 'a plain run prints no scenario part')
  const part = formatScenarios(r)
  t.equal(text, formatResult(plain) + '\n\n' + part, 'the scenario part follows the summary lines')
  const lines = part.split('\n')
  t.equal(lines[0], 'Scenarios (2):')
  t.equal(lines[1], '  browse    constant-vus (vus 2, duration 30s), from 0s for 30s')
  t.equal(lines[2], '  checkout  ramping-arrival-rate (startRate 10, timeUnit 1s, preAllocatedVUs 2, stages 2), from 1.5s for 1m30s; tags team=shop, flow-step=pay, flow_step=dup')
  t.match(lines[4], /│ Scenario │ Requests │ Req\/s │ p50 ms │ p90 ms │ p99 ms │ Max ms │ Errors │ Non-2xx │ Thresholds │/)
  const cells = (line) => line.split('│').slice(1, -1).map((c) => c.trim())
  const browse = cells(lines[6])
  const checkout = cells(lines[7])
  t.same([browse[0], browse[1], browse[7], browse[8], browse[9]], ['browse', '300', '0', '0', 'pass 2/2'])
  const b = r.scenarios.checkout
  t.same([checkout[0], checkout[1], checkout[7], checkout[8], checkout[9]], ['checkout', String(b.requests.total), String(b.errors), String(b.non2xx), 'FAIL 1/2'])
  t.ok(b.errors > 0 && b.non2xx > 0, `checkout has errors (${b.errors}) and non-2xx (${b.non2xx})`)
  const p99 = r.scenarios.browse.latency.p99
  t.equal(browse[5], p99 >= 100 ? String(Math.round(p99)) : p99.toFixed(p99 >= 10 ? 1 : 2), 'p99 as the JSON, rounded as the tables round')
  t.ok(lines.slice(3).every((l) => l.length <= 100), 'the table fits 100 columns')
  const long = formatScenarios({ scenarios: { ['x'.repeat(150)]: r.scenarios.browse } })
  t.ok(long.split('\n').slice(2).every((l) => l.length <= 100), 'a long name is shortened to fit')
  t.equal(formatResult(r, { tables: false }).includes('Scenarios'), false, 'autocannon\'s verbose: false leaves the tables out, the scenarios too')
})

t.test('YAML carries the scenarios, in the file\'s order, as -j does', async (t) => {
  const r = await run(t)
  const back = YAML.parse(toYaml(r))
  t.same(back, JSON.parse(JSON.stringify(r)))
  t.same(Object.keys(back.scenarios), ['browse', 'checkout'])
  t.equal(back.scenarios.checkout.scenario.executor, 'ramping-arrival-rate')
  const odd = YAML.parse(toYaml({ scenarios: { yes: { n: 1 }, 'a b': { n: 2 }, 1: { n: 3 } } }))
  t.same(odd.scenarios, { 1: { n: 3 }, yes: { n: 1 }, 'a b': { n: 2 } }, 'names a reader could misread stay strings')
})

t.test('Prometheus: the overall series without a label, each scenario\'s with scenario="name", values as the JSON', async (t) => {
  const r = await run(t)
  const text = prometheusText(r, { version: '9.9.9' })
  const s = samples(text)
  const families = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1])
  t.equal(new Set(families).size, families.length, 'each family once (HELP and TYPE once, its samples together)')
  t.ok(families.includes('benchrig_load_scenario_info') && families.includes('benchrig_load_scenario_start_offset_seconds'))
  t.equal(s['benchrig_load_requests_total'], r.requests.total)
  t.equal(s['benchrig_load_scenario_info{scenario="checkout",executor="ramping-arrival-rate",tag_team="shop",tag_flow_step="pay"}'], 1, 'tags as labels of the info series; a second one that becomes the same label name is left out')
  t.equal(s['benchrig_load_scenario_info{scenario="browse",executor="constant-vus"}'], 1)
  t.equal(s['benchrig_load_scenario_start_offset_seconds{scenario="checkout"}'], 1.5)
  let total = 0
  for (const name of ['browse', 'checkout']) {
    const sc = r.scenarios[name]
    const l = `scenario="${name}"`
    t.equal(s[`benchrig_load_requests_total{${l}}`], sc.requests.total, `${name}: requests`)
    total += sc.requests.total
    for (const [code, { count }] of Object.entries(sc.statusCodeStats)) t.equal(s[`benchrig_load_responses_total{${l},code="${code}"}`], count, `${name}: status ${code}`)
    const errors = Object.keys(s).filter((k) => k.startsWith(`benchrig_load_errors_total{${l},`)).reduce((a, k) => a + s[k], 0)
    t.equal(errors, sc.errors, `${name}: error kinds add up`)
    t.equal(s[`benchrig_load_request_duration_seconds_count{${l}}`], decode(sc.histogram).totalCount)
    t.equal(s[`benchrig_load_request_duration_seconds_bucket{${l},le="+Inf"}`], sc.latency.totalCount)
    t.equal(s[`benchrig_load_latency_seconds{${l},quantile="0.99"}`], sc.latencyUs.p99 / 1e6)
    t.equal(s[`benchrig_load_duration_seconds{${l}}`], sc.duration)
  }
  t.equal(total, r.requests.total, 'the scenarios add up to the overall series')
  t.equal(s['benchrig_load_threshold_passed{threshold="requests>=100"}'], 1, 'the run\'s own threshold, unlabelled')
  t.equal(s['benchrig_load_threshold_passed{scenario="checkout",threshold="non2xx<1"}'], 0, 'a scenario\'s failed threshold')
  t.equal(s['benchrig_load_threshold_value{scenario="checkout",threshold="non2xx<1"}'], r.scenarios.checkout.non2xx)
  t.equal(s['benchrig_load_threshold_passed{scenario="browse",threshold="p99<5s"}'], 1)
  // buckets of the scenarios add up to the overall ones: the histograms merge exactly
  for (const le of BUCKETS) {
    const b = (l) => s[`benchrig_load_request_duration_seconds_bucket{${l}le="${le}"}`]
    t.equal(b('scenario="browse",') + b('scenario="checkout",'), b(''), `le=${le}`)
  }
  const plain = { ...r }
  delete plain.scenarios
  t.notMatch(prometheusText(plain), /scenario=|scenario_/, 'a plain run has no scenario label or family')
  // a WebSocket scenario beside an HTTP one: its families carry only its series
  const hs = { p50: 1, p90: 2, p99: 3, p99_9: 4, p99_99: 5, totalCount: 7 }
  const mixed = { ...r, scenarios: { ...r.scenarios, browse: { ...r.scenarios.browse, ws: { closeCodes: { 1000: 2 }, protocolErrors: {}, handshakeErrors: {}, pings: 1 }, handshakeLatency: hs } } }
  const m = prometheusText(mixed)
  const ws = samples(m)
  t.equal(ws['benchrig_load_ws_server_closes_total{scenario="browse",code="1000"}'], 2)
  t.equal(ws['benchrig_load_ws_handshake_seconds_count{scenario="browse"}'], 7)
  t.notOk(Object.keys(ws).some((k) => k.startsWith('benchrig_load_ws_') && !k.includes('scenario="browse"')), 'no WebSocket series for the whole or the HTTP scenario')
  const types = [...m.matchAll(/^# TYPE (\S+)/gm)].map((x) => x[1])
  t.equal(new Set(types).size, types.length, 'each family once')
})

t.test('Prometheus: node_exporter\'s textfile collector parses the file of a scenarios run', async (t) => {
  if (!needTool(t, 'node_exporter')) return
  const r = await run(t)
  const dir = t.testdir({ textfile: {} })
  fs.writeFileSync(path.join(dir, 'result.json'), JSON.stringify(r))
  const prom = path.join(dir, 'textfile', 'benchrig.prom')
  t.equal(await report([path.join(dir, 'result.json'), '--prometheus', prom]), 0)
  const exported = await (await textfileExporter(t, path.join(dir, 'textfile'))).scrape()
  t.equal(exported['node_textfile_scrape_error'], 0, 'node_exporter parsed the file')
  t.equal(exported['benchrig_load_requests_total{scenario=""}'] ?? exported['benchrig_load_requests_total'], r.requests.total, 'the overall series (node_exporter writes the missing label as scenario="")')
  t.equal(exported['benchrig_load_requests_total{scenario="browse"}'], r.scenarios.browse.requests.total)
  t.equal(exported['benchrig_load_requests_total{scenario="checkout"}'], r.scenarios.checkout.requests.total)
  t.equal(exported['benchrig_load_request_duration_seconds_count{scenario="checkout"}'], r.scenarios.checkout.latency.totalCount)
  t.equal(exported['benchrig_load_threshold_passed{scenario="checkout",threshold="non2xx<1"}'], 0, 'a threshold verdict, its expression as a label')
  t.equal(exported['benchrig_load_scenario_info{executor="ramping-arrival-rate",scenario="checkout",tag_flow_step="pay",tag_team="shop"}'], 1, 'tags as labels, sorted by node_exporter')
})

t.test('merge: each scenario merged exactly across generators; the text shows the same per-scenario table', async (t) => {
  const r = await run(t)
  const m = merge([r, r], { names: ['gen-1.json', 'gen-2.json'] })
  t.same(Object.keys(m.scenarios), ['browse', 'checkout'])
  for (const name of ['browse', 'checkout']) {
    const one = r.scenarios[name]
    const two = m.scenarios[name]
    t.equal(two.requests.total, 2 * one.requests.total, `${name}: requests add`)
    t.equal(two.errors, 2 * one.errors)
    t.equal(decode(two.histogram).totalCount, 2 * decode(one.histogram).totalCount, `${name}: histogram counts add`)
    t.equal(two.latency.p99, one.latency.p99, `${name}: a percentile of two equal runs is theirs`)
    t.same(two.scenario, one.scenario, `${name}: the description kept`)
    t.equal(two.merge, undefined, 'no bookkeeping of its own: the top level lists what was not merged')
  }
  t.same(m.scenarios.checkout.thresholds.map((th) => [th.expr, th.ok]), [['non2xx<1', false], ['p50<5s', true]], 'thresholds checked again on the merged figures')
  t.equal(m.scenarios.checkout.thresholds[0].value, 2 * r.scenarios.checkout.non2xx)
  const other = { ...r, scenarios: { ...r.scenarios, browse: { ...r.scenarios.browse, scenario: { ...r.scenarios.browse.scenario, startTime: 5 } } } }
  t.ok(merge([r, other]).merge.ignored.includes('scenarios.browse.scenario'), 'descriptions that differ are left out and listed')
  const plain = { ...r }
  delete plain.scenarios
  t.throws(() => merge([r, plain], { names: ['a.json', 'b.json'] }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /b\.json has no "scenarios" but a\.json has/ })
  const fewer = { ...r, scenarios: { browse: r.scenarios.browse } }
  t.throws(() => merge([r, fewer], { names: ['a.json', 'b.json'] }), { message: /b\.json has no scenario "checkout"/ })

  const dir = t.testdir({ 'a.json': JSON.stringify(r), 'b.json': JSON.stringify(r) })
  const out = await captured(() => mergeMain([path.join(dir, 'a.json'), path.join(dir, 'b.json')]))
  t.equal(out.value, 0)
  t.match(out.stdout, /\nScenarios \(2\):\n {2}browse {4}constant-vus/)
  t.match(out.stdout, new RegExp(`│ checkout │ ${m.scenarios.checkout.requests.total} +│`))
  const json = await captured(() => mergeMain(['-j', path.join(dir, 'a.json'), path.join(dir, 'b.json')]))
  t.same(Object.keys(JSON.parse(json.stdout).scenarios), ['browse', 'checkout'], '-j: the merged scenarios')
})

t.test('merge: a timeline row cut short by its run\'s end keeps its length, so the report\'s req/s of the last row is not diluted', async (t) => {
  const r = await run(t)
  const { scenario: _, ...a } = r.scenarios.browse
  const row = a.intervals[0]
  const rows = (elapsedMs) => ({ ...a, intervals: [{ ...row, elapsedMs }] })
  const both = merge([rows(20), rows(35)])
  t.equal(both.intervals[0].elapsedMs, 35, 'two partial rows: the longer')
  t.notOk(both.merge.ignored.includes('intervals[].elapsedMs'), 'and no longer listed as not merged')
  t.equal(merge([rows(20), rows(undefined)]).intervals[0].elapsedMs, undefined, 'a full row of another run makes the merged row full')
})

t.test('end to end: benchrig load --scenarios FILE prints the scenario table, and its YAML and Prometheus file carry each scenario', async (t) => {
  const base = await statusTarget(t)
  const dir = t.testdir({})
  const file = scenarioFile(dir, base)
  const prom = path.join(dir, 'r.prom')
  const [text, yaml] = await Promise.all([
    spawnOutput(process.execPath, [BIN, 'load', '--scenarios', file, `${base}/`]),
    spawnOutput(process.execPath, [BIN, 'load', '--scenarios', file, '--format', 'yaml', '--prometheus', prom, `${base}/`])
  ])
  t.equal(text.code, 1, 'checkout\'s threshold fails the run')
  t.match(text.stderr, /\nScenarios \(2\):\n {2}browse {4}constant-arrival-rate \(rate 50, timeUnit 1s, duration 1s, preAllocatedVUs 2[^)]*\), from 0s for 1s\n {2}checkout {2}shared-iterations \(vus 1, iterations 30[^)]*\), from 500ms for \S+ at most\n/, 'an iteration executor\'s duration is a bound')
  t.match(text.stderr, /│ browse {3}│ \d+ +│[^\n]*│ pass 1\/1 +│/, 'browse: its requests, its threshold passed')
  t.match(text.stderr, /│ checkout │ 30 +│(?:[^│\n]*│){6} 30 +│ FAIL 1\/1 +│/, 'checkout: 30 requests, 30 non-2xx, its threshold failed')
  t.equal(yaml.code, 1)
  const r = YAML.parse(yaml.stdout)
  t.same(Object.keys(r.scenarios), ['browse', 'checkout'])
  const browse = r.scenarios.browse.requests.total
  t.ok(browse > 0, `browse answered ${browse} requests`)
  t.same([r.scenarios.checkout.requests.total, r.requests.total], [30, browse + 30], 'checkout exactly 30, the whole their sum')
  t.equal(r.scenarios.checkout.scenario.startTime, 500)
  const s = samples(fs.readFileSync(prom, 'utf8'))
  t.same([s['benchrig_load_requests_total'], s['benchrig_load_requests_total{scenario="browse"}'], s['benchrig_load_requests_total{scenario="checkout"}']], [browse + 30, browse, 30])
  t.equal(s['benchrig_load_responses_total{scenario="checkout",code="404"}'], 30)
  t.equal(s['benchrig_load_request_duration_seconds_count{scenario="browse"}'], r.scenarios.browse.latency.totalCount)
})

t.test('--hist-out and --history: a file and a series per scenario beside the overall ones', async (t) => {
  const r = await run(t)
  const dir = t.testdir({})
  const { writeHistograms, scenarioFile: beside } = require('../../lib/cli/load-output.js')
  t.equal(beside('/x/lat.hgrm', 'browse'), '/x/lat.browse.hgrm')
  t.equal(beside('/x/lat', 'browse'), '/x/lat.browse')
  writeHistograms(r, { histOut: path.join(dir, 'lat.hgrm'), histRaw: path.join(dir, 'raw.csv') })
  t.same(fs.readdirSync(dir).sort(), ['lat.browse.hgrm', 'lat.checkout.hgrm', 'lat.hgrm', 'raw.browse.csv', 'raw.checkout.csv', 'raw.csv'])
  const total = (file) => Number(/Total count\s*=\s*(\d+)/.exec(fs.readFileSync(path.join(dir, file), 'utf8'))[1])
  t.same([total('lat.hgrm'), total('lat.browse.hgrm'), total('lat.checkout.hgrm')],
    [r.latency.totalCount, r.scenarios.browse.latency.totalCount, r.scenarios.checkout.latency.totalCount], 'each file holds its own histogram')

  const { loadHistorySink } = require('../../lib/history/sink.js')
  const { openHistory } = require('../../lib/history/index.js')
  const db = path.join(dir, 'h.sqlite')
  const sink = await loadHistorySink(db, 'v1.0.0')
  t.equal((await sink.record(r)).added, 12, 'four measures of the whole and of each scenario')
  await sink.close()
  const h = await openHistory(db)
  t.teardown(() => h.close())
  const series = await h.series({ measure: 'latency-p99-ms' })
  t.same(series.map((s) => s.key.configuration).sort(), [`connections=${r.connections} pipelining=1`, 'scenario=browse executor=constant-vus', 'scenario=checkout executor=ramping-arrival-rate'])
  const checkout = series.find((s) => s.key.configuration.startsWith('scenario=checkout'))
  t.same(checkout.points[0].values, [r.scenarios.checkout.latency.p99], 'the scenario\'s own p99')
  t.equal(checkout.key.file, r.scenarios.checkout.url.join(' '), 'keyed by its URLs')
})
