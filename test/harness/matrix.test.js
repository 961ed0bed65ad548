'use strict'
const { test } = require('tap')
const { normalizeConfigs, crossProduct, buildQueue, reduceForTest, selectGroups } = require('../../lib/harness/matrix.js')
const { parseBenchArgs, coerceValue, isPassThroughKey, confToArgs, nearestKey } = require('../../lib/harness/args.js')

const args = (...a) => parseBenchArgs(a)

test('the matrix is the cross product in declaration order, first key slowest', async (t) => {
  const { queue, keys } = buildQueue({ configs: { a: [1, 2], b: ['x', 'y'], c: true } })
  t.same(keys, ['a', 'b', 'c'])
  t.same(queue, [
    { a: 1, b: 'x', c: true }, { a: 1, b: 'y', c: true },
    { a: 2, b: 'x', c: true }, { a: 2, b: 'y', c: true }
  ])
  t.same(queue.map((c) => Object.keys(c)), queue.map(() => ['c', 'b', 'a']), 'keys in Node core\'s order: the last declared first')
  t.same(buildQueue({ configs: {} }).queue, [{}], 'no keys: one empty configuration')
})

test('config values: scalars, types, mixed types and bad values are clear errors', async (t) => {
  t.same(normalizeConfigs({ n: 5, s: 'a', b: false }), { n: [5], s: ['a'], b: [false] })
  t.throws(() => normalizeConfigs({ n: [1, 'two'] }), { code: 'BENCHRIG_ERR_BENCHMARK', message: /configuration "n" mixes types \(number and string\)/ })
  t.throws(() => normalizeConfigs({ n: [true, 1] }), { message: /"n" mixes types/ })
  t.throws(() => normalizeConfigs({ o: [{}] }), { message: /configuration "o" has a value of type object/ })
  t.throws(() => normalizeConfigs({ o: [null] }), { message: /type null/ })
  t.throws(() => normalizeConfigs({ o: [[1]] }), { message: /type array/ })
  t.throws(() => normalizeConfigs({ f: [() => 1] }), { message: /type function/ })
  t.throws(() => normalizeConfigs({ e: [] }), { message: /"e" has no values/ })
  t.same(normalizeConfigs({ x: [0, 10, Infinity], y: [-Infinity, NaN] }), { x: [0, 10, Infinity], y: [-Infinity, NaN] }, 'any number, as in Node core (util/ declares maxObjectProperties: [0, 10, 100, Infinity])')
  t.throws(() => normalizeConfigs([1, 2]), { message: /configs must be an object/ })
})

test('combinationFilter keeps what it returns true for, and must return a boolean', async (t) => {
  const configs = { a: [1, 2, 3], b: ['x', 'y'] }
  const { queue } = buildQueue({ configs, options: { combinationFilter: (c) => c.a !== 2 && !(c.a === 3 && c.b === 'y') } })
  t.same(queue, [{ a: 1, b: 'x' }, { a: 1, b: 'y' }, { a: 3, b: 'x' }])
  t.throws(() => buildQueue({ configs, options: { combinationFilter: () => 1 } }), { message: /combinationFilter must return a boolean, returned number/ })
  t.throws(() => buildQueue({ configs, options: { combinationFilter: 'no' } }), { message: /combinationFilter must be a function/ })
  const seen = []
  crossProduct({ a: [1] }, (c) => { seen.push(c); c.a = 99; return true })
  t.same(seen, [{ a: 99 }], 'the filter gets a copy')
})

