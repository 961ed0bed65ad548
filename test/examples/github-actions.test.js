'use strict'
// examples/github-actions/: the workflows pass a real validator
// (@action-validator/cli from npm: the workflow JSON schema plus its own
// checks; scripts/install-tools.sh installs it into .tools/), the comment
// parser of benchmark-pr.yml accepts what its header says and nothing else
// (its own bash, run as the workflow runs it), and its github-script step
// edits the one comment that carries the marker analyze --format github
// writes (run against an in-memory issue: GitHub itself is not reachable
// from a test).
const t = require('tap')
const { validatorOrSkip } = require('../helpers/action-validator.js')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const yaml = require('yaml')
const { markerOf, MARKER_PREFIX } = require('../../lib/report/github.js')

const ROOT = path.join(__dirname, '..', '..')
const DIR = path.join(ROOT, 'examples', 'github-actions')
const PR = path.join(DIR, 'benchmark-pr.yml')

const workflow = yaml.parse(fs.readFileSync(PR, 'utf8'))
const steps = workflow.jobs.benchmark.steps
const stepNamed = (name) => steps.find((s) => s.name === name)

t.test('every workflow passes action-validator', async (t) => {
  const bin = validatorOrSkip(t)
  if (!bin) return
  const files = fs.readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f))
  t.ok(files.includes('benchmark-pr.yml'))
  for (const f of files) {
    const r = spawnSync(bin, [path.join(DIR, f)], { encoding: 'utf8', timeout: 60000 })
    t.equal(r.status, 0, `${f}: ${r.stdout}${r.stderr}`)
  }
  // and it is a real check: a step with an unknown key, a job without runs-on
  const dir = t.testdir({ 'bad.yml': 'name: x\non: push\njobs:\n  a:\n    steps:\n      - run: echo\n        foo: 1\n' })
  const bad = spawnSync(bin, [path.join(dir, 'bad.yml')], { encoding: 'utf8' })
  t.equal(bad.status, 1)
  t.match(bad.stdout + bad.stderr, /Additional property 'foo' is not allowed/)
})

t.test('triggers, permissions and the order of the steps', async (t) => {
  t.same(workflow.on, { pull_request: { types: ['labeled', 'synchronize'] }, issue_comment: { types: ['created'] } })
  t.same(workflow.permissions, { contents: 'read', 'pull-requests': 'write', issues: 'write' })
  const cond = workflow.jobs.benchmark.if
  t.match(cond, /contains\(github\.event\.pull_request\.labels\.\*\.name, 'benchmark'\)/)
  t.match(cond, /startsWith\(github\.event\.comment\.body, '\/benchmark'\)/)
  t.match(cond, /author_association/, 'only people with write access start a run')
  const names = steps.map((s) => s.name ?? s.uses)
  const at = (n) => names.findIndex((x) => x.startsWith(n))
  t.ok(at('build base and head') < at('compare'))
  t.ok(at('compare') < at('record into the history store'))
  t.ok(at('record into the history store') < at('the comment'))
  t.ok(at('the comment') < at('post or update the comment'))
  t.match(stepNamed('compare').run, /compare --old base\/out\/Release\/node --new head\/out\/Release\/node/)
  t.match(stepNamed('the comment').run, /analyze --format github --marker "\$CATEGORY" --history/)
  t.notMatch(stepNamed('what to run').run, /\$\{\{/, 'the comment text reaches the script only through the environment')
})

/** Runs the workflow's parse step as Actions would (bash -e), with a comment. */
function ask (t, event, comment) {
  const dir = t.testdir()
  const out = path.join(dir, 'out')
  fs.writeFileSync(out, '')
  const r = spawnSync('bash', ['-e', '-c', stepNamed('what to run').run], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, EVENT: event, COMMENT: comment, DEFAULT_CATEGORY: workflow.env.DEFAULT_CATEGORY, GITHUB_OUTPUT: out }
  })
  const outputs = Object.fromEntries(fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => l.split(/=(.*)/s).slice(0, 2)))
  return { status: r.status, stdout: r.stdout, outputs }
}

t.test('the comment command: /benchmark <category> [--filter PATTERN]', async (t) => {
  t.same(ask(t, 'pull_request', '').outputs, { category: 'buffers', filter: '' }, 'a label runs the default category')
  t.same(ask(t, 'issue_comment', '/benchmark http').outputs, { category: 'http', filter: '' })
  t.same(ask(t, 'issue_comment', '/benchmark  http  --filter simple\r\nplease').outputs, { category: 'http', filter: 'simple' }, 'the first line counts; CRLF and extra spaces are fine')
  t.same(ask(t, 'issue_comment', '/benchmark buffers --filter buffer-tostring.js').outputs, { category: 'buffers', filter: 'buffer-tostring.js' })
  for (const bad of ['/benchmark', '/benchmark http --filter', '/benchmark http; rm -rf /', '/benchmark $(id)', '/benchmark http --filter `id`', '/benchmark http --runs 5', '/benchmarks http']) {
    const r = ask(t, 'issue_comment', bad)
    t.equal(r.status, 1, `refused: ${bad}`)
    t.match(r.stdout, /::error::usage: \/benchmark <category> \[--filter PATTERN\]/)
    t.same(r.outputs, {}, 'no output for the later steps')
  }
})

