'use strict'
// The compare core's parts: sides (how a process starts on each), the plan,
// the sink slot, the rule registry.
const t = require('tap')
const path = require('node:path')
const { binarySide, binarySides, fileOnSide, envOnSide } = require('../../lib/compare/sides.js')
const { runOne } = require('../../lib/compare/run-compare.js')
const { openSinks, SINKS } = require('../../lib/compare/sinks.js')
const { buildPlan } = require('../../lib/compare/plan.js')
const { ruleFor } = require('../../lib/compare/rules.js')

const fakeDescribe = (sha) => () => ({ path: '/bin/x', version: 'v0', sha256: sha })

t.test('a side with its own directory, environment and node options starts its process there', async (t) => {
  const side = binarySide('new', '/opt/node', { root: '/wt/new/benchmark', cwd: '/wt/new', env: { NODE_PATH: '/p/new' }, execArgv: ['--no-opt'], describe: fakeDescribe('b') })
  t.equal(fileOnSide(side, '/repo/benchmark/a/one.js', '/repo/benchmark'), path.join('/wt/new/benchmark', 'a/one.js'))
  t.equal(fileOnSide(binarySide('old', '/x'), '/repo/benchmark/a/one.js', '/repo/benchmark'), '/repo/benchmark/a/one.js', 'a bare binary runs the plan\'s file')
  t.same(envOnSide(side, { A: '1' }), { A: '1', NODE_PATH: '/p/new' })
  t.equal(envOnSide(binarySide('old', '/x'), undefined), undefined)
  const seen = []
  const runFile = async (o) => { seen.push(o); o.onConfig({ queueLength: 1 }); o.onReport({ name: 'a/one.js', conf: { n: 1 }, rate: 10, time: 1 }); return { failures: 0 } }
  const sides = { old: binarySide('old', '/opt/old', { describe: fakeDescribe('a') }), new: side }
  const rows = []
  await runOne({ file: '/repo/benchmark/a/one.js', name: 'a/one.js', pair: 1, binary: 'new', order: 1 }, { sides, root: '/repo/benchmark', args: [], seed: 1, onRow: (r) => rows.push(r), runFile, now: () => 5 })
  t.match(seen[0], { file: path.join('/wt/new/benchmark', 'a/one.js'), execPath: '/opt/node', cwd: '/wt/new', execArgv: ['--no-opt'] })
  t.equal(seen[0].env.NODE_PATH, '/p/new')
  t.match(rows[0], { binary: 'new', filename: 'a/one.js', configuration: 'n=1', rate: 10, start: 5 })
})

t.test('a sink is one entry: it sees rows, failures, progress and the end', async (t) => {
  const got = []
  const history = { name: 'history', open: (o) => (o.opts.history ? { row: (r) => got.push(['row', r.rate]), failure: (f) => got.push(['failure', f.pair]), end: (s) => got.push(['end', s.rows.length]), close: () => got.push(['close']) } : undefined) }
  const stderr = { write: () => true }
  const out = []
  // this fake stands in for the real history sink, which would open the
  // default store (.benchrig/history.sqlite in the checkout: opts.history
  // here is not a --history value)
  const sinks = openSinks({ opts: { history: 'db', progress: false }, meta: {}, stdout: { write: (s) => out.push(s) }, stderr, append: () => false }, [...SINKS.filter((s) => s.name !== 'history'), history])
  sinks.row({ binary: 'old', filename: 'a/one.js', configuration: 'n=1', rate: 3, time: 1 })
  sinks.failure({ pair: 2 })
  sinks.progress({ phase: 'report' })
  sinks.end({ rows: [1], stops: [] })
  sinks.close()
  sinks.close()
  t.same(got, [['row', 3], ['failure', 2], ['end', 1], ['close']], 'the history sink saw each event once')
  t.equal(out.length, 2, 'the CSV sink wrote a header and a row to stdout')
  const none = []
  openSinks({ opts: { progress: false }, meta: {}, stdout: { write: (s) => none.push(s) }, stderr, append: () => false }, [history]).close()
  t.same(none, [], 'a sink the options do not ask for is not opened')
  const closed = []
  const bad = { name: 'bad', open: () => { throw new Error('cannot open') } }
  const first = { name: 'first', open: () => ({ close: () => closed.push('first') }) }
  t.throws(() => openSinks({ opts: {}, meta: {}, stdout: { write: () => true }, stderr, append: () => false }, [first, bad]), /cannot open/)
  t.same(closed, ['first'], 'a sink that fails to open closes those before it')
})

t.test('the plan names the sides and slices a shard', async (t) => {
  const sides = binarySides({ old: '/a', new: '/b' })
  sides.old.describe = fakeDescribe('a')
  sides.new.describe = fakeDescribe('b')
  const found = [{ file: '/r/x/one.js', name: 'x/one.js' }, { file: '/r/x/two.js', name: 'x/two.js' }]
  const whole = buildPlan({ sides, root: '/r', found, seed: 7, opts: { runs: 4, categories: ['x'], args: [] } })
  t.equal(whole.schedule.length, 16, '4 pairs x 2 files x 2 sides')
  t.equal(whole.sides, sides)
  const shard = buildPlan({ sides, root: '/r', found, seed: 7, opts: { runs: 4, categories: ['x'], args: [], shard: { index: 1, count: 2, source: 'flag' } } })
  t.equal(shard.schedule.length, 8)
  t.equal(shard.id, whole.id, 'a shard has the whole plan\'s id')
  t.match(shard.tags, { shard_index: 1, shard_count: 2 })
  t.equal(ruleFor({ runs: 5 }).label, 'fixed 5')
  t.equal(ruleFor({ auto: { pilot: 6, target: 1, maxPairs: 12 } }).name, 'auto')
})
