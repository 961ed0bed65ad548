'use strict'
// bisect --refs GOOD..BAD over a real git repository of our own making: three
// commits on a line, the library's spin() doing four times the work from the
// second on. Each comparison runs on git-ref sides (a worktree per commit,
// the working tree's benchmark folder in both), and no worktree is left.
const t = require('tap')
// 480 s, not tap's 240 s a file: its bisect builds worktrees and runs its
// pairs one process after another, and under a CPU hog the file took 98 and
// 104 s at load 13-14; each benchmark process keeps the harness's own limit.
t.setTimeout(480e3)
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { main } = require('../../lib/cli/bisect.js')
const { commitsInRange } = require('../../lib/bisect/git-commits.js')

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' }

function git (dir, ...args) {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
  return r.stdout.trim()
}

const library = (factor) => `'use strict'\nexports.spin = function spin (n) {\n  let s = 0\n  const m = Math.round(n * ${factor})\n  for (let i = 0; i < m; i++) s = (s * 31 + i) % 1000003\n  return s\n}\n`
// n=5e6: ~25 ms of loop a process, long enough for V8's tiers and a busy
// machine's late background compile not to dilute the 4x step (see
// fixtures/bench/spin/spin.js: at 5e5 a probe once needed 24 pairs)
const BENCH = `'use strict'
const common = require('benchrig')
const work = require('../../lib/work.js')
const bench = common.createBenchmark(main, { n: [5e6] })
function main ({ n }) {
  const cpu0 = process.cpuUsage()
  const s = work.spin(n)
  const cpu = process.cpuUsage(cpu0)
  const seconds = (cpu.user + cpu.system) / 1e6
  bench.report(n / seconds, seconds)
  if (s < 0) console.log(s)
}
`

/** c0 (spin as it was), c1 (four times the work), c2 (a comment): returns the commits. */
function makeRepo (dir) {
  git(dir, 'init', '-q', '-b', 'main')
  fs.mkdirSync(path.join(dir, 'lib'))
  fs.mkdirSync(path.join(dir, 'benchmark', 'calls'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'benchmark', 'calls', 'spin.js'), BENCH)
  const commits = []
  for (const [factor, note] of [[1, ''], [4, ''], [4, '// a comment\n']]) {
    fs.writeFileSync(path.join(dir, 'lib', 'work.js'), library(factor) + note)
    git(dir, 'add', '-A')
    git(dir, 'commit', '-q', '-m', `spin x${factor}`)
    commits.push(git(dir, 'rev-parse', 'HEAD'))
  }
  return commits
}

function capture () {
  let text = ''
  return { stream: { write: (s) => { text += s; return true } }, get text () { return text } }
}

t.test('the commits of a range, and its errors', async (t) => {
  const dir = t.testdir()
  const [c0, c1, c2] = makeRepo(dir)
  t.same(commitsInRange(`${c0}..main`, dir).map((c) => c.commit), [c0, c1, c2])
  // the full commit is the label (as compare files it); no tag: shown by its first 12 characters; its git position
  t.same(commitsInRange('HEAD~1..HEAD', dir), [{ label: c1, display: c1.slice(0, 12), pos: 2, commit: c1 }, { label: c2, display: c2.slice(0, 12), pos: 3, commit: c2 }])
  t.throws(() => commitsInRange('main', dir), { exitCode: 2, message: /--refs main: give GOOD\.\.BAD/ })
  t.throws(() => commitsInRange('nope..main', dir), { message: /nope is not a commit of/ })
  t.throws(() => commitsInRange('main..HEAD~2', dir), { message: /main is not an ancestor of HEAD~2/ })
  t.throws(() => commitsInRange('main..HEAD', dir), { message: /both name commit/ })
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'no-git-'))
  t.teardown(() => fs.rmSync(outside, { recursive: true, force: true }))
  t.throws(() => commitsInRange('a..b', outside), { message: /is not inside a git repository/ })
  await t.rejects(main(['--binaries', `${process.execPath},${process.execPath}`, '--repo', dir, 'calls']), { message: /--repo .* goes with --refs/ })
})

t.test('bisect --refs finds the commit that made spin slower', async (t) => {
  const dir = t.testdir()
  const [c0, c1, c2] = makeRepo(dir)
  const out = capture()
  const err = capture()
  const code = await main(['--root', path.join(dir, 'benchmark'), '--refs', `${c0}..${c2}`, '--runs', '6', '--max-runs', '24', '--confidence', '0.95', '--seed', '5', 'calls'], { stdout: out.stream, stderr: err.stream })
  t.equal(code, 0, out.text + err.text)
  t.match(out.text, new RegExp(`^bisect: 3 candidates, ${c0.slice(0, 12)} \\(good\\) \\.\\. ${c2.slice(0, 12)} \\(bad\\); at most 1 probe`))
  t.match(out.text, new RegExp(`probe ${c1.slice(0, 12)}: slower after \\d+ pairs`))
  t.match(out.text, new RegExp(`first bad: ${c1.slice(0, 12)} "spin x4"\nlast good: ${c0.slice(0, 12)} "spin x1"\n  probe ${c1.slice(0, 12)}: slower, \\d+ pairs: calls/spin\\.js n=5000000: -\\d+\\.\\d+% \\[`))
  t.match(out.text, /\nconfidence: 2 decisions \(the ends and 1 probe\), each on a 95% CI; the answer holds when all hold: at least 90%/)
  const worktrees = git(dir, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree '))
  t.equal(worktrees.length, 1, 'every worktree a comparison made is gone')
})
