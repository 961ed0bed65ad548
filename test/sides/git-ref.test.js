'use strict'
// compare --old-ref/--new-ref on a real git repository made in a temporary
// folder (make-repo.js): the function made twice as slow is called slower and
// the other not; each side runs with its own dependencies (the lockfile
// changes between the refs); a missing ref, uncommitted changes under HEAD
// and a failing install are one error each before any run; no worktree is
// left behind, also after SIGINT to the real process.
const t = require('tap')
// 480 s, not tap's 240 s a file: its compares build worktrees and run their
// pairs one process after another, and under a CPU hog the file took 108 and
// 118 s at load 12-13; each benchmark process keeps the harness's own limit.
t.setTimeout(480e3)
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { makeRepo, extraWorktrees, run } = require('./make-repo.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { sideSource } = require('../../lib/sides/index.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

const repoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-repo-'))
const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cache-'))
// compare's own temporary folders go here (TMPDIR), so "none left behind" is
// about this file's runs only: other test files make refs folders in the
// shared tmp at the same time (seen in CI)
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-gitref-test-'))
t.teardown(() => {
  fs.rmSync(repoDir, { recursive: true, force: true })
  fs.rmSync(cache, { recursive: true, force: true })
  fs.rmSync(tmp, { recursive: true, force: true })
})
const repo = makeRepo(repoDir)

/** Runs benchrig compare in the repository; onSpawn sees the real process. */
function compare (args, { env = {}, onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'compare', '--no-progress', '--cache', cache, ...args], {
      cwd: repo.dir, env: { ...process.env, TMPDIR: tmp, ...env }, stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d; if (onSpawn) onSpawn(child, stderr) })
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/** The refs' temporary folders this test's runs made and did not remove. */
function leftovers () {
  return fs.readdirSync(tmp).filter((f) => f.startsWith('benchrig-refs-')).map((f) => path.join(tmp, f))
}

t.test('flags: one kind of sides at a time, refs in pairs, --bench-from checked', async (t) => {
  t.throws(() => sideSource({ 'old-ref': 'a' }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--old-ref needs --new-ref too/ })
  t.throws(() => sideSource({ old: process.execPath, 'new-ref': 'b' }), { message: /--old and --new-ref: compare two binaries \(--old\/--new\), two git refs/ })
  t.throws(() => sideSource({ 'old-ref': 'a', 'new-ref': 'b', 'bench-from': 'x' }), { message: /--bench-from x: use worktree/ })
  t.throws(() => sideSource({ old: process.execPath, new: process.execPath, repo: '.' }), { message: /--repo goes with --old-ref\/--new-ref/ })
  t.match(sideSource({ 'old-ref': 'a', 'new-ref': 'b' }), { kind: 'refs', benchFrom: 'worktree', execPath: process.execPath })
})

t.test('--resume\'s check goes by side: two refs share one binary path, each keeps its own identity', async (t) => {
  const { checkIdentity } = require('../../lib/compare/sides-file.js')
  const side = (commit, ref) => ({ path: '/n', sha256: commit.repeat(64), binary_sha256: 'f'.repeat(64), ref, commit: commit.repeat(40) })
  const was = { seed: 1, old: side('a', 'A'), new: side('b', 'B'), source: 'r.csv.sides.json' }
  t.doesNotThrow(() => checkIdentity('r.csv', { ...was, old: side('a', 'A'), new: side('b', 'B') }, was))
  t.throws(() => checkIdentity('r.csv', { ...was, old: side('a', 'A'), new: side('a', 'A') }, was), {
    code: 'BENCHRIG_ERR_RESUME_MISMATCH',
    message: /: the new side's commit is aaaaaaaaaaaa \(A\), the file's bbbbbbbbbbbb \(B\); resume with/
  }, 'the commit is named, not the binary both share')
})

t.test('A against B: spin() made twice as slow is called slower, sum() is not; each side has its own tiny', async (t) => {
  const before = leftovers()
  const log = path.join(repoDir, '..', `sides-${process.pid}.log`)
  t.teardown(() => fs.rmSync(log, { force: true }))
  const out = path.join(repoDir, '..', `refs-${process.pid}.csv`)
  t.teardown(() => fs.rmSync(out, { force: true }))
  const r = await compare(['--old-ref', repo.A, '--new-ref', repo.B, '--runs', '8', '--seed', '9', '--measure', 'cpu', '--ndjson', out + '.ndjson', '--output', out, 'calls'], { env: { SIDES_LOG: log } })
  t.teardown(() => fs.rmSync(out + '.ndjson', { force: true }))
  t.teardown(() => fs.rmSync(out + '.sides.json', { force: true }))
  t.equal(r.code, 0, r.stderr)
  t.match(r.stderr, /--old-ref [0-9a-f]{40} \([0-9a-f]{7}\): npm ci/)
  const rows = parseCsvRecords(fs.readFileSync(out, 'utf8')).records
  t.equal(rows.length, 32, '8 pairs x 2 sides x 2 configurations')
  const byFn = Object.fromEntries(analyze(rows).results.map((x) => [/fn='(\w+)'/.exec(x.configuration)[1], x]))
  t.equal(byFn.spin.verdict, 'slower', `spin: ${byFn.spin.change.toFixed(1)}%`)
  t.notOk(['slower', 'faster'].includes(byFn.sum.verdict), `sum: ${byFn.sum.verdict} ${byFn.sum.change.toFixed(1)}%`)
  // every process of a side saw that side's dependency
  const seen = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' '))
  const versions = (side) => [...new Set(seen.filter(([cwd]) => cwd.includes(`${path.sep}${side}${path.sep}`)).map(([, v]) => v))]
  t.same(versions('old'), ['1.0.0'])
  t.same(versions('new'), ['2.0.0'])
  const meta = JSON.parse(fs.readFileSync(out + '.ndjson', 'utf8').split('\n')[0])
  t.equal(meta.old.commit, repo.A)
  t.equal(meta.new.commit, repo.B)
  t.not(meta.old.sha256, meta.new.sha256, 'the sides\' identities differ (binary + commit)')
  t.same(extraWorktrees(repo.dir), [], 'no worktree left')
  t.same(leftovers().filter((d) => !before.includes(d)), [], 'no temporary folder left')
  t.same(fs.readdirSync(path.join(cache, 'deps')).filter((d) => !d.startsWith('.')).length, 2, 'two lockfiles, two cached installs')
  // resuming with another ref on the new side (no --ndjson: FILE.sides.json
  // records the commits) is refused before any run, the file untouched
  const csvBefore = fs.readFileSync(out, 'utf8')
  const other = await compare(['--old-ref', repo.A, '--new-ref', repo.A, '--runs', '8', '--measure', 'cpu', '--resume', out, 'calls'])
  t.equal(other.code, 2, other.stderr)
  t.match(other.stderr, new RegExp(`: the new side's commit is ${repo.A.slice(0, 12)} \\(${repo.A}\\), the file's ${repo.B.slice(0, 12)} \\(${repo.B}\\); resume with the sides`))
  t.notMatch(other.stderr, /binary is|old side/, 'only the new side\'s commit differs')
  t.equal(fs.readFileSync(out, 'utf8'), csvBefore, 'the CSV is untouched')
  t.same(extraWorktrees(repo.dir), [], 'no worktree left after the refusal')
})

