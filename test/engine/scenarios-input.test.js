'use strict'
// --scenarios: every bad input is one UsageError naming the scenario, the
// field and what it takes, before any traffic (the CLI exits 2 and the
// server sees no connection); the file forms k6 users bring (JSON, a
// CommonJS module, the same under `options`) are read; the CLI prints and
// exits by each scenario's thresholds and the overall ones.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { planScenarios } = require('../../lib/engine/scenarios/plan.js')
const { load } = require('../../lib/engine/index.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const URL = 'http://127.0.0.1:1/'

function tmp (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-scenarios-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return (name, text) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, typeof text === 'string' ? text : JSON.stringify(text))
    return file
  }
}

const plan = (scenarios, extra = {}) => planScenarios({ url: URL, scenarios, ...extra })
const car = { executor: 'constant-arrival-rate', rate: 10, duration: '1s', preAllocatedVUs: 1 }

t.test('bad scenarios: one UsageError each, naming the scenario, the field and what is allowed', async (t) => {
  const cases = [
    [{ a: { executor: 'constant-users', vus: 1 } }, /scenario "a": executor "constant-users" is not one of constant-arrival-rate, ramping-arrival-rate, constant-vus, ramping-vus, shared-iterations, per-vu-iterations/],
    [{ a: { vus: 1 } }, /scenario "a": executor \(none\) is not one of/],
    [{ a: { ...car, vu: 1 } }, /scenario "a": unknown field "vu" for constant-arrival-rate: its fields are rate, timeUnit, duration, preAllocatedVUs, maxVUs; every scenario has executor, startTime/],
    [{ a: { ...car, rate: -5 } }, /scenario "a": rate -5: give a number > 0 of iterations per timeUnit/],
    [{ a: { ...car, rate: 0 } }, /scenario "a": rate 0: give a number > 0/],
    [{ a: { executor: 'constant-arrival-rate', rate: 10, preAllocatedVUs: 1 } }, /scenario "a" \(constant-arrival-rate\) needs duration: a duration such as "30s"/],
    [{ a: { executor: 'constant-arrival-rate', rate: 10, duration: '1s' } }, /scenario "a" \(constant-arrival-rate\) needs preAllocatedVUs/],
    [{ a: { ...car, maxVUs: 0 } }, /scenario "a": maxVUs 0: give a whole number >= 1/],
    [{ a: { ...car, preAllocatedVUs: 5, maxVUs: 2 } }, /scenario "a": maxVUs 2: must be at least preAllocatedVUs \(5\)/],
    [{ a: { ...car, duration: 10 } }, /scenario "a": duration 10: give a duration string such as "30s", "1m30s" or "500ms"/],
    [{ a: { ...car, duration: '10 parsecs' } }, /scenario "a": duration "10 parsecs": give a positive duration/],
    [{ a: { ...car, timeUnit: '0s' } }, /scenario "a": timeUnit "0s": give a positive duration/],
    [{ a: { ...car, startTime: 'soon' } }, /scenario "a": startTime "soon": give a duration/],
    [{ a: { ...car, startTime: '-1s' } }, /scenario "a": startTime "-1s"/],
    [{ a: { ...car, gracefulStop: 3 } }, /scenario "a": gracefulStop 3: give a duration string/],
    [{ a: { executor: 'ramping-vus', stages: [] } }, /scenario "a": stages \[\]: give a non-empty list of \{ duration, target \}/],
    [{ a: { executor: 'ramping-vus' } }, /scenario "a" \(ramping-vus\) needs stages/],
    [{ a: { executor: 'ramping-vus', stages: [{ duration: '0s', target: 5 }] } }, /scenario "a": stages\[0\]\.duration "0s": give a positive duration/],
    [{ a: { executor: 'ramping-vus', stages: [{ duration: '1s', target: 2.5 }] } }, /scenario "a": stages\[0\]\.target 2\.5: give a whole number of VUs >= 0/],
    [{ a: { executor: 'ramping-vus', stages: [{ duration: '1s', target: 5, hold: 1 }] } }, /scenario "a": stages\[0\]: unknown field "hold": a stage has duration and target/],
    [{ a: { executor: 'ramping-vus', stages: ['1s:5'] } }, /scenario "a": stages\[0\]: give \{ duration, target \}/],
    [{ a: { executor: 'ramping-vus', startVUs: 0, stages: [{ duration: '1s', target: 0 }] } }, /scenario "a": stages .*every target is 0 and startVUs is 0, so nothing would be sent/],
    [{ a: { executor: 'ramping-arrival-rate', preAllocatedVUs: 1, stages: [{ duration: '1s', target: -1 }] } }, /scenario "a": stages\[0\]\.target -1: give a rate \(iterations per timeUnit\) >= 0/],
    [{ a: { executor: 'shared-iterations', iterations: 0 } }, /scenario "a": iterations 0: give a whole number >= 1/],
    [{ a: { executor: 'per-vu-iterations', vus: 1.5 } }, /scenario "a": vus 1\.5: give a whole number >= 1/],
    [{ a: { executor: 'constant-vus', duration: '1s', exec: 'contacts' } }, /scenario "a": exec is not supported: k6 runs that function in a JavaScript VU/],
    [{ a: { executor: 'constant-vus', duration: '1s', env: { A: '1' } } }, /scenario "a": env is not supported: k6 sets these variables for its JavaScript VUs/],
    [{ a: { executor: 'constant-vus', duration: '1s', tags: { a: 1 } } }, /scenario "a": tags: give an object of strings/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: [42] } }, /scenario "a": thresholds: give a list of expressions such as \["p99<50ms", "errors<1%", "rps>100"\], or k6's/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { http_req_failed: ['rate<0.01'] } } }, /scenario "a": thresholds "http_req_failed": k6 counts errors and non-2xx\/3xx responses together; benchrig keeps them apart: write \["errors<1%", "non2xx<1%"\]/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { checks: ['rate>0.9'] } } }, /scenario "a": thresholds "checks": only http_req_duration, http_reqs and dropped_iterations have counterparts here/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { http_req_duration: ['p(95)<fast'] } } }, /"p\(95\)<fast" is not a k6 threshold expression such as "p\(95\)<500"/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { http_req_duration: ['rate<5'] } } }, /http_req_duration's rate has no counterpart here: use p\(N\), avg, med, min or max/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { http_reqs: ['avg<5'] } } }, /http_reqs's avg has no counterpart here: use count or rate/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { 'http_req_duration{status:200}': ['p(95)<5'] } } }, /only a \{scenario:NAME\} filter has a counterpart here/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { 'http_req_duration{scenario:b}': ['p(95)<5'] } }, b: { executor: 'constant-vus', duration: '1s' } }, /scenario "a": thresholds "http_req_duration\{scenario:b\}": a scenario's thresholds are on its own figures; move this one to scenario "b"/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { http_req_duration: [{ threshold: 'p(95)<5', abortOnFail: true }] } } }, /abortOnFail is not supported with --scenarios/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: { 'http-req': ['p(95)<5'] } } }, /"http-req": not a k6 metric name/],
    [{ a: { executor: 'constant-vus', duration: '1s', thresholds: ['p99 < fast'] } }, /scenario "a": thresholds: invalid --threshold "p99 < fast"/],
    [{ a: { executor: 'constant-vus', duration: '1s', headers: ['bad header'] } }, /scenario "a": invalid -H\/--headers "bad header"/],
    [{ 'a b': { executor: 'constant-vus', duration: '1s' } }, /scenario name "a b": use letters, digits, _ and -/],
    [{ a: 'constant-vus' }, /scenario "a": give an object \{ executor, \.\.\. \}/],
    [{}, /"scenarios" is empty/]
  ]
  for (const [scenarios, message] of cases) {
    t.throws(() => plan(scenarios), { name: 'UsageError', code: 'BENCHRIG_ERR_SCENARIO', message }, JSON.stringify(scenarios))
  }
  // the options of the whole run that an executor sets
  for (const [k, v, flag] of [['connections', 5, '-c/--connections'], ['duration', '5s', '-d/--duration'], ['overallRate', 100, '-R/--overall-rate'], ['amount', 10, '-a/--amount'], ['pipelining', 4, '-p/--pipelining'], ['stages', '1s:10', '--stages'], ['forever', true, '-f/--forever']]) {
    t.throws(() => plan({ a: car }, { [k]: v }), { code: 'BENCHRIG_ERR_SCENARIO', message: `${flag} does not combine with --scenarios: each scenario's executor sets` })
  }
  // k6's thresholds object: the metrics with a counterpart, and {scenario:NAME} filters moved to that scenario
  const k6 = plan({ a: { ...car, thresholds: { http_req_duration: ['p(95)<500', { threshold: 'avg <= 20' }], http_reqs: ['count>10', 'rate>=5'] } }, b: { executor: 'constant-vus', duration: '1s' } },
    { thresholds: ['errors==0'] })
  t.same(k6.scenarios[0].opts.thresholds.map((x) => x.expr), ['p95<500ms', 'mean<=20ms', 'requests>10', 'rps>=5'])
  const fromFile = planScenarios({ url: URL, scenarios: { a: car, b: { executor: 'constant-vus', duration: '1s' } } })
  t.same(fromFile.thresholds, [])
  const top = planScenarios({
    url: URL,
    scenarios: tmp(t)('k6.json', { scenarios: { a: car, b: { executor: 'constant-vus', duration: '1s', thresholds: ['p99<9ms'] } }, thresholds: { 'http_req_duration{scenario:b}': ['med===3'], http_req_duration: ['max<1000'] } })
  })
  t.same(top.thresholds.map((x) => x.expr), ['max<1000ms'], 'the whole run\'s')
  t.same(top.scenarios[1].opts.thresholds.map((x) => x.expr), ['p99<9ms', 'p50==3ms'], 'b\'s own, then the top level\'s {scenario:b}')
  t.same(top.scenarios[0].opts.thresholds, [])
  t.throws(() => planScenarios({ url: URL, scenarios: tmp(t)('k6x.json', { scenarios: { a: car }, thresholds: { 'http_reqs{scenario:zz}': ['count>1'] } }) }), { message: /thresholds "http_reqs\{scenario:zz\}": no scenario "zz" in the file/ })
  t.throws(() => planScenarios({ scenarios: { a: car } }), { message: /scenario "a" has no url: give "url" in the scenario, or a URL on the command line/ })
  t.throws(() => plan({ a: car }, { thresholds: ['nonsense'] }), { message: /^--threshold: invalid --threshold "nonsense"/ })
  // load() throws it at once: nothing starts
  t.throws(() => load({ url: URL, scenarios: { a: { ...car, rate: -1 } } }), { code: 'BENCHRIG_ERR_SCENARIO' })
})