/** An issue's comments in memory, with the calls github-script's `github` offers the step. */
function fakeIssue (comments) {
  let next = 100
  const calls = []
  const rest = {
    issues: {
      listComments: async () => ({ data: comments }),
      updateComment: async ({ comment_id: id, body }) => {
        calls.push(['update', id])
        comments.find((c) => c.id === id).body = body
      },
      createComment: async ({ body }) => {
        const c = { id: next++, body, user: { type: 'Bot', login: 'github-actions[bot]' } }
        comments.push(c)
        calls.push(['create', c.id])
        return { data: c }
      }
    }
  }
  const github = { rest, paginate: async (fn, args) => (await fn(args)).data }
  return { github, calls, comments }
}

async function postStep (dir, issue, body) {
  fs.writeFileSync(path.join(dir, 'comment.md'), body)
  const script = stepNamed('post or update the comment').with.script
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor
  const cwd = process.cwd()
  process.chdir(dir)
  process.env.PR_NUMBER = '7'
  try {
    const info = []
    await new AsyncFunction('github', 'context', 'core', 'require', script)(issue.github, { repo: { owner: 'o', repo: 'r' } }, { info: (m) => info.push(m) }, require)
    return info
  } finally {
    process.chdir(cwd)
    delete process.env.PR_NUMBER
  }
}

t.test('one comment per marker: created once, then edited', async (t) => {
  const dir = t.testdir()
  const human = { id: 1, body: `${markerOf('http')}\nquoting the bot`, user: { type: 'User', login: 'someone' } }
  const other = { id: 2, body: `${markerOf('buffers')}\nbuffers`, user: { type: 'Bot', login: 'github-actions[bot]' } }
  const issue = fakeIssue([human, other])
  t.same(await postStep(dir, issue, `${markerOf('http')}\nfirst`), ['created comment 100'], 'a human comment with the marker is not ours')
  t.same(await postStep(dir, issue, `${markerOf('http')}\nsecond`), ['updated comment 100'])
  t.same(issue.calls, [['create', 100], ['update', 100]])
  t.equal(issue.comments.find((c) => c.id === 100).body, `${markerOf('http')}\nsecond`)
  t.equal(other.body, `${markerOf('buffers')}\nbuffers`, 'another category\'s comment is left alone')
  t.equal(human.body, `${markerOf('http')}\nquoting the bot`)
  await t.rejects(postStep(dir, issue, 'no marker'), /does not start with the benchrig marker/)
  t.match(stepNamed('post or update the comment').with.script, MARKER_PREFIX, 'the step looks for the marker analyze writes')
})

t.test('the record and comment steps run as written, on a compare NDJSON', async (t) => {
  // the steps' own bash, with benchrig at benchrig/ as the workflow checks it out
  const fixture = fs.readFileSync(path.join(ROOT, 'test', 'r', 'fixtures', 'paired.csv'), 'utf8')
  const { parseCsvRecords } = require('../../lib/record/csv.js')
  const rows = parseCsvRecords(fixture).records
  const meta = { schema: 'benchrig-compare/1', type: 'meta', seed: 42, measure: 'wall', old: { version: 'v22.11.0', sha256: 'a'.repeat(64) }, new: { version: 'v22.12.0', sha256: 'b'.repeat(64) }, cpu: { model: 'Example CPU', count: 2 }, os: { platform: 'linux', release: '6.1.0', arch: 'x64' }, hostname: 'runner' }
  const dir = t.testdir({ 'compare.ndjson': [meta, ...rows.map((r) => ({ schema: 'benchrig-compare/1', type: 'measurement', ...r, rate: Number(r.rate) }))].map((r) => JSON.stringify(r)).join('\n') + '\n' })
  fs.symlinkSync(ROOT, path.join(dir, 'benchrig'))
  const summary = path.join(dir, 'summary.md')
  const run = (name, env) => spawnSync('bash', ['-e', '-c', stepNamed(name).run], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, GITHUB_STEP_SUMMARY: summary, BENCHRIG_DB: '', ...env } })
  const rec = run('record into the history store', { BASE: '1'.repeat(40), HEAD: '2'.repeat(40) })
  t.equal(rec.status, 0, rec.stderr)
  t.match(rec.stdout, /history: 300 rows added/)
  t.ok(fs.existsSync(path.join(dir, '.benchrig', 'history.sqlite')), 'the store the cache steps save and restore')
  const comment = run('the comment', { CATEGORY: 'buffers' })
  t.equal(comment.status, 0, 'exit 1 of analyze (slower configurations) is not a failure of the step: ' + comment.stderr)
  const body = fs.readFileSync(path.join(dir, 'comment.md'), 'utf8')
  t.equal(body.split('\n', 1)[0], markerOf('buffers'))
  t.match(body, /### Trend in the history store/)
  t.equal(fs.readFileSync(summary, 'utf8'), body, 'the job summary shows the comment too')
})