test('byGroups: group is a key, each group expands on its own, group=NAME selects', async (t) => {
  const configs = { small: { len: [1, 2], n: [10] }, big: { len: [1000], n: [5], extra: ['e'] } }
  const all = buildQueue({ configs, options: { byGroups: true } })
  t.same(all.queue, [
    { group: 'small', len: 1, n: 10 }, { group: 'small', len: 2, n: 10 },
    { group: 'big', len: 1000, n: 5, extra: 'e' }
  ])
  t.same(all.keys, ['group', 'len', 'n', 'extra'])
  t.same(buildQueue({ configs, options: { byGroups: true }, args: args('group=big') }).queue, [{ group: 'big', len: 1000, n: 5, extra: 'e' }])
  t.same(buildQueue({ configs, options: { byGroups: true }, args: args('len=7') }).queue.map((c) => c.len), [7, 7], 'narrowing applies to every group (deduplicated)')
  t.same(buildQueue({ configs, options: { byGroups: true }, args: args('--test') }).queue, [{ group: 'small', len: 1, n: 1 }, { group: 'big', len: 1, n: 1, extra: 'e' }], '--test: one configuration of every group, as in Node core')
  t.same(buildQueue({ configs, options: { byGroups: true }, args: args('--test', 'group=big') }).queue, [{ group: 'big', len: 1, n: 1, extra: 'e' }])
  t.equal(buildQueue({ configs, options: { byGroups: true }, args: args('--test-all') }).queue.length, 3)
  t.throws(() => buildQueue({ configs: { g: { group: ['x'] } }, options: { byGroups: true } }), { message: /"group" is the name of the group/ })
  t.throws(() => buildQueue({ configs: { g: { n: [1, 'x'] } }, options: { byGroups: true } }), { message: /group "g": configuration "n" mixes types/ })
})

test('argv narrows keys, typed like the declared values; repeats make a list', async (t) => {
  const configs = { n: [1, 2], s: ['a', 'b'], b: [true] }
  t.same(buildQueue({ configs, args: args('n=5', 'n=6', 's=zz', 'b=false') }).queue, [
    { n: 5, s: 'zz', b: false }, { n: 6, s: 'zz', b: false }
  ])
  t.equal(coerceValue('n', '1e3', 'number'), 1000)
  t.equal(coerceValue('b', '1', 'boolean'), true)
  t.equal(coerceValue('s', '12', 'string'), '12')
  t.throws(() => buildQueue({ configs, args: args('n=abc') }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: 'n=abc: "n" takes numbers' })
  t.throws(() => buildQueue({ configs, args: args('n=') }), { message: /"n" takes numbers/ })
  t.throws(() => buildQueue({ configs, args: args('b=yes') }), { message: /"b" takes true or false/ })
})

test('an unknown key passes through (Node core\'s extra_options) or, strict, names itself and the known keys', async (t) => {
  const configs = { n: [1], len: [2] }
  t.throws(() => buildQueue({ configs, args: args('lenn=3'), strict: true }), {
    name: 'UsageError',
    code: 'BENCHRIG_ERR_UNKNOWN_KEY',
    message: 'unknown configuration key "lenn" in lenn=3; known keys: n, len (--strict)'
  })
  const loose = buildQueue({ configs, args: args('lenn=3', 'lenn=4', 'n=1') })
  t.same(loose.queue, [{ len: 2, n: 1 }], 'the queue is as without the key')
  t.same(loose.extra, { lenn: '4' }, 'the key goes to the children as argv, the last value wins as in Node')
  t.same(loose.unknown, ['lenn'], 'listed once, for the warning')
  t.equal(nearestKey('lenn', ['n', 'len']), 'len')
  t.equal(nearestKey('N', ['n', 'len']), 'n', 'case does not count')
  t.equal(nearestKey('x', []), undefined)
  const r = buildQueue({ configs, args: args('benchmarker=wrk', 'cpuset_server=0', 'benchrig_timeout=5') })
  t.same(r.queue, [{ n: 1, len: 2, benchmarker: 'wrk' }], 'benchmarker becomes the last conf key, as in Node core')
  t.same(r.extra, { cpuset_server: '0', benchrig_timeout: '5' })
  t.ok(isPassThroughKey('benchmarker'))
  t.notOk(isPassThroughKey('cpuset'))
  t.same(confToArgs({ a: 1, b: 'x' }, { cpuset_x: '1' }), ['a=1', 'b=x', 'cpuset_x=1'])
  t.throws(() => parseBenchArgs(['nokey']), { message: /bad argument "nokey": a benchmark file takes key=value/ })
  t.throws(() => parseBenchArgs(['=1']), { message: /bad argument "=1"/ })
  t.same(parseBenchArgs(['a=b=c', 'x=']), { pairs: [['a', 'b=c'], ['x', '']], mode: undefined })
})

