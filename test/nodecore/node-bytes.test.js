'use strict'
// The entry points' output, byte for byte, as Node core's own harness
// printed it for the same files and arguments. The expected texts below are
// what Node's run.js, compare.js, scatter.js and common.js wrote, recorded
// by running them side by side with ours on test/fixtures/nodecore-shapes
// (node 24, November 2026); only the measured numbers are placeholders:
//   <RATE> a rate in run.js's text form (every digit, thousands separators
//          before the decimal point only), checked to be that form of its number
//   <NUM>  a bare number as String(number) writes it (CSV rates)
//   <TIME> seconds with exactly nine decimals (Node sends the elapsed
//          nanoseconds as that text: 0.000033740, not 0.00003374)
const { test } = require('tap')
const path = require('node:path')
const { spawn, fork } = require('node:child_process')
const { trackLine } = require('../../lib/harness/run-suite.js')
const { nodeTime, csvRow } = require('../../lib/record/csv.js')

const REPO = path.join(__dirname, '..', '..')
const SHAPES = path.join(REPO, 'test', 'fixtures', 'nodecore-shapes')
const env = { ...process.env, BENCHRIG_PROGRESS: 'none' }

function node (args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, ...opts })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

const groupedRate = (n) => {
  const [int, ...dec] = String(n).split('.')
  return int.replace(/(\d)(?=(\d{3})+(?!\d))/g, '$1,') + (dec.length ? `.${dec.join('.')}` : '')
}
const PLACES = {
  '<RATE>': ['([0-9][0-9,]*(?:\\.[0-9]+)?(?:e[-+][0-9]+)?)', (s) => groupedRate(Number(s.replace(/,/g, ''))) === s],
  '<NUM>': ['([0-9][^,\\s]*)', (s) => String(Number(s)) === s],
  '<TIME>': ['([0-9]+\\.[0-9]{9})', () => true]
}

/** Asserts `actual` is `template` line for line, the placeholders aside. */
function sameBytes (t, actual, template, what) {
  const want = template.split('\n')
  const got = actual.split('\n')
  t.equal(got.length, want.length, `${what}: ${want.length} lines`)
  let bad = 0
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    const parts = (want[i] ?? '').split(/(<RATE>|<NUM>|<TIME>)/)
    const checks = []
    const re = new RegExp('^' + parts.map((p) => {
      if (PLACES[p]) { checks.push(PLACES[p][1]); return PLACES[p][0] }
      return p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    }).join('') + '$')
    const m = (got[i] ?? '').match(re)
    if (!m || !checks.every((ok, k) => ok(m[k + 1]))) {
      bad++
      t.fail(`${what}, line ${i + 1}`, { found: got[i], wanted: want[i] })
    }
  }
  if (bad === 0) t.pass(`${what}: byte for byte, numbers aside`)
}

// Node's run.js over two categories: a file whose combinationFilter keeps
// nothing still gets its blank line and name; an empty configuration prints
// "name : rate"; values JSON.stringify'd in Node's key order (the last
// declared key first), numbers as JavaScript writes them (1e+21, 1e-7).
const RUN_SIMPLE = String.raw`
assert/filtered-out.js

shapes/empty.js
shapes/empty.js : <RATE>

shapes/numbers.js
shapes/numbers.js x=0.5 n=3: <RATE>
shapes/numbers.js x=-1 n=3: <RATE>
shapes/numbers.js x=1e+21 n=3: <RATE>
shapes/numbers.js x=1e-7 n=3: <RATE>

shapes/scalars.js
shapes/scalars.js mode="a" n=4 type="fast": <RATE>
shapes/scalars.js mode="b" n=4 type="fast": <RATE>

shapes/strings.js
shapes/strings.js n=5 s="with \"dq\"": <RATE>
shapes/strings.js n=5 s="it's": <RATE>
shapes/strings.js n=5 s="café": <RATE>
shapes/strings.js n=5 s="": <RATE>
shapes/strings.js n=5 s="64": <RATE>
`

const RUN_CSV = String.raw`"filename", "configuration", "rate", "time"
"shapes/empty.js", "", <NUM>, <TIME>
"shapes/strings.js", "n=5 s=""with \""dq\""""", <NUM>, <TIME>
"shapes/strings.js", "n=5 s=""it's""", <NUM>, <TIME>
"shapes/strings.js", "n=5 s=""café""", <NUM>, <TIME>
"shapes/strings.js", "n=5 s=""""", <NUM>, <TIME>
"shapes/strings.js", "n=5 s=""64""", <NUM>, <TIME>
`

// --runs 2: the file's header once, then every run's lines
const RUN_TWICE = String.raw`
shapes/scalars.js
shapes/scalars.js mode="a" n=2 type="fast": <RATE>
shapes/scalars.js mode="b" n=2 type="fast": <RATE>
shapes/scalars.js mode="a" n=2 type="fast": <RATE>
shapes/scalars.js mode="b" n=2 type="fast": <RATE>
`

// compare.js: util.inspect quoting (single quotes, double when the string
// has one), no spaces; old and new of one pair (our order of pairs is random)
const COMPARE_ROWS = String.raw`"old","shapes/strings.js","n=5 s='with ""dq""'",<NUM>,<TIME>
"new","shapes/strings.js","n=5 s='with ""dq""'",<NUM>,<TIME>
"old","shapes/strings.js","n=5 s=""it's""",<NUM>,<TIME>
"new","shapes/strings.js","n=5 s=""it's""",<NUM>,<TIME>
"old","shapes/strings.js","n=5 s='café'",<NUM>,<TIME>
"new","shapes/strings.js","n=5 s='café'",<NUM>,<TIME>`

