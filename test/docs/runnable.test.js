'use strict'
// The docs check: every fenced block marked `sh runnable` in README.md,
// writing-and-running-benchmarks.md and docs/*.md is run by bash, as a user
// would paste it, in a fresh temporary folder that holds the repo's files
// (symlinks), and must exit 0. So a doc example cannot rot unnoticed.
//
// What the check changes, and only this, to keep the suite short:
// - durations: `-d N` / `--duration N` become 0.3 s, `--runs N` at most 2;
// - `npx benchrig` and `benchrig` run this checkout's bin/benchrig.js (npx
//   would do the same, a second slower);
// - a line that starts `benchrig serve --port P ... &` is followed by a wait
//   until port P accepts connections (in a terminal, the user waits);
// - background jobs are killed when the block ends.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')

const REPO = path.join(__dirname, '..', '..')
const DOCS = ['README.md', 'writing-and-running-benchmarks.md',
  ...fs.readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/**
 * The runnable blocks of a Markdown text.
 * @returns {{line: number, code: string}[]}
 */
function runnableBlocks (markdown) {
  const blocks = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!/^```sh runnable\s*$/.test(lines[i])) continue
    const end = lines.indexOf('```', i + 1)
    if (end < 0) throw new Error(`unclosed runnable block at line ${i + 1}`)
    blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n') })
    i = end
  }
  return blocks
}

/** The block as the check runs it (see the header for each rule). */
function prepare (code) {
  const body = code
    .replace(/(^|\s)(-d|--duration)\s+\d+(\.\d+)?(ms|s|m)?(?=\s|$)/g, '$1$2 0.3')
    .replace(/--runs\s+(\d+)/g, (m, n) => `--runs ${Math.min(Number(n), 2)}`)
    .split('\n')
    .map((line) => {
      const serve = /benchrig serve\b.*--port\s+(\d+).*&\s*(#.*)?$/.exec(line)
      if (!serve) return line
      return `${line}\nfor _ in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/${serve[1]}) 2>/dev/null && break; sleep 0.05; done`
    })
    .join('\n')
  return [
    'set -euo pipefail',
    `benchrig () { node ${JSON.stringify(path.join(REPO, 'bin', 'benchrig.js'))} "$@"; }`,
    'npx () { if [ "$1" = benchrig ]; then shift; benchrig "$@"; else command npx "$@"; fi; }',
    // background servers end with the block: every node process of its process group
    "trap 'st=$?; pkill -TERM -g $$ -x node 2>/dev/null || true; exit $st' EXIT",
    body
  ].join('\n')
}

const LINKED = new Set(['node_modules', '.node-versions']) // large, and only read
const SKIPPED = new Set(['.git', '.tap', 'coverage', '.nyc_output'])

/** A copy of the repo's files (the large read-only folders linked), so relative commands work and outputs stay out of the repo. */
function scratchCopy (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-docs-'))
  for (const name of fs.readdirSync(REPO)) {
    if (SKIPPED.has(name)) continue
    if (LINKED.has(name)) fs.symlinkSync(path.join(REPO, name), path.join(dir, name))
    else fs.cpSync(path.join(REPO, name), path.join(dir, name), { recursive: true })
  }
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('the prepared form keeps the commands and shortens only durations and runs', async (t) => {
  const p = prepare('benchrig load -c 50 -d 5 http://x/\nbenchrig compare --runs 10 x\nnpx benchrig serve --port 8080 &')
  t.match(p, /load -c 50 -d 0\.3 http:\/\/x\//)
  t.match(p, /--runs 2 x/)
  t.match(p, /serve --port 8080 &\nfor _ in .*\/dev\/tcp\/127\.0\.0\.1\/8080/)
  t.same(runnableBlocks('a\n```sh runnable\necho 1\n```\n```sh\necho 2\n```\n'), [{ line: 2, code: 'echo 1' }])
})

/** Runs a script in its own process group (so its background jobs can be found), at most 2 minutes. */
function runBash (script, cwd) {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, detached: true, env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timer = setTimeout(() => { stderr += '\n(killed after 120 s)'; process.kill(-child.pid, 'SIGKILL') }, 120_000)
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr }) })
  })
}

let total = 0
for (const doc of DOCS) {
  for (const block of runnableBlocks(fs.readFileSync(path.join(REPO, doc), 'utf8'))) {
    total++
    t.test(`${doc}:${block.line} runs and exits 0`, async (t) => {
      const cwd = scratchCopy(t)
      const r = await runBash(prepare(block.code), cwd)
      t.equal(r.status, 0, `${doc}:${block.line}\n${block.code}\n--- stderr ---\n${r.stderr}\n--- stdout (end) ---\n${String(r.stdout).slice(-2000)}`)
    })
  }
}

// tap's limit is per file (240 s in .taprc) and the blocks run one after
// another: at load 19 the ten blocks took 124 s (145 s for the file). Each
// block has its own 2-minute limit (runBash), so the file's is that per block.
t.setTimeout((total + 1) * 120_000)

t.test('the docs have runnable blocks to check', async (t) => {
  t.ok(total >= 2, `${total} runnable blocks`)
})
