'use strict'
// compare --question FILE with a runner's command (issue 33): "cmd" and
// "runner" ("format" says the same, as --format R does) stand for --cmd and
// --runner, merged with the command line like every key of a question (a
// value given in both places must agree); a bad runner, a command with
// categories or settings, are one usage error naming the file and the key,
// exit 2, before any run. A real tinybench project compared through a
// question file: the question in the NDJSON meta and the PR comment, its
// rows in the history store, --resume taking the file as it takes the flags (the same plan), and
// two shards of it covering the plan.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parseQuestion, readQuestion } = require('../../lib/cli/question.js')
const { parseCompareArgs, main: compareMain } = require('../../lib/cli/compare.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { runnerModules } = require('./_packages.js')
const { PROJECTS, WORK } = require('./_projects.js')
const { BIN: BENCHRIG } = require('./_refs-case.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-question-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
const project = path.join(dir, 'project')
fs.mkdirSync(project)
const BIN = ['--old', process.execPath, '--new', process.execPath]
const write = (name, text) => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}
const rowsOf = (file) => parseCsvRecords(fs.readFileSync(file, 'utf8')).records

/** compare in this process, in the project; a usage error as exit 2 with its message. */
async function compare (args) {
  let stdout = ''
  let stderr = ''
  const ctx = { stdout: { write: (s) => { stdout += s; return true } }, stderr: { write: (s) => { stderr += s; return true } }, handleSigint: false, env: {} }
  try {
    return { code: await compareMain([...BIN, '--root', project, '--no-progress', '--seed', '6', ...args], ctx), stdout, stderr }
  } catch (err) {
    if (typeof err.exitCode !== 'number') throw err
    return { code: err.exitCode, stdout, stderr: stderr + err.message }
  }
}

t.test('cmd, runner and format in a question file: the values they stand for, and one error naming the file and key', async (t) => {
  const q = parseQuestion('cmd: node bench.mjs\nrunner: tinybench\nruns: seq\nmeasure: cpu\n', 'q.yaml')
  t.same(q.values, { filter: [], exclude: [], set: [], measure: 'cpu', runs: 'seq', cmd: 'node bench.mjs', runner: 'tinybench' })
  t.same(q.content, { cmd: 'node bench.mjs', runner: 'tinybench', runs: 'seq', measure: 'cpu' }, 'recorded as written')
  t.equal(parseQuestion('{"cmd": "node b.js", "format": "benchmark.js"}', 'f.json').values.runner, 'benchmarkjs', '"format" names the runner; an alias is the runner\'s name')
  t.same(parseQuestion('{"runner": "mitata"}', 'r.json').values.runner, 'mitata', 'a runner without a command: the command line may give --cmd')
  const cases = [
    ['a.yaml', 'cmd: node bench.mjs\nrunner: tinybnech\n', /a\.yaml: "runner" is "tinybnech": not a runner \(did you mean "tinybench"\?\); use one of tinybench, vitest, mitata, benchmarkjs, bench-node, node-bench, hyperfine/],
    ['b.yaml', 'cmd: node bench.mjs\nformat: markdown\n', /b\.yaml: "format" is "markdown": not a runner \(in a question "format" names the runner of "cmd", as --format R does; the analysis format goes on the command line\)/],
    ['c.yaml', 'cmd: node bench.mjs\nrunner: tinybench\nformat: tinybench\n', /c\.yaml: "format" and "runner" both name the runner: give one of them/],
    ['d.json', '{"cmd": ["node", "bench.mjs"], "runner": "tinybench"}', /d\.json: "cmd" is \["node","bench\.mjs"\]: give the benchmark command as a string/],
    ['e.json', '{"cmd": "  ", "runner": "tinybench"}', /e\.json: "cmd" is " {2}": give the benchmark command as a string/],
    ['f.yaml', 'cmd: node bench.mjs\nrunner: tinybench\ncategories: [alpha]\n', /f\.yaml: "categories" does not go with "cmd": the command runs on each side instead of benchmark files/],
    ['g.yaml', 'cmd: node bench.mjs\nrunner: tinybench\nset:\n  n: 1\n', /g\.yaml: "set" does not go with "cmd": the command's runner decides what runs/],
    ['h.yaml', 'cmd: node bench.mjs\nrunner: tinybench\nfilter: sum\n', /h\.yaml: "filter" does not go with "cmd": the command's runner decides what runs/],
    ['i.yaml', 'cmd: node bench.mjs\nrunner: 3\n', /i\.yaml: "runner" is 3: not a runner/],
    ['j.yaml', 'cmd: node bench.mjs\nrunners: tinybench\n', /j\.yaml: "runners" is not a key of a question \(did you mean "runner"\?\)/]
  ]
  for (const [name, text, re] of cases) t.throws(() => parseQuestion(text, name), { code: 'BENCHRIG_ERR_INVALID_ARG', message: re }, name)
})

t.test('merged with the command line: the same value agrees, another is an error naming both; what the flags refuse is refused naming the file', async (t) => {
  const q = write('m.yaml', 'cmd: node bench.mjs\nrunner: tinybench\nruns: 3\n')
  const parse = (args) => parseCompareArgs([...BIN, '--root', project, '--question', q, ...args])
  const base = parse([])
  t.match(base, { command: { line: 'node bench.mjs', name: 'node bench.mjs', runner: { name: 'tinybench' } }, runs: 3, categories: [] })
  t.match(base.question, { file: q, cmd: 'node bench.mjs', runner: 'tinybench' }, 'the question as the NDJSON meta records it')
  t.match(parse(['--cmd', 'node bench.mjs', '--runner', 'tinybench']), { command: { name: 'node bench.mjs' } }, 'the same in both places')
  t.match(parse(['--format', 'tinybench']), { command: { runner: { name: 'tinybench' } }, analysis: { format: 'text' } }, '--format R: the same runner; the analysis keeps its format')
  t.match(parse(['--format', 'markdown']), { command: { runner: { name: 'tinybench' } }, analysis: { format: 'markdown' } }, '--format of the analysis stays')
  const runnerOnly = write('r.yaml', 'format: vitest\n')
  t.match(parseCompareArgs([...BIN, '--root', project, '--question', runnerOnly, '--cmd', 'npx vitest bench --run --outputJson {out}']), { command: { runner: { name: 'vitest' } } }, 'the runner in the file, the command on the line')
  const errors = [
    [['--cmd', 'node other.mjs'], /--cmd node other\.mjs: --question .*m\.yaml gives "cmd" as node bench\.mjs; give it in one place/],
    [['--runner', 'mitata'], /--runner mitata: --question .*m\.yaml gives "runner" as tinybench; give it in one place/],
    [['--format', 'mitata'], /--format mitata: --question .*m\.yaml gives "runner" as tinybench; give it in one place/],
    [['--set', 'n=1'], /--set does not go with "cmd" of --question .*m\.yaml: the command's runner decides what runs/],
    [['--filter', 'sum'], /--filter does not go with "cmd" of --question .*m\.yaml: the command's runner decides what runs/],
    [['buffers'], /"cmd" of --question .*m\.yaml runs the command on each side instead of benchmark files: give no benchmark categories \(buffers\)/],
    [['--measure', 'instructions'], /--measure instructions does not go with "cmd" of --question .*m\.yaml: use wall/],
    [['--profile'], /--profile does not go with "cmd" of --question .*m\.yaml: it runs each configuration found slower once more on each side, narrowed to it alone in its own process under node --cpu-prof/]
  ]
  for (const [args, re] of errors) t.throws(() => parse(args), { code: 'BENCHRIG_ERR_INVALID_ARG', message: re }, args.join(' '))
  const files = write('files.yaml', 'categories: [buffers]\nset:\n  n: 2\nmeasure: instructions\n')
  const line = (args) => t.throws(() => parseCompareArgs([...BIN, '--root', project, '--question', files, '--cmd', 'node bench.mjs', '--runner', 'tinybench', ...args]), { code: 'BENCHRIG_ERR_INVALID_ARG' })
  t.match(line([]).message, /--question .*files\.yaml: "categories" \(buffers\) does not go with --cmd: the command runs on each side instead of benchmark files/)
  const noCategories = write('nocat.yaml', 'set:\n  n: 2\n')
  t.throws(() => parseCompareArgs([...BIN, '--root', project, '--question', noCategories, '--cmd', 'node bench.mjs', '--runner', 'tinybench']), { message: /--question .*nocat\.yaml: "set" does not go with --cmd: the command's runner decides what runs/ })
  const measure = write('measure.yaml', 'measure: heap\n')
  t.throws(() => parseCompareArgs([...BIN, '--root', project, '--question', measure, '--cmd', 'node bench.mjs', '--runner', 'tinybench']), { message: /--question .*measure\.yaml: "measure" heap does not go with --cmd: use wall/ })
  t.throws(() => parseCompareArgs([...BIN, '--root', project, '--question', runnerOnly]), { message: /--question .*r\.yaml: "format" vitest goes with --cmd "COMMAND"/ }, 'a runner and no command anywhere')
  // through compare: exit 2 before any run, nothing written
  const out = path.join(dir, 'never.csv')
  const bad = await compare(['--question', write('bad.yaml', 'cmd: node bench.mjs\nrunner: tinybnech\n'), '--output', out])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /--question .*bad\.yaml: "runner" is "tinybnech": not a runner \(did you mean "tinybench"\?\)/)
  t.notOk(fs.existsSync(out), 'no run started')
  t.equal(readQuestion(q).values.cmd, 'node bench.mjs')
})

t.test('a tinybench project compared through a question file: meta, history, --resume by the flags, shards', async (t) => {
  const mods = await runnerModules()
  if (mods.skip) return t.skip(mods.skip)
  fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
  fs.writeFileSync(path.join(project, 'work.js'), WORK(2000))
  fs.writeFileSync(path.join(project, 'bench.mjs'), PROJECTS.tinybench.files['bench.mjs'])
  const q = write('tb.yaml', 'cmd: node bench.mjs\nformat: tinybench\nruns: 2\nmeasure: wall\n')
  const csv = path.join(dir, 'tb.csv')
  const nd = path.join(dir, 'tb.ndjson')
  const db = path.join(dir, 'h.sqlite')
  const r = await compare(['--question', q, '--output', csv, '--ndjson', nd, '--history', db, '--history-label', 'a..b'])
  t.equal(r.code, 0, r.stderr)
  const rows = rowsOf(csv)
  t.equal(rows.length, 2 * 2 * 2, '2 pairs x 2 sides x 2 tasks')
  t.same([...new Set(rows.map((x) => `${x.filename}|${x.configuration}`))].sort(), ['node bench.mjs|join', 'node bench.mjs|sum'])
  const meta = JSON.parse(fs.readFileSync(nd, 'utf8').split('\n')[0])
  t.match(meta, { type: 'meta', runs: 2, question: { file: q, cmd: 'node bench.mjs', format: 'tinybench', runs: 2 } }, 'the question in the NDJSON meta')
  // the PR comment names the question and the command's tasks
  const { main: analyzeMain } = require('../../lib/cli/analyze.js')
  let comment = ''
  t.equal(await analyzeMain(['--format', 'github', nd], { stdout: { write: (x) => { comment += x; return true } }, stderr: { write: () => true } }), 0)
  t.match(comment, /- question: `tb\.yaml`/)
  t.match(comment, /node bench\.mjs/)
  const show = await spawnOutput(process.execPath, [BENCHRIG, 'history', 'show', '--db', db, '--file', 'node bench.mjs', '--order', 'added', '--json'])
  t.equal(show.code, 0, show.stderr)
  const series = JSON.parse(show.stdout)
  t.same((Array.isArray(series) ? series : series.series).map((x) => x.key.configuration).sort(), ['join', 'sum'], 'the history store: one series per task of the command')
  // the flags the file stands for make the same plan: --resume takes the question's file with them
  const lines = fs.readFileSync(csv, 'utf8').trim().split('\n')
  fs.writeFileSync(csv, lines.slice(0, lines.length - 2).join('\n') + '\n')
  const resumed = await compare(['--cmd', 'node bench.mjs', '--runner', 'tinybench', '--runs', '2', '--resume', csv])
  t.equal(resumed.code, 0, resumed.stderr)
  t.match(resumed.stderr, /resuming .*: 4 rows kept/)
  t.notMatch(resumed.stderr, /under plan/, 'the same plan')
  t.equal(rowsOf(csv).length, 8, 'the cut pair ran again')
  // each shard the same question: disjoint whole pairs, together the plan
  const parts = []
  for (const i of [0, 1]) {
    const file = path.join(dir, `shard${i}.csv`)
    const s = await compare(['--question', q, '--shard', `${i}/2`, '--output', file])
    t.equal(s.code, 0, s.stderr)
    parts.push(...rowsOf(file))
  }
  const key = (x) => `${x.configuration}|${x.pair}|${x.binary}`
  t.same(parts.map(key).sort(), rows.map(key).sort(), 'the shards ran the unsharded plan\'s runs')
  t.ok(parts.every((x) => x.plan === rows[0].plan), 'under its plan hash')
})
