#!/usr/bin/env node
'use strict'
// How the three measures stand up to a busy machine. With a CPU hog running
// beside it (one `node -e 'for(;;);'` per --hogs), on this node binary:
//   1. repeat   two runs of one buffers/ configuration under --measure
//               instructions: their rates' difference (target < 0.01%)
//   2. aa       an A/A compare (this node against itself) over buffers/
//               with --aa-pairs pairs under instructions: no faster/slower
//   3. slower   a wrapper binary whose benchmark does 2% more work per
//               operation (bench/noise-suite/loop/work.js + noise-extra-work.js),
//               under instructions with --slow-pairs pairs: called slower
//   4. pairs    the same call under wall and cpu with up to --max-pairs pairs:
//               the fewest pairs from which every analysis of the first k
//               pairs says "slower"
//   5. cost     CPU seconds per configuration of each measure (all processes
//               of the compare, from /usr/bin/time), and wall-clock seconds
// The four compares run at the same time: on a shared 2-core machine a
// valgrind run of node takes minutes of wall time, and each step is also
// noise for the others (the point of the exercise).
//
//   node bench/noise.js [--hogs 1] [--aa-pairs 6] [--slow-pairs 4] [--max-pairs 40]
//                       [--aa-set group=small,len=64,n=20000,encoding=utf8]
//
// The figures in docs/compare.md ("Measures") are this script's output.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { parseCsvRecords } = require('../lib/record/csv.js')
const { analyze } = require('../lib/stats/analyze.js')

const ROOT = path.join(__dirname, '..')
const SUITE = path.join(__dirname, 'noise-suite')

function arg (name, def) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : def
}
const HOGS = Number(arg('hogs', 1))
const AA_PAIRS = Number(arg('aa-pairs', 6))
const SLOW_PAIRS = Number(arg('slow-pairs', 4))
const MAX_PAIRS = Number(arg('max-pairs', 40))
const AA_SET = arg('aa-set', 'group=small,len=64,n=20000,encoding=utf8').split(',')
const WORK_N = 200000

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-noise-'))
const log = (s) => process.stdout.write(s + '\n')

function makeWrapper (name, extra) {
  const file = path.join(work, name)
  const pre = path.join(__dirname, 'noise-extra-work.js')
  fs.writeFileSync(file, `#!/bin/sh\nBENCHRIG_EXTRA_WORK=${extra} exec ${JSON.stringify(process.execPath)} --require ${JSON.stringify(pre)} "$@"\n`, { mode: 0o755 })
  return file
}

const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

/**
 * Runs compare.js; resolves with its rows, the wall seconds and the CPU
 * seconds of compare.js and every process under it (/usr/bin/time).
 */
function compare (args, out) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const argv = [path.join(ROOT, 'compare.js'), '--no-progress', '--output', out, ...args]
    const child = TIME
      ? spawn(TIME, ['-f', 'CPU %U %S', process.execPath, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9
      if (code !== 0 && code !== 1) return reject(new Error(`compare.js exited ${code}: ${stderr}`))
      const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(stderr)
      resolve({ rows: parseCsvRecords(fs.readFileSync(out, 'utf8')).records, wall, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, stderr })
    })
  })
}

const runsOf = (rows) => new Set(rows.map((r) => r.run)).size

