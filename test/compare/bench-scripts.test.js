'use strict'
// The pure parts of two bench/ scripts of issue 24 and their usage errors:
// time-to-verdict.js --measures (the agreement table, n cut for valgrind)
// and harness-overhead.js --compare (the measured time of serial and duet
// rows). Their runs are long; docs/compare.md quotes them.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { agreement, cutN, cutRoot } = require('../../bench/time-to-verdict-measures.js')
const { measuredMs } = require('../../bench/harness-overhead/compare.js')

const REPO = path.join(__dirname, '..', '..')

t.test('the agreement of measures: per configuration without n, per two measures', async (t) => {
  const r = (configuration, verdict, change) => ({ filename: 'a/x.js', configuration, verdict, change })
  const a = agreement([
    { measure: 'wall', results: [r('n=100 k=1', 'faster', 5), r('n=100 k=2', 'slower', -8), r('n=100 k=3', 'inconclusive', 1)] },
    { measure: 'instructions', results: [r('n=10 k=1', 'faster', 2), r('n=10 k=2', 'faster', 7), r('n=10 k=3', 'no change', -0.1)] }
  ])
  t.same(a.configurations.map((c) => c.configuration), ['k=1', 'k=2', 'k=3'], 'matched without n')
  t.same(a.pairs, [{ measures: ['wall', 'instructions'], configurations: 3, sameSign: 1, bothDecided: 2, agree: 1, oneDecided: 0 }])
  t.match(a.opposite, [{ filename: 'a/x.js', calls: [{ measure: 'wall', verdict: 'slower' }, { measure: 'instructions', verdict: 'faster' }] }])
})

t.test('n cut for valgrind: every value of the n key, in a copy of the held set', async (t) => {
  t.equal(cutN('createBenchmark(main, { size: [16, 4096], n: [2e5] })', 10), 'createBenchmark(main, { size: [16, 4096], n: [20000] })')
  t.equal(cutN('{ n: [16, 256], x: [1] }', 100), '{ n: [1, 3], x: [1] }', 'never below 1')
  const dir = cutRoot(path.join(REPO, 'bench', 'time-to-verdict'), 10)
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  t.match(fs.readFileSync(path.join(dir, 'buffers', 'buffer-compare.js'), 'utf8'), /n: \[20000\]/)
  t.match(fs.readFileSync(path.join(dir, 'common.js'), 'utf8'), /require\(".*common\.js"\)/)
})

t.test('harness overhead: serial sections add up, duet sections of a pair overlap', async (t) => {
  const rows = [
    { pair: 1, configuration: 'i=1', time: 0.5 }, { pair: 1, configuration: 'i=1', time: 0.6 },
    { pair: 1, configuration: 'i=2', time: 0.4 }, { pair: 1, configuration: 'i=2', time: 0.3 }
  ]
  t.equal(Math.round(measuredMs(rows, 'serial')), 1800)
  t.equal(Math.round(measuredMs(rows, 'duet')), 1000)
})

t.test('bad flags: exit 2 with the usage, nothing run', async (t) => {
  const run = (script, args) => spawnSync(process.execPath, [path.join(REPO, 'bench', script), ...args], { encoding: 'utf8', timeout: 30000 })
  for (const [script, args, re] of [
    ['time-to-verdict.js', ['--measures', 'wall,watts'], /--measures wall,watts: give two or more of wall,cpu,instructions/],
    ['time-to-verdict.js', ['--measures', 'wall'], /give two or more/],
    ['time-to-verdict.js', ['--measures', 'wall,cpu', '--hog'], /--designs, --max-runs, --aa, --hog, --repeat and --suite go with the designs, not with --measures/],
    ['time-to-verdict.js', ['--measures', 'wall,cpu', '--instr-pairs', '1'], /--instr-pairs and --instr-scale: whole numbers >= 2/],
    ['harness-overhead.js', ['--pairs', '2'], /--pairs, --section-ms, --executors and --before go with --compare/],
    ['harness-overhead.js', ['--compare', '--executors', 'serial,shard'], /unknown executor shard/],
    ['harness-overhead.js', ['--compare', '--before', '/nonexistent'], /--before \/nonexistent: no compare\.js there/],
    ['harness-overhead.js', ['--compare', '--rounds', '0'], /--rounds 0: give a whole number >= 1/]
  ]) {
    const r = run(script, args)
    t.equal(r.status, 2, `${script} ${args.join(' ')}`)
    t.match(r.stderr, re)
    t.match(r.stderr, /usage: node bench\//)
    t.equal(r.stdout, '')
  }
})

t.test('--measures --reuse: the CSVs of an earlier run analysed, the table and measures.json written, nothing run', async (t) => {
  const { runMeasures } = require('../../bench/time-to-verdict-measures.js')
  const out = t.testdir()
  const fix = path.join(REPO, 'test', 'fixtures', 'measure-agreement')
  fs.copyFileSync(path.join(fix, 'wall.csv'), path.join(out, 'measure-wall.csv'))
  fs.copyFileSync(path.join(fix, 'instructions-600k.csv'), path.join(out, 'measure-instructions.csv'))
  let printed = ''
  const write = process.stdout.write
  process.stdout.write = (s) => { printed += s; return true }
  const quiet = process.stderr.write
  process.stderr.write = () => true
  let result
  try {
    result = await runMeasures({ old: 'a', new: 'b', held: path.join(REPO, 'bench', 'time-to-verdict'), out, measures: ['wall', 'instructions'], pairs: 2, instrPairs: 2, instrScale: 10, reuse: true, run: async () => { throw new Error('ran') } })
  } finally {
    process.stdout.write = write
    process.stderr.write = quiet
  }
  t.match(printed, /\| configuration \| wall, \d+ pairs \| instructions \(n\/10\), \d+ pairs \|/)
  t.match(printed, /\| wall vs instructions \| 1 \| 0 \| 1 \| 0 \| 0 \|/, 'one configuration in both, called the other way round')
  t.match(printed, /called faster by one measure and slower by another: buffers\/buffer-compare\.js .*len=16/)
  t.match(printed, /wall time per measure: wall reused, instructions reused/)
  t.match(JSON.parse(fs.readFileSync(path.join(out, 'measures.json'), 'utf8')).measures.wall, { seconds: null, exit: 0, reused: true })
  t.equal(result.opposite.length, 1)
})
