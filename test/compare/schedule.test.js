'use strict'
const t = require('tap')
const { buildSchedule } = require('../../lib/compare/schedule.js')
const { formatCompareProgress } = require('../../lib/compare/progress.js')

const FILES = ['a', 'b', 'c'].map((n) => ({ file: `/x/cat/${n}.js`, name: `cat/${n}.js` }))

t.test('every file gets every pair once per binary, old and new back to back', (t) => {
  const s = buildSchedule({ files: FILES, runs: 10, seed: 1 })
  t.equal(s.length, 3 * 10 * 2)
  for (let i = 0; i < s.length; i += 2) {
    t.equal(s[i].name, s[i + 1].name)
    t.equal(s[i].pair, s[i + 1].pair)
    t.same([s[i].binary, s[i + 1].binary].sort(), ['new', 'old'])
    t.same([s[i].order, s[i + 1].order], [1, 2])
  }
  // block p holds pair p of every file
  for (let p = 1; p <= 10; p++) {
    const block = s.slice((p - 1) * 6, p * 6)
    t.ok(block.every((r) => r.pair === p), `block ${p}`)
  }
  t.end()
})

t.test('the order is random but fixed by the seed', (t) => {
  const a = buildSchedule({ files: FILES, runs: 30, seed: 42 })
  t.same(buildSchedule({ files: FILES, runs: 30, seed: 42 }), a, 'same seed, same schedule')
  t.not(JSON.stringify(buildSchedule({ files: FILES, runs: 30, seed: 43 })), JSON.stringify(a), 'another seed, another schedule')
  const oldFirst = a.filter((r) => r.order === 1 && r.binary === 'old').length
  t.ok(oldFirst > 25 && oldFirst < 65, `old ran first in ${oldFirst} of 90 pairs`)
  const fileOrders = new Set()
  for (let p = 1; p <= 30; p++) fileOrders.add(a.filter((r) => r.pair === p && r.order === 1).map((r) => r.name).join())
  t.ok(fileOrders.size > 1, 'files are shuffled within blocks')
  t.end()
})

t.test('a later batch continues the numbering without changing earlier pairs', (t) => {
  const first = buildSchedule({ files: FILES, runs: 6, seed: 5 })
  const later = buildSchedule({ files: FILES, runs: 4, seed: 5, firstPair: 7 })
  t.same(later.map((r) => r.pair).filter((p, i, all) => all.indexOf(p) === i), [7, 8, 9, 10])
  t.same(buildSchedule({ files: FILES, runs: 6, seed: 5 }), first)
  t.end()
})

t.test('progress line', (t) => {
  t.equal(formatCompareProgress({ index: 0, total: 60, name: 'cat/a.js', binary: 'old', pair: 1, elapsedMs: 0 }), '[1/60] cat/a.js old pair 1  elapsed 0:00  ETA ?')
  t.equal(formatCompareProgress({ index: 10, total: 60, name: 'cat/a.js', binary: 'new', pair: 6, elapsedMs: 20000 }), '[11/60] cat/a.js new pair 6  elapsed 0:20  ETA 1:40')
  t.equal(formatCompareProgress({ index: 10, total: 60, name: 'cat/a.js', binary: 'new', pair: 6, elapsedMs: 20000, done: 2, queue: 8 }), '[11/60] cat/a.js new pair 6 config 3/8  elapsed 0:20  ETA 1:40', 'the configuration running')
  t.end()
})