const SCATTER = String.raw`"filename", "n", "s", "rate", "time"
"shapes/strings.js", 5, "with ""dq""", <NUM>, <TIME>
"shapes/strings.js", 5, "it's", <NUM>, <TIME>
"shapes/strings.js", 5, "café", <NUM>, <TIME>
"shapes/strings.js", 5, "", <NUM>, <TIME>
"shapes/strings.js", 5, "64", <NUM>, <TIME>
`

test('run.js, compare.js, scatter.js and a file by hand print what Node core\'s printed', async (t) => {
  const run = (args) => node([path.join(REPO, 'run.js'), '--root', SHAPES, ...args])
  const [simple, csv, twice, cmp, sc, empty, scalars, big] = await Promise.all([
    run(['--exclude', 'ok.js', 'assert', 'shapes']),
    run(['--format', 'csv', '--filter', 'strings', '--filter', 'empty', 'shapes']),
    run(['--runs', '2', '--set', 'n=2', '--filter', 'scalars', 'shapes']),
    node([path.join(REPO, 'compare.js'), '--root', SHAPES, '--old', process.execPath, '--new', process.execPath, '--runs', '1',
      '--set', 's=with "dq"', '--set', "s=it's", '--set', 's=café', '--filter', 'strings', 'shapes']),
    node([path.join(REPO, 'scatter.js'), '--runs', '1', path.join(SHAPES, 'shapes', 'strings.js')]),
    node([path.join(SHAPES, 'shapes', 'empty.js')]),
    node([path.join(SHAPES, 'shapes', 'scalars.js'), 'mode=b']),
    node([path.join(SHAPES, 'shapes', 'numbers.js'), 'x=1e21'])
  ])
  for (const r of [simple, csv, twice, cmp, sc, empty, scalars, big]) t.equal(r.status, 0, r.stderr)
  sameBytes(t, simple.stdout, RUN_SIMPLE, 'run.js --exclude ok.js assert shapes')
  sameBytes(t, csv.stdout, RUN_CSV, 'run.js --format csv')
  sameBytes(t, twice.stdout, RUN_TWICE, 'run.js --runs 2')

  const [head, ...rows] = cmp.stdout.trim().split('\n')
  t.ok(head.startsWith('"binary","filename","configuration","rate","time",'), 'compare.js: Node\'s header, then our columns')
  // Node's five columns of each row, in Node's order of the file's configurations
  const five = rows.map((r) => r.match(/^("(?:old|new)","[^"]*","(?:[^"]|"")*",[^,]*,[^,]*)/)[1])
  const order = (r) => ['with', 'it', 'caf'].findIndex((w) => r.includes(`s='${w}`) || r.includes(`s=""${w}`)) * 2 + (r.startsWith('"new"') ? 1 : 0)
  sameBytes(t, five.sort((a, b) => order(a) - order(b)).join('\n'), COMPARE_ROWS, 'compare.js, Node\'s five columns')

  sameBytes(t, sc.stdout, SCATTER, 'scatter.js')
  // common.js run by hand: no space before ": " when the configuration is empty
  sameBytes(t, empty.stdout, 'shapes/empty.js: <RATE>\n', 'by hand, no configuration')
  sameBytes(t, scalars.stdout, 'shapes/scalars.js mode="b" n=4 type="fast": <RATE>\n', 'by hand, key=value')
  sameBytes(t, big.stdout, 'shapes/numbers.js x=1e+21 n=3: <RATE>\n', 'by hand, a number JSON writes with an exponent')
})

test('under a driver of Node\'s (its run.js), a report\'s time is Node\'s text', async (t) => {
  // Node's common.js sends `time` as text and its drivers print it as they get it.
  const msgs = await new Promise((resolve) => {
    const got = []
    const child = fork(path.join(SHAPES, 'shapes', 'scalars.js'), ['mode=a'], { env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
    child.on('message', (m) => got.push(m))
    child.on('close', () => resolve(got))
  })
  t.same(msgs.map((m) => m.type), ['config', 'report'])
  t.match(msgs[1].time, /^\d+\.\d{9}$/, 'nine decimals, as a string')
  t.same(msgs[1].conf, { mode: 'a', n: 4, type: 'fast' })
})

test('the pieces: nodeTime and --track\'s line', async (t) => {
  t.equal(csvRow([nodeTime(0.00003374), nodeTime(0), nodeTime(12.3456789012), nodeTime(NaN), nodeTime(undefined)]), '0.000033740,0.000000000,12.345678901,,\n')
  const lines = []
  const to = { out: { write: (s) => lines.push(['out', s]) }, stderr: { write: (s) => lines.push(['err', s]) } }
  trackLine('simple', 325, 'shapes/empty.js', { ...to, color: false })
  trackLine('simple', 325, 'shapes/empty.js', { ...to, color: true })
  trackLine('csv', 7, 'shapes/empty.js', { ...to, color: true })
  t.same(lines, [
    ['out', '[325ms] shapes/empty.js\n'],
    ['out', '[\x1b[1m\x1b[33m325ms\x1b[39m\x1b[22m] shapes/empty.js\n'], // Node's styleText(['bold', 'yellow'])
    ['err', '[7ms] shapes/empty.js\n'] // Node's run.js prints none in CSV: ours goes to stderr
  ])
})
