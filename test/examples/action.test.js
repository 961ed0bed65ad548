'use strict'
// The composite action (action.yml at the repository's top) and its example
// workflows: they pass action-validator, and the action's steps run for real,
// one after another as the runner runs them (bash, GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, the ${{ }} expressions of their env), against a local
// git repository with a fake pull_request event: the merge-base and the head
// are compared, the job summary and the comment are written, the gate fails
// the job, and the comment is posted to a fake GitHub API on 127.0.0.1 (then
// updated, not added again: one sticky comment), or, without a token, written
// to a file for the fork workflows' second part.
const t = require('tap')
const { validatorOrSkip } = require('../helpers/action-validator.js')
// 240 s: one compare of two refs (6 pairs, worktrees) under a loaded machine
t.setTimeout(240e3)
const fs = require('node:fs')
const os = require('node:os')
const http = require('node:http')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const yaml = require('yaml')

const ROOT = path.join(__dirname, '..', '..')
const ACTION = yaml.parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8'))
const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' }

function sh (cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`)
  return r.stdout.trim()
}

/** A project: main has the library; the PR's branch makes spin() do twice the work. */
function makeRepo (dir) {
  sh('git', ['init', '-q', '-b', 'main'], dir)
  fs.mkdirSync(path.join(dir, 'lib'))
  fs.mkdirSync(path.join(dir, 'benchmark', 'calls'), { recursive: true })
  const lib = (f) => `'use strict'\nexports.spin = (n) => { let s = 0; for (let i = 0; i < n * ${f}; i++) s = (s * 31 + i) % 1000003; return s }\n`
  fs.writeFileSync(path.join(dir, 'lib', 'work.js'), lib(1))
  fs.writeFileSync(path.join(dir, 'benchmark', 'calls', 'spin.js'), `'use strict'
const common = require('benchrig')
const { spin } = require('../../lib/work.js')
const bench = common.createBenchmark(main, { n: [3e6] })
function main ({ n }) {
  const cpu0 = process.cpuUsage()
  const s = spin(n)
  const cpu = process.cpuUsage(cpu0)
  const seconds = (cpu.user + cpu.system) / 1e6
  bench.report(n / seconds, seconds)
  if (s < 0) console.log(s)
}
`)
  sh('git', ['add', '-A'], dir)
  sh('git', ['commit', '-q', '-m', 'the library'], dir)
  const base = sh('git', ['rev-parse', 'HEAD'], dir)
  sh('git', ['checkout', '-q', '-b', 'pr'], dir)
  fs.writeFileSync(path.join(dir, 'lib', 'work.js'), lib(2))
  sh('git', ['commit', '-q', '-am', 'spin: twice the work'], dir)
  const head = sh('git', ['rev-parse', 'HEAD'], dir)
  // main moves on after the branch: the merge-base is the branch point, not main's tip
  sh('git', ['checkout', '-q', 'main'], dir)
  fs.writeFileSync(path.join(dir, 'README'), 'later on main\n')
  sh('git', ['add', '-A'], dir)
  sh('git', ['commit', '-q', '-m', 'docs'], dir)
  const mainTip = sh('git', ['rev-parse', 'HEAD'], dir)
  sh('git', ['checkout', '-q', 'pr'], dir)
  return { base, head, mainTip }
}

/**
 * Runs the action's steps as the runner does: each `run` with bash -eo
 * pipefail, its env's expressions resolved from the inputs, the github
 * context and the earlier steps' outputs. An expression this runner does
 * not know fails the test (the action may use no others).
 */
async function runAction (given, ctx) {
  const inputs = {}
  for (const [k, v] of Object.entries(ACTION.inputs)) inputs[k] = given[k] ?? (String(v.default).includes('${{') ? ctx.token : v.default)
  const outputs = {}
  const resolve = (text) => String(text).replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr) => {
    let m
    if ((m = /^inputs\.([\w-]+)$/.exec(expr))) return inputs[m[1]] ?? ''
    if (expr === 'github.action_path') return ROOT
    if (expr === 'github.event_path') return ctx.event
    if (expr === 'github.token') return ctx.token ?? ''
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr))) return outputs[m[1]]?.[m[2]] ?? ''
    throw new Error(`the action uses an expression this runner does not know: ${expr}`)
  })
  const log = []
  for (const step of ACTION.runs.steps) {
    t.equal(step.shell, 'bash', `${step.name}: bash`)
    const outFile = path.join(ctx.tmp, `output-${log.length}`)
    fs.writeFileSync(outFile, '')
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: ctx.tmp, GITHUB_OUTPUT: outFile, GITHUB_STEP_SUMMARY: ctx.summary, GITHUB_REPOSITORY: 'me/project', GITHUB_API_URL: ctx.api, BENCHRIG_PROGRESS: 'none' }
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = resolve(v)
    t.notMatch(step.run, /\$\{\{/, `${step.name}: no expression in the script itself (inputs reach it through env)`)
    // not spawnSync: the fake GitHub API answers from this process
    const r = await bash(step.run, { cwd: ctx.cwd, env })
    log.push({ name: step.name, code: r.status, stdout: r.stdout, stderr: r.stderr })
    if (step.id) {
      outputs[step.id] = {}
      for (const line of fs.readFileSync(outFile, 'utf8').split('\n')) {
        const i = line.indexOf('=')
        if (i > 0) outputs[step.id][line.slice(0, i)] = line.slice(i + 1)
      }
    }
    if (r.status !== 0) break
  }
  const value = {}
  for (const [k, v] of Object.entries(ACTION.outputs)) value[k] = resolve(v.value)
  return { log, outputs: value, failed: log.find((s) => s.code !== 0) }
}

function bash (script, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

/** GitHub's issue comments API, as much as posting a sticky comment uses. */
async function fakeGitHub (t) {
  const comments = [{ id: 1, body: 'a comment of a person' }]
  const calls = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      calls.push(`${req.method} ${req.url} ${req.headers.authorization}`)
      const send = (code, obj) => { res.writeHead(code, { 'content-type': 'application/json' }); res.end(JSON.stringify(obj)) }
      let m
      if (req.method === 'GET' && /^\/repos\/me\/project\/issues\/7\/comments\?/.test(req.url)) return send(200, comments)
      if (req.method === 'POST' && req.url === '/repos/me/project/issues/7/comments') {
        const c = { id: comments.length + 1, body: JSON.parse(body).body }
        comments.push(c)
        return send(201, c)
      }
      if (req.method === 'PATCH' && (m = /^\/repos\/me\/project\/issues\/comments\/(\d+)$/.exec(req.url))) {
        const c = comments.find((x) => x.id === Number(m[1]))
        c.body = JSON.parse(body).body
        return send(200, c)
      }
      send(404, { message: 'not found' })
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  return { url: `http://127.0.0.1:${server.address().port}`, comments, calls }
}

