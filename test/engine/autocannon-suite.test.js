'use strict'
// scripts/autocannon-suite.js runs autocannon's own API and CLI tests on
// benchrig (npm run test:autocannon, a step of test:all: it fetches autocannon
// from the npm registry). Here: how it reads a test file's TAP, and that its
// list of documented differences is the one docs/load.md shows.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { testsOf, DIFFERENCES, LEFT_OUT, FILES, MIN_PASS } = require('../../scripts/autocannon-suite.js')

t.test('testsOf: top-level subtests, skips, escaped failures, files of bare assertions', async (t) => {
  const tap = [
    'TAP version 13',
    '# Subtest: first',
    '    1..1',
    '    ok 1 - inner assertion',
    'ok 1 - first # time=12.5ms',
    '# Subtest: second',
    '    not ok 1 - inner',
    'not ok 2 - second # time=3ms',
    'ok 3 - left # SKIP left out: why',
    'not ok 4 - Cannot read properties of undefined (reading \'x\')',
    'not ok 5 - child test left in queue: t.test never',
    '1..5'
  ].join('\n')
  t.same(testsOf('test/a.test.js', tap, 1), [
    { name: 'first', ok: true, skip: false },
    { name: 'second', ok: false, skip: false },
    { name: 'left', ok: true, skip: true },
    { name: '(escaped a test) Cannot read properties of undefined (reading \'x\')', ok: false, skip: false }
  ])
  const bare = 'TAP version 13\nok 1 - a line\nok 2 - another\n1..2\n'
  t.same(testsOf('test/b.test.js', bare, 0), [{ name: '(b.test.js)', ok: true, skip: false }])
  t.same(testsOf('test/b.test.js', bare, 1), [{ name: '(b.test.js)', ok: false, skip: false }], 'a bare file that exits non-zero fails')
  t.same(testsOf('test/c.test.js', '# Subtest: x\nok 1 - x\n', 1), [{ name: 'x', ok: true, skip: false }, { name: '(exit code 1)', ok: false, skip: false }])
})

t.test('every documented difference and left-out test has a why, and docs/load.md lists each difference', async (t) => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'load.md'), 'utf8')
  const section = doc.slice(doc.indexOf('**autocannon\'s own test suite.**'), doc.indexOf('## Requests and scripting'))
  t.ok(section.length > 0, 'docs/load.md has the section')
  let n = 0
  for (const [file, tests] of Object.entries(DIFFERENCES)) {
    t.ok(FILES.includes(file), `${file} is one of the files run`)
    for (const [name, why] of Object.entries(tests)) {
      n++
      t.ok(typeof why === 'string' && why.length > 10, `${name}: a why`)
      // a file's pseudo-test "(x.test.js)" or "(escaped a test) …" is named by its file
      const shown = name.startsWith('(') ? path.basename(file) : name
      t.ok(section.includes(shown), `docs/load.md names "${shown}"`)
    }
  }
  for (const tests of Object.values(LEFT_OUT)) for (const why of Object.values(tests)) t.ok(why.length > 5, why)
  t.ok(n > 0 && MIN_PASS >= 90, 'a floor of passing tests')
})
