'use strict'
// The loop a library maintainer lives, on a git repository of releases: five
// real published versions of the npm package `ms` (fetched once with `npm
// pack` into the cache, then vendored as lib/ms.js, one commit and tag per
// release), a benchmark folder in Node core's style, and the project's own
// lib/work.js doing four times the work from the second release on (so a step
// after the first label is certain on any machine). Then, as the docs tell:
// compare --old-ref/--new-ref with --history, compare NDJSON and CSV added
// with history add (the CSV by tags), bisect --refs with --history, and the
// PR comment made from another folder. One series per configuration must
// come out, labelled by the tags in git order, with the step found after the
// first release and its interval.
const t = require('tap')
// 480 s, not tap's 240 s a file: three compares and a bisect build worktrees
// and run ~60 benchmark processes one after another (about 40 s idle).
t.setTimeout(480e3)
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { cacheRoot } = require('../../lib/sides/install.js')
const { openHistory } = require('../../lib/history/index.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const VERSIONS = ['2.0.0', '2.1.0', '2.1.1', '2.1.2', '2.1.3']
const TAGS = VERSIONS.map((v) => `v${v}`)
const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' }

function sh (cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.stdout}`)
  return r.stdout.trim()
}

/** The tarballs of ms, fetched from the registry once and kept in the cache. */
function packages () {
  const dir = path.join(cacheRoot(), 'test-packages')
  fs.mkdirSync(dir, { recursive: true })
  const missing = VERSIONS.filter((v) => !fs.existsSync(path.join(dir, `ms-${v}.tgz`)))
  if (missing.length > 0) {
    const r = spawnSync('npm', ['pack', ...missing.map((v) => `ms@${v}`), '--pack-destination', dir, '--silent'], { encoding: 'utf8', timeout: 180e3 })
    if (r.status !== 0) return { error: `npm pack ${missing.join(' ')}: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}` }
  }
  return { dir }
}

const WORK = (factor) => `'use strict'
// the project's own code: parses with the vendored ms${factor === 1 ? '' : ', four times per input since this release'}
const ms = require('./ms.js')
const INPUTS = ['1h', '2 days', '10 minutes', '3.5s', '100ms', '1y', '-3 weeks']
exports.parseMany = function parseMany (n) {
  let s = 0
  for (let i = 0; i < n * ${factor}; i++) s += ms(INPUTS[i % INPUTS.length]) % 7
  return s
}
`

const BENCH = `'use strict'
const common = require('benchrig')
const { parseMany } = require('../../lib/work.js')
const bench = common.createBenchmark(main, { n: [40000] })
function main ({ n }) {
  const cpu0 = process.cpuUsage()
  const s = parseMany(n)
  const cpu = process.cpuUsage(cpu0)
  const seconds = (cpu.user + cpu.system) / 1e6
  bench.report(n / seconds, seconds)
  if (s < 0) console.log(s)
}
`

/** One commit and tag per release; returns the commits, oldest first. */
function makeRepo (dir, tarballs) {
  sh('git', ['init', '-q', '-b', 'main'], dir)
  fs.mkdirSync(path.join(dir, 'lib'))
  fs.mkdirSync(path.join(dir, 'benchmark', 'parse'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'benchmark', 'parse', 'ms.js'), BENCH)
  const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-ms-'))
  const commits = []
  try {
    VERSIONS.forEach((v, i) => {
      sh('tar', ['xzf', path.join(tarballs, `ms-${v}.tgz`), '-C', unpacked], dir)
      fs.copyFileSync(path.join(unpacked, 'package', 'index.js'), path.join(dir, 'lib', 'ms.js'))
      fs.writeFileSync(path.join(dir, 'lib', 'work.js'), WORK(i === 0 ? 1 : 4))
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'ms-app', version: v, private: true }, null, 2) + '\n')
      sh('git', ['add', '-A'], dir)
      sh('git', ['commit', '-q', '-m', `release ${v}`], dir)
      sh('git', ['tag', `v${v}`], dir)
      commits.push(sh('git', ['rev-parse', 'HEAD'], dir))
    })
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true })
  }
  return commits
}

function benchrig (args, cwd, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, BENCHRIG_PROGRESS: 'none', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

t.test('compare, history add (NDJSON, CSV by tags) and bisect make one series per configuration, in git order', async (t) => {
  const pk = packages()
  if (pk.error) return t.skip(`the npm registry gave no ms tarballs and the cache has none (${pk.error})`)
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-releases-'))
  t.teardown(() => fs.rmSync(top, { recursive: true, force: true }))
  const repo = path.join(top, 'repo')
  const out = path.join(top, 'out')
  const elsewhere = path.join(top, 'elsewhere')
  for (const d of [repo, out, elsewhere]) fs.mkdirSync(d)
  const commits = makeRepo(repo, pk.dir)
  const db = path.join(out, 'history.sqlite')
  const env = { TMPDIR: top }
  const at = (f) => path.join(out, f)

  // 1. the PR's comparison, recorded as it runs
  const a = await benchrig(['compare', '--old-ref', 'v2.0.0', '--new-ref', 'v2.1.3', '--runs', '8', '--seed', '1', '--history', db, '--output', at('a.csv'), '--ndjson', at('a.ndjson'), 'parse'], repo, env)
  t.equal(a.code, 0, a.stderr)
  // 2. a comparison's NDJSON added later, without --label: its sides' commits, never the node version
  const b = await benchrig(['compare', '--old-ref', 'v2.1.0', '--new-ref', 'v2.1.1', '--runs', '2', '--seed', '2', '--output', at('b.csv'), '--ndjson', at('b.ndjson'), 'parse'], repo, env)
  t.equal(b.code, 0, b.stderr)
  const addB = await benchrig(['history', 'add', '--db', db, at('b.ndjson')], repo)
  t.equal(addB.code, 0, addB.stderr)
  // 3. a CSV alone (no machine, no version): labelled by the tags, joins this machine's series
  const c = await benchrig(['compare', '--old-ref', 'v2.1.1', '--new-ref', 'v2.1.2', '--runs', '2', '--seed', '3', '--output', at('c.csv'), 'parse'], repo, env)
  t.equal(c.code, 0, c.stderr)
  const addC = await benchrig(['history', 'add', '--db', db, '--label', 'v2.1.1..v2.1.2', at('c.csv')], repo)
  t.equal(addC.code, 0, addC.stderr)
  t.match(addC.stdout, /c\.csv: 4 rows \(compare-csv\); it names no machine: joined the series of fingerprint [0-9a-f]{8} \([^)]*node v\d+\.\d+\.\d+; the one machine the store holds these benchmarks for\)/)
  // 4. bisect over the releases, from the project folder (its ./benchmark by default)
  const bis = await benchrig(['bisect', '--refs', 'v2.0.0..v2.1.3', '--runs', '6', '--max-runs', '24', '--confidence', '0.95', '--seed', '4', '--history', db, 'parse'], repo, env)
  t.equal(bis.code, 0, bis.stdout + bis.stderr)
  t.match(bis.stdout, new RegExp(`^bisect: 5 candidates, v2\\.0\\.0 \\(${commits[0].slice(0, 12)}\\) \\(good\\) \\.\\. v2\\.1\\.3 \\(${commits[4].slice(0, 12)}\\) \\(bad\\)`))
  t.match(bis.stdout, new RegExp(`\\nfirst bad: v2\\.1\\.0 \\(${commits[1].slice(0, 12)}\\) "release 2\\.1\\.0"\\nlast good: v2\\.0\\.0 \\(${commits[0].slice(0, 12)}\\) "release 2\\.0\\.0"\\n`))
  t.match(bis.stdout, /\n {2}probe v2\.1\.\d \([0-9a-f]{12}\): slower, \d+ pairs: parse\/ms\.js n=40000: -\d+\.\d+% \[-\d+\.\d+%, -\d+\.\d+%\]/, 'each probe with its interval')
  t.match(bis.stdout, /\nconfidence: \d decisions/)

  const h = await openHistory(db)
  t.teardown(() => h.close())
  const series = await h.series({ file: 'parse/ms.js' })
  t.equal(series.length, 1, `one series for the one configuration, whichever path added the rows: ${series.map((s) => s.key.fingerprint + ' ' + s.points.map((p) => p.display).join(',')).join(' | ')}`)
  const s = series[0]
  t.same(s.points.map((p) => p.display), TAGS, 'the tags, in git order')
  t.same(s.points.map((p) => p.label), commits, 'each a full commit id')
  t.ok(s.points.every((p) => p.values.length >= 2), `every label holds its runs: ${s.points.map((p) => p.values.length)}`)
  t.equal(s.key.env.nodeVersion, process.version, 'the node the refs ran on stays in the key')
  const kinds = (await h.list()).sources.map((x) => x.kind)
  t.same([...new Set(kinds)].sort(), ['compare-csv', 'compare-ndjson', 'records'], 'compare --history and bisect (records), NDJSON and CSV all added')

  const [changes] = await h.changes({ file: 'parse/ms.js' })
  t.notOk(changes.untestable)
  // The step is tested against the runs' noise, or, when the labels' means
  // spread more than the runs explain (a loaded machine drifts between the
  // comparisons that measured them: at a load average of 17 on 2 cores one
  // label's session ran 24% off the next), against that spread with the
  // labels' few degrees of freedom: then it may stay a weak candidate
  // (p < 0.05, not < 0.0001), and the drift may show as a weak candidate of
  // its own. Either way the largest step found is at v2.1.0, with its interval.
  const found = [...changes.changes.map((c) => ({ ...c, strong: true })), ...changes.weak].sort((a, b) => a.size - b.size)
  t.ok(found.length >= 1, `a step found: ${found.map((c) => `${c.display} ${c.size}`)}`)
  const cp = found[0]
  t.equal(cp.display, 'v2.1.0', 'the largest right after the first release')
  // four times the work in the project's code; the releases of ms themselves differ too, so not exactly -75%
  t.ok(cp.size < -0.1, `slower: ${cp.size}`)
  t.ok(cp.ci[0] <= cp.size && cp.size <= cp.ci[1] && cp.ci[1] < 0, `its interval ${cp.ci}`)
  const text = await benchrig(['history', 'changes', '--weak', '--db', db], elsewhere)
  t.match(text.stdout, /(change|weak) at v2\.1\.0 \(after v2\.0\.0\): -\d+\.\d+% \[-\d+\.\d+%, -\d+\.\d+%\].* labels \(\d+\+\d+ runs\)/)

  // 5. the PR comment, made in a folder that is not the repository
  const pr = await benchrig(['analyze', '--format', 'github', '--history', db, '--meta', at('a.ndjson'), at('a.csv')], elsewhere)
  t.equal(pr.code, 0, pr.stderr)
  t.match(pr.stdout, new RegExp(`\\*\\*Compared:\\*\\* old \`v2\\.0\\.0\` \\(commit \`${commits[0].slice(0, 12)}\`\\) → new \`v2\\.1\\.3\` \\(commit \`${commits[4].slice(0, 12)}\`\\)`))
  // a change point (not a weak candidate) is shown with its interval
  const step = cp.strong ? 'v2\\.1\\.0 \\(-\\d+\\.\\d%, CI -\\d+\\.\\d% to -\\d+\\.\\d%\\)[^|]*' : '[^|]*'
  t.match(pr.stdout, new RegExp(`\\| parse/ms\\.js \\| n=40000 \\| \`[▁-█]{5}\` v2\\.0\\.0 … v2\\.1\\.3 \\(5\\) \\| -\\d+\\.\\d% \\| ${step} \\|`), 'the trend in git order, a change point with its interval')
  t.notMatch(pr.stdout, new RegExp(`${top.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|--repo|/usr/|/home/`), 'no path of the machine, no flag analyze lacks')
  t.equal(sh('git', ['worktree', 'list', '--porcelain'], repo).split('\n').filter((l) => l.startsWith('worktree ')).length, 1, 'no worktree left')
})