test('--test: first values, numbers > 1 become 1, durations tiny, options.test wins, argv still applies', async (t) => {
  const configs = { n: [1e6, 10], len: [0, 64], dur: [5], enc: ['utf8', 'hex'], neg: [-3, 4], on: [false, true] }
  t.same(buildQueue({ configs, args: args('--test') }).queue, [{ n: 1, len: 0, dur: 0.25, enc: 'utf8', neg: -3, on: false }])
  t.same(buildQueue({ configs, options: { test: { enc: 'hex', n: [3, 4] } }, args: args('--test') }).queue,
    [{ n: 3, len: 0, dur: 0.25, enc: 'hex', neg: -3, on: false }])
  t.same(buildQueue({ configs, options: { test: { enc: 'hex' } }, args: args('--test', 'enc=latin1', 'n=7') }).queue,
    [{ n: 7, len: 0, dur: 0.25, enc: 'latin1', neg: -3, on: false }], '--set beats the test values')
  t.throws(() => buildQueue({ configs, options: { test: { nope: 1 } }, args: args('--test') }), { message: /options.test names "nope"/ })
  t.throws(() => buildQueue({ configs, options: { test: { n: 'x' } }, args: args('--test') }), { message: /options.test.n is string/ })
  t.same(reduceForTest({ duration: [30], seconds: [0.01] }, undefined, 'test'), { duration: [0.25], seconds: [0.01] }, 'a duration becomes the test-mode duration the load really runs')
})

test('--test falls back to the first allowed combination when the filter rejects the reduced one', async (t) => {
  const configs = { a: ['x', 'y'], n: [100] }
  const { queue } = buildQueue({ configs, options: { combinationFilter: (c) => c.a === 'y' }, args: args('--test') })
  t.same(queue, [{ a: 'y', n: 1 }])
  const none = buildQueue({ configs, options: { combinationFilter: () => false }, args: args('--test') })
  t.same(none.queue, [])
})

test('--test-all: every combination, work sizes made tiny, duplicates dropped', async (t) => {
  const configs = { enc: ['a', 'b'], len: [16, 1024], n: [1e6, 2e6], dur: [5, 10] }
  const { queue } = buildQueue({ configs, args: args('--test-all') })
  t.equal(queue.length, 4)
  t.same(queue[0], { enc: 'a', len: 16, n: 1, dur: 0.25 })
  t.same([...new Set(queue.map((c) => c.len))], [16, 1024], 'non-work keys keep all values')
  const withTest = buildQueue({ configs, options: { test: { len: 3 } }, args: args('--test-all') })
  t.same(withTest.queue.map((c) => c.len), [3, 3])
  t.same(parseBenchArgs(['--test', '--test-all']).mode, 'test-all')
  t.same(parseBenchArgs(['--test-all', '--test']).mode, 'test-all')
})

test('NODE_RUN_BENCHMARK_GROUPS: only the named groups run, in the file\'s order', async (t) => {
  const configs = { small: { n: [1], len: [1, 2] }, big: { n: [1], len: [1000] }, odd: { m: ['x'] } }
  const q = buildQueue({ configs, options: { byGroups: true }, groups: ['odd', 'small'] }).queue
  t.same(q.map((c) => c.group), ['small', 'small', 'odd'])
  t.same(Object.keys(q[0]), ['group', 'len', 'n'], 'group first, then Node\'s order')
  t.throws(() => buildQueue({ configs, options: { byGroups: true }, groups: ['large'] }), { message: 'NODE_RUN_BENCHMARK_GROUPS names "large", which this file does not have; its groups: small, big, odd' })
  t.same(selectGroups([{ name: undefined, values: {} }], ['x']), [{ name: undefined, values: {} }], 'a file without groups ignores it')
})
