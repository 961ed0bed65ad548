'use strict'
// benchrig analyze over several files made by real compare runs (fixtures/
// whole-runs/README.md says how): whole runs
// of other seeds combine (pairs keyed by seed and pair) exactly as their
// concatenation on stdin does; shards of one plan combine; shards mixed with
// files of another plan are refused with a message that says what to do.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { ROOT } = require('./fixtures/helpers.js')
const { main } = require('../../lib/cli/analyze.js')

const BIN = path.join(ROOT, 'bin', 'benchrig.js')
const FIX = path.join(__dirname, 'fixtures', 'whole-runs')
const f = (name) => path.join(FIX, name)

function benchrig (args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input ?? '')
  })
}

function capture () {
  let text = ''
  return { stream: { write: (s) => { text += s; return true } }, get text () { return text } }
}

/** benchrig analyze in process: {code, stdout, stderr}; a usage error as code 2 with its message. */
async function analyzeFiles (args) {
  const out = capture()
  const err = capture()
  try {
    return { code: await main(args, { stdout: out.stream, stderr: err.stream }), stdout: out.text, stderr: err.text }
  } catch (e) {
    if (e.exitCode !== 2) throw e
    return { code: 2, stdout: out.text, stderr: e.message }
  }
}

t.test('whole runs of other seeds combine as their concatenation does; shards of another plan are refused', async (t) => {
  const planOf = (file) => fs.readFileSync(file, 'utf8').split('\n')[1].split(',')[12].replace(/"/g, '')
  t.not(planOf(f('a.csv')), planOf(f('b.csv')), 'the two whole runs have different plans (seeds)')

  const files = await analyzeFiles(['--format', 'json', f('a.csv'), f('b.csv')])
  t.equal(files.code, 0, files.stderr)
  t.equal(files.stderr, '', 'nothing to warn about')
  const a = JSON.parse(files.stdout)
  t.equal(a.results.length, 1)
  t.equal(a.results[0].n_pairs, 4, 'two pairs of each run, keyed by (seed, pair)')
  t.same(a.machines.map((m) => [m.shard, m.run, m.pairs]), [[undefined, planOf(f('a.csv')), 2], [undefined, planOf(f('b.csv')), 2]], 'each whole run a block')

  const cat = fs.readFileSync(f('a.csv'), 'utf8') + fs.readFileSync(f('b.csv'), 'utf8')
  const piped = await benchrig(['analyze', '--format', 'json', '-'], cat)
  t.equal(piped.code, 0, piped.stderr)
  const b = JSON.parse(piped.stdout)
  t.same(b.results, a.results, 'the files and `cat a.csv b.csv | analyze -` give the same analysis')

  const text = await analyzeFiles([f('a.csv'), f('b.csv')])
  t.match(text.stdout, new RegExp(`run of plan ${planOf(f('a.csv'))}: 2 pairs[\\s\\S]*run of plan ${planOf(f('b.csv'))}: 2 pairs`))

  const twice = await analyzeFiles([f('a.csv'), f('a.csv')])
  t.equal(twice.code, 3, 'the same run given twice: duplicate pairs')
  t.match(twice.stderr, /2 duplicate pair\(s\)/)

  const shards = await analyzeFiles(['--format', 'json', f('s0.csv'), f('s1.csv')])
  t.equal(shards.code, 0, shards.stderr)
  t.equal(JSON.parse(shards.stdout).results[0].n_pairs, 2, 'the shards of one plan: one pair each')

  // spawned: the user sees one line of text and exit 2, no stack
  const mixed = await benchrig(['analyze', f('s0.csv'), f('s1.csv'), f('a.csv')])
  t.equal(mixed.code, 2, 'shards with a file of another plan: a usage error')
  t.equal(mixed.stdout, '')
  t.match(mixed.stderr, /shards of more than one plan/)
  t.match(mixed.stderr, new RegExp(`plan ${planOf(f('s0.csv'))} \\(seed 3, shard\\(s\\) 0, 1 of 2\\): .*s0\\.csv .*s1\\.csv`))
  t.match(mixed.stderr, new RegExp(`plan ${planOf(f('a.csv'))} \\(seed 1, whole run\\): .*a\\.csv`))
  t.match(mixed.stderr, /analyse each plan's files on their own \(e\.g\. benchrig analyze .*s0\.csv .*s1\.csv\)/)
  t.notMatch(mixed.stderr, /\n\s+at /, 'no stack trace')
})