t.test('the file: JSON, a CommonJS module, k6\'s options wrapper; other forms refused with the fix', async (t) => {
  const file = tmp(t)
  const doc = { scenarios: { a: car, b: { executor: 'constant-vus', duration: '2s', startTime: '3s' } }, thresholds: ['errors==0'] }
  const fromJson = planScenarios({ url: URL, scenarios: file('s.json', doc) })
  t.same(fromJson.scenarios.map((s) => [s.name, s.startTimeMs, s.durationMs]), [['a', 0, 1000], ['b', 3000, 2000]])
  t.same(fromJson.thresholds.map((x) => x.expr), ['errors==0'])
  t.equal(fromJson.durationMs, 5000, 'the run lasts until its last scenario ends')
  const fromJs = planScenarios({ url: URL, scenarios: file('s.js', `module.exports = ${JSON.stringify(doc)}`), thresholds: ['p99<1s'] })
  t.same(fromJs.thresholds.map((x) => x.expr), ['errors==0', 'p99<1s'], 'the file\'s thresholds, then those of --threshold')
  const wrapped = planScenarios({ url: URL, scenarios: file('o.js', `exports.options = ${JSON.stringify(doc)}`) })
  t.same(wrapped.scenarios.map((s) => s.name), ['a', 'b'], 'exports.options = { scenarios } as k6 writes it')
  const bad = [
    ['bare.json', { a: car }, /no "scenarios" object: wrap the map of scenarios as \{ scenarios: \{ NAME: \{\.\.\.\} \} \}/],
    ['none.json', { x: 1 }, /no "scenarios" object: give \{ scenarios:/],
    ['list.json', [car], /give an object \{ scenarios:/],
    ['extra.json', { ...doc, vus: 10 }, /unknown key "vus" beside the scenarios/],
    ['broken.json', '{ "scenarios": ', /not valid JSON/],
    ['s.yaml', 'scenarios: {}', /name the file \.json \(JSON\) or \.js\/\.cjs/]
  ]
  for (const [name, text, message] of bad) {
    t.throws(() => planScenarios({ url: URL, scenarios: file(name, text) }), { code: 'BENCHRIG_ERR_SCENARIO', message }, name)
  }
  // the examples of docs/load.md plan as they are
  const examples = path.join(__dirname, '..', '..', 'examples', 'scenarios')
  t.same(planScenarios({ url: URL, scenarios: path.join(examples, 'two-workloads.json') }).scenarios.map((s) => s.executor), ['constant-vus', 'constant-arrival-rate'])
  t.same(planScenarios({ url: URL, scenarios: path.join(examples, 'mixed.js') }).scenarios.map((s) => s.executor), ['shared-iterations', 'per-vu-iterations', 'ramping-vus', 'ramping-arrival-rate'])
  // k6's `export const options`: read where node can require an ES module, else refused with the fix
  const esm = file('esm.js', `export const options = ${JSON.stringify(doc)}`)
  if (process.features.require_module) t.same(planScenarios({ url: URL, scenarios: esm }).scenarios.map((s) => s.name), ['a', 'b'])
  else t.throws(() => planScenarios({ url: URL, scenarios: esm }), { message: /the module failed to load .*it must be CommonJS: module\.exports = \{ scenarios: \{\.\.\.\} \}/ })
  // a scenario's files are found beside the scenarios file, wherever the command runs
  const body = file('body.txt', 'from a file')
  const feed = file('rows.csv', 'id\n1\n2\n')
  const withFiles = planScenarios({ url: URL, scenarios: file('files.json', { scenarios: { a: { ...car, bodyFile: 'body.txt', feed: 'rows.csv', url: 'http://127.0.0.1:1/?id={{id}}' } } }) })
  t.equal(withFiles.scenarios[0].opts.requests[0].body.toString(), 'from a file')
  t.equal(withFiles.scenarios[0].opts.feed.file, feed, 'feed: beside the file')
  t.equal(path.dirname(body), path.dirname(feed))
  t.throws(() => planScenarios({ url: URL, scenarios: path.join(os.tmpdir(), 'no-such-scenarios.json') }), { message: /no-such-scenarios\.json": no such file/ })
})

t.test('the CLI: bad input exits 2 before any connection; thresholds per scenario set the exit code and name the scenario', async (t) => {
  let connections = 0
  let served = 0
  const server = http.createServer((req, res) => { served++; res.end('ok') })
  server.on('connection', () => connections++)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
  const url = `http://127.0.0.1:${server.address().port}/`
  const file = tmp(t)
  // spawned asynchronously: the server answers from this process
  const cli = (args) => spawnOutput(process.execPath, [BIN, 'load', ...args])

  const bad = await cli(['--scenarios', file('bad.json', { scenarios: { ok: { executor: 'constant-vus', duration: '1s' }, typo: { executor: 'shared-iterations', iteration: 5 } } }), url])
  t.equal(bad.code, 2, bad.stderr)
  t.match(bad.stderr, /^benchrig load: --scenarios: scenario "typo": unknown field "iteration" for shared-iterations: its fields are vus, iterations, maxDuration/)
  const flag = await cli(['-c', '5', '--scenarios', file('ok.json', { scenarios: { ok: { executor: 'constant-vus', duration: '1s' } } }), url])
  t.equal(flag.code, 2)
  t.match(flag.stderr, /-c\/--connections does not combine with --scenarios/)
  t.equal(connections, 0, 'the server saw no connection')

  const doc = {
    scenarios: {
      fast: { executor: 'per-vu-iterations', vus: 2, iterations: 5, thresholds: ['requests==10'] },
      slow: { executor: 'shared-iterations', vus: 1, iterations: 4, startTime: '100ms', thresholds: ['requests>100'] }
    },
    thresholds: ['errors==0']
  }
  const run = await cli(['--no-progress', '--interval', '50', '--scenarios', file('run.json', doc), url])
  t.equal(run.code, 1, 'a failed scenario threshold fails the run')
  t.match(run.stderr, /Running 2 scenarios\n {2}fast: per-vu-iterations, from 0s for 600s at most @ http:\/\/127\.0\.0\.1:\d+\/\n {2}slow: shared-iterations, from 0\.1s/)
  t.match(run.stderr, /Thresholds of scenario "fast":\n {2}pass {2}requests==10 {2}requests = 10\n/)
  t.match(run.stderr, /Thresholds of scenario "slow":\n {2}FAIL {2}requests>100 {2}requests = 4\n/)
  t.match(run.stderr, /Thresholds:\n {2}pass {2}errors==0/)
  t.match(run.stderr, /benchrig load: scenario "slow": threshold "requests>100" failed: requests was 4\n/)
  t.match(run.stdout, /^fast: interval 0\.0s \+\d+ms: \d+ req, /m, '--interval rows named by their scenario')
  t.match(run.stdout, /^slow: interval 0\.1s \+\d+ms: \d+ req, /m, 'on the run\'s clock: the later scenario\'s first row starts at its startTime')
  const json = await cli(['-j', '--scenarios', file('run2.json', { scenarios: { fast: doc.scenarios.fast } }), '--threshold', 'requests<5', url])
  t.equal(json.code, 1, 'an overall threshold (--threshold) fails it too')
  const result = JSON.parse(json.stdout)
  t.equal(result.scenarios.fast.requests.total, 10)
  t.same(result.thresholds, [{ expr: 'requests<5', value: 10, ok: false }])
  t.match(json.stderr, /^benchrig load: threshold "requests<5" failed: requests was 10\n$/, 'with -j only the failure lines on stderr')

  // two generators run one file with --shard: each its part; benchrig merge adds them up to the file
  const before = served
  const shardFile = file('shards.json', { scenarios: { si: { executor: 'shared-iterations', vus: 3, iterations: 25 }, pvi: { executor: 'per-vu-iterations', vus: 3, iterations: 4 } } })
  const parts = await Promise.all(['0/2', '1/2'].map((s) => cli(['-j', '--shard', s, '--scenarios', shardFile, url])))
  t.same(parts.map((p) => p.code), [0, 0])
  t.equal(served - before, 25 + 12, 'the server got the file\'s 25 + 3 x 4 requests in all')
  const results = parts.map((p) => JSON.parse(p.stdout))
  t.same(results.map((r) => r.scenarios.si.requests.total), [13, 12], 'shared-iterations 25 split 13 + 12')
  t.same(results.map((r) => r.scenarios.pvi.requests.total), [8, 4], 'per-vu-iterations: 2 and 1 of the 3 VUs, 4 each')
  const files = results.map((r, i) => file(`shard${i}.json`, r))
  const merged = await spawnOutput(process.execPath, [BIN, 'merge', '-j', ...files])
  t.equal(merged.code, 0, merged.stderr)
  const whole = JSON.parse(merged.stdout)
  t.same([whole.scenarios.si.requests.total, whole.scenarios.pvi.requests.total, whole.requests.total], [25, 12, 37], 'merged: each scenario and the whole as one run of the file')
  t.same(whole.scenarios.si.scenario, results[0].scenarios.si.scenario, 'the scenario\'s plan kept (the file\'s params)')
})