function startHogs () {
  return Array.from({ length: HOGS }, () => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' }))
}

/** The fewest pairs k such that the analysis of pairs 1..j says slower for every j >= k. */
function pairsNeeded (rows) {
  const max = Math.max(...rows.map((r) => Number(r.pair)))
  let need
  for (let k = max; k >= 2; k--) {
    const v = analyze(rows.filter((r) => Number(r.pair) <= k)).results[0].verdict
    if (v !== 'slower') break
    need = k
  }
  return need
}

async function main () {
  const hogs = startHogs()
  const fmt = (x, d = 4) => x.toFixed(d)
  try {
    log(`bench/noise.js: node ${process.version}, ${os.cpus().length} CPUs, ${HOGS} CPU hog(s), load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
    const slow = makeWrapper('node-2pct', 0.02)
    const slowArgs = (measure, pairs) => ['--old', process.execPath, '--new', slow, '--runs', String(pairs), '--seed', '3', '--measure', measure,
      '--root', SUITE, '--set', `n=${WORK_N}`, 'loop']
    const [rep, aa, si, sw, sc] = await Promise.all([
      // 1. Two runs of one configuration under instructions (one pair, old = new).
      compare(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--seed', '1', '--measure', 'instructions',
        '--root', ROOT, '--filter', 'buffer-tostring', '--set', 'group=small', '--set', 'len=64', '--set', 'n=20000', '--set', 'encoding=utf8', 'buffers'], path.join(work, 'repeat.csv')),
      // 2. A/A over buffers/ under instructions.
      compare(['--old', process.execPath, '--new', process.execPath, '--runs', String(AA_PAIRS), '--seed', '2', '--measure', 'instructions',
        '--root', ROOT, '--filter', 'buffer-tostring', ...AA_SET.flatMap((x) => ['--set', x]), 'buffers'], path.join(work, 'aa.csv')),
      // 3. 2% more work, instructions, few pairs.
      compare(slowArgs('instructions', SLOW_PAIRS), path.join(work, 'slow-instr.csv')),
      // 4. The same call under wall and cpu.
      compare(slowArgs('wall', MAX_PAIRS), path.join(work, 'slow-wall.csv')),
      compare(slowArgs('cpu', MAX_PAIRS), path.join(work, 'slow-cpu.csv'))
    ])

    const [a, b] = rep.rows.map((r) => Number(r.rate))
    log(`\n1. repeat: buffers/buffer-tostring.js utf8 len=64 n=20000 under instructions, two runs: ${a.toFixed(3)} and ${b.toFixed(3)} ops/10^9 instructions, difference ${fmt(Math.abs(a - b) / Math.min(a, b) * 100)}%`)

    const aaRes = analyze(aa.rows).results
    log(`\n2. A/A under instructions, ${AA_PAIRS} pairs, ${aaRes.length} configuration(s) (--set ${AA_SET.join(' ')}):`)
    for (const r of aaRes) log(`   ${r.configuration}: change ${r.change.toExponential(2)}% [${r.ci[0].toExponential(2)}, ${r.ci[1].toExponential(2)}] -> ${r.verdict}`)
    log(`   faster/slower verdicts: ${aaRes.filter((r) => r.verdict === 'faster' || r.verdict === 'slower').length} of ${aaRes.length}`)

    const siRes = analyze(si.rows).results[0]
    log(`\n3. 2% more work under instructions, ${SLOW_PAIRS} pairs: change ${siRes.change.toFixed(4)}% [${siRes.ci[0].toFixed(4)}, ${siRes.ci[1].toFixed(4)}] -> ${siRes.verdict}; slower from ${pairsNeeded(si.rows) ?? `never within ${SLOW_PAIRS}`} pairs on`)

    log(`\n4. the same call under wall and cpu, up to ${MAX_PAIRS} pairs:`)
    for (const [measure, r] of [['wall', sw], ['cpu', sc]]) {
      const res = analyze(r.rows).results[0]
      log(`   ${measure}: ${MAX_PAIRS} pairs: change ${res.change.toFixed(2)}% [${res.ci[0].toFixed(2)}, ${res.ci[1].toFixed(2)}] -> ${res.verdict}; slower from ${pairsNeeded(r.rows) ?? `never within ${MAX_PAIRS}`} pairs on`)
    }

    log('\n5. cost per configuration (one root + one child process; CPU seconds of every process, wall-clock seconds while all steps ran at once):')
    for (const [label, r] of [['wall, loop/work.js', sw], ['cpu, loop/work.js', sc], ['instructions, loop/work.js', si], ['instructions, buffer-tostring n=20000', aa]]) {
      const n = runsOf(r.rows)
      log(`   ${label}: ${(r.cpu / n).toFixed(2)} CPU s, ${(r.wall / n).toFixed(1)} s wall (${n} runs)`)
    }
  } finally {
    for (const h of hogs) h.kill('SIGKILL')
    fs.rmSync(work, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err)
  process.exitCode = 1
})