t.test('errors before any run: a missing ref, uncommitted changes under HEAD, a failing install', async (t) => {
  const missing = await compare(['--old-ref', 'no-such-branch', '--new-ref', repo.B, 'calls'])
  t.equal(missing.code, 2)
  t.match(missing.stderr, /--old-ref no-such-branch: no such commit, branch or tag in /)
  fs.appendFileSync(path.join(repo.dir, 'lib', 'work.js'), '// an edit\n')
  const dirty = await compare(['--old-ref', repo.A, '--new-ref', 'HEAD', 'calls'])
  run('git', ['checkout', '--', 'lib/work.js'], repo.dir)
  t.equal(dirty.code, 2)
  t.match(dirty.stderr, /--new-ref HEAD: its tree is HEAD's, and the working tree has uncommitted changes \(lib\/work\.js\) that it would not measure/)
  const before = leftovers()
  const broken = await compare(['--old-ref', repo.C, '--new-ref', repo.B, '--runs', '1', 'calls'])
  t.equal(broken.code, 1)
  t.match(broken.stderr, /--old-ref [0-9a-f]{40} \([0-9a-f]{7}\): "npm ci" exited with code \d+ in its worktree( on the package tiny)?; nothing was run; to leave dev dependencies out, give --install "npm ci --omit=dev"/)
  t.notMatch(broken.stderr, /^\s+at /m, 'no stack trace')
  t.same(extraWorktrees(repo.dir), [])
  t.same(leftovers().filter((d) => !before.includes(d)), [])
})

t.test('SIGINT to the real process: the run stops and no worktree is left behind', async (t) => {
  const before = leftovers()
  let sent = false
  const r = await compare(['--old-ref', repo.A, '--new-ref', repo.B, '--runs', '20', '--measure', 'cpu', 'calls'], {
    onSpawn: (child, stderr) => {
      // once both sides are built (installs come from the cache) and runs go on
      if (!sent && /new-ref .*dependencies from the cache/.test(stderr)) {
        sent = true
        setTimeout(() => child.kill('SIGINT'), 300)
      }
    }
  })
  t.ok(sent, r.stderr)
  t.equal(r.code, 130, `exit 130 after Ctrl-C: ${r.stderr}`)
  t.match(r.stderr, /compare: interrupted; stopping after the current run/)
  t.same(extraWorktrees(repo.dir), [], 'no worktree left')
  t.same(leftovers().filter((d) => !before.includes(d)), [], 'no temporary folder left')
})