t.test('the action and the example workflows pass action-validator', async (t) => {
  const bin = validatorOrSkip(t)
  if (!bin) return
  for (const f of ['action.yml', ...['benchrig-pr.yml', 'benchrig-fork-compare.yml', 'benchrig-fork-post.yml'].map((x) => path.join('examples', 'github-actions', x))]) {
    const r = spawnSync(bin, [path.join(ROOT, f)], { encoding: 'utf8', timeout: 60000 })
    t.equal(r.status, 0, `${f}: ${r.stdout}${r.stderr}`)
  }
  t.equal(ACTION.runs.using, 'composite')
  t.equal(ACTION.inputs.runs.default, 'seq', '--runs seq by default')
  const post = yaml.parse(fs.readFileSync(path.join(ROOT, 'examples', 'github-actions', 'benchrig-fork-post.yml'), 'utf8'))
  t.same(Object.keys(post.on), ['workflow_run'], 'the fork pattern: the post runs in the base repository\'s context')
  t.notOk(JSON.stringify(post).includes('checkout'), 'and checks out no code of the pull request')
})

t.test('the steps, for real: merge-base vs head, summary, sticky comment, gate', async (t) => {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-action-'))
  t.teardown(() => fs.rmSync(top, { recursive: true, force: true }))
  const repo = path.join(top, 'repo')
  const tmp = path.join(top, 'tmp')
  fs.mkdirSync(repo)
  fs.mkdirSync(tmp)
  const { base, head, mainTip } = makeRepo(repo)
  const event = path.join(top, 'event.json')
  // the PR's base is main's tip now; the action compares with the merge-base
  fs.writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7, base: { sha: mainTip, ref: 'main' }, head: { sha: head, ref: 'pr' } } }))
  const gh = await fakeGitHub(t)
  const summary = path.join(top, 'summary.md')
  fs.writeFileSync(summary, '')
  const ctx = { cwd: repo, tmp, event, summary, api: gh.url, token: 'test-token' }

  const run = await runAction({ categories: 'calls', runs: '6', 'max-regression': '10', 'extra-args': '--seed 1' }, ctx)
  const gate = run.log[run.log.length - 1]
  t.equal(run.log.length, ACTION.runs.steps.length, `every step ran: ${run.log.map((s) => `${s.name}=${s.code}`).join(', ')}\n${run.log.map((s) => s.stderr).join('')}`)
  t.equal(gate.name, 'the gate (max-regression)')
  t.equal(gate.code, 1, 'the gate fails the job: spin() is twice as slow')
  t.match(gate.stdout, /::error::benchrig: a configuration is shown slower than -10%/)
  t.equal(run.outputs['old-ref'], base, 'old: the merge-base, not the base branch\'s tip')
  t.equal(run.outputs['new-ref'], head)
  t.equal(run.outputs.gate, '1')
  const comment = fs.readFileSync(path.join(repo, 'benchrig-out', 'comment.md'), 'utf8')
  t.match(comment, /^<!-- benchrig-report default -->\n/)
  t.match(comment, new RegExp(`\\*\\*Compared:\\*\\* old \`${base.slice(0, 12)}\` \\(commit \`${base.slice(0, 12)}\`\\) → new \`${head.slice(0, 12)}\` \\(commit \`${head.slice(0, 12)}\`\\)|\\*\\*Compared:\\*\\* old .*${base.slice(0, 12)}.* → new .*${head.slice(0, 12)}`))
  t.match(comment, /:x: \*\*1 configuration shown to be slower than -10%\*\*/)
  t.equal(fs.readFileSync(summary, 'utf8'), comment, 'the job summary is the comment')
  t.equal(gh.comments.length, 2, 'one comment added to the person\'s')
  t.equal(gh.comments[1].body, comment)
  t.ok(gh.calls.every((c) => c.endsWith('Bearer test-token')), 'the token is sent')
  t.same(sh('git', ['worktree', 'list', '--porcelain'], repo).split('\n').filter((l) => l.startsWith('worktree ')).length, 1, 'no worktree left')

  // the next push: the same comment is edited, none added
  const edited = comment.replace('## benchrig:', '## benchrig (again):')
  fs.writeFileSync(path.join(top, 'comment.md'), edited)
  fs.writeFileSync(path.join(top, 'pr-number'), '7\n')
  const post = await runAction({ mode: 'post', 'comment-file': path.join(top, 'comment.md') }, ctx)
  t.notOk(post.failed, post.failed && post.failed.stderr)
  t.equal(gh.comments.length, 2, 'sticky: still one benchrig comment')
  t.equal(gh.comments[1].body, edited, 'updated in place')
  t.match(gh.calls.filter((c) => c.startsWith('PATCH')), [/^PATCH \/repos\/me\/project\/issues\/comments\/2 /])

  // a fork's pull request: no token that may write: the comment goes to a file
  const dry = await runAction({ mode: 'post', 'comment-file': path.join(top, 'comment.md') }, { ...ctx, token: '' })
  t.notOk(dry.failed, dry.failed && dry.failed.stderr)
  const written = JSON.parse(fs.readFileSync(path.join(repo, 'benchrig-out', 'comment.json'), 'utf8'))
  t.same({ pr: written.pr, marker: written.marker, body: written.body }, { pr: 7, marker: '<!-- benchrig-report default -->', body: edited })
  t.match(dry.log.map((s) => s.stdout).join(''), /no GITHUB_TOKEN: the comment for pull request 7 was written to benchrig-out\/comment\.json/)
})
