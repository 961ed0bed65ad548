'use strict'
// compare --question FILE and --set SCOPE:key=value (issue 30): the whole
// question in one run. A suite of three files in two categories, each file
// with its own n, is one plan: every file runs with its own settings (its
// configuration says so), the question is in the NDJSON meta and the plan
// hash, and a question file and the flags it stands for give the same plan.
// Bad files: one usage error naming the file and key, before any run.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { parseQuestion } = require('../../lib/cli/question.js')
const { parseCompareArgs, main: compareMain } = require('../../lib/cli/compare.js')
const { splitScoped, fileArgsOf } = require('../../lib/compare/scoped-set.js')

const REPO = path.join(__dirname, '..', '..')
const dir = t.testdir()
const root = path.join(dir, 'bench')
// a tiny section of work whose n shows in the configuration
const FILE = `'use strict'
const common = require('../common.js')
const bench = common.createBenchmark(main, { n: [5], kind: ['a'] })
function main ({ n }) {
  bench.start()
  let x = 0
  for (let i = 0; i < n * 100; i++) x = (x + i) % 7
  bench.end(n)
  if (x < 0) console.log(x)
}
`
for (const f of ['alpha/one.js', 'alpha/two.js', 'beta/one.js']) {
  fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true })
  fs.writeFileSync(path.join(root, f), FILE)
}
fs.writeFileSync(path.join(root, 'common.js'), `module.exports = require(${JSON.stringify(path.join(REPO, 'common.js'))})\n`)
const BIN = ['--old', process.execPath, '--new', process.execPath]
const write = (name, text) => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

async function run (args, { progress = false } = {}) {
  let stdout = ''
  let stderr = ''
  // stderr is not a terminal; env: where BENCHRIG_PROGRESS is looked up (not this test run's)
  const ctx = { stdout: { write: (s) => { stdout += s; return true } }, stderr: { write: (s) => { stderr += s; return true } }, handleSigint: false, env: {} }
  try {
    return { code: await compareMain([...BIN, '--root', root, ...(progress ? [] : ['--no-progress']), '--seed', '5', ...args], ctx), stdout, stderr }
  } catch (err) {
    if (err.exitCode !== 2) throw err
    return { code: 2, stdout, stderr: stderr + err.message }
  }
}

t.test('scopes: a file beats its category, which beats an unscoped --set; names resolve to files', async (t) => {
  const files = [{ category: 'alpha', name: 'alpha/one.js' }, { category: 'alpha', name: 'alpha/two.js' }, { category: 'beta', name: 'beta/one.js' }]
  const { plain, scoped } = splitScoped(['n=1', 'alpha:n=2', 'alpha/two.js:n=3', 'url=http://x:1/a', 'two:kind=b'])
  t.same(plain, ['n=1', 'url=http://x:1/a'], 'a ":" after the "=" is part of the value')
  const m = fileArgsOf(files, plain, scoped)
  t.same(Object.fromEntries(m), {
    'alpha/one.js': ['n=2', 'url=http://x:1/a'],
    'alpha/two.js': ['n=3', 'url=http://x:1/a', 'kind=b'],
    'beta/one.js': ['n=1', 'url=http://x:1/a']
  })
  t.equal(fileArgsOf(files, plain, []), undefined, 'nothing scoped: no per-file arguments')
  const lists = splitScoped(['n=1', 'n=2', 'alpha:n=3', 'alpha:n=4', 'alpha/one.js:kind=b'])
  t.same(Object.fromEntries(fileArgsOf(files, lists.plain, lists.scoped)), {
    'alpha/one.js': ['n=3', 'n=4', 'kind=b'],
    'alpha/two.js': ['n=3', 'n=4'],
    'beta/one.js': ['n=1', 'n=2']
  }, 'a key repeated is a list; a more specific scope replaces the whole list')
  t.same(parseQuestion('set:\n  n: [1, 2]\n  alpha:\n    len: [8, 16]\n', 'l.yaml').values.set, ['n=1', 'n=2', 'alpha:len=8', 'alpha:len=16'], 'lists in a question file')
  t.throws(() => fileArgsOf(files, [], splitScoped(['one:n=2']).scoped), { message: /"one" names 2 files \(alpha\/one.js, beta\/one.js\); give the file with its category/ })
  t.throws(() => fileArgsOf(files, [], splitScoped(['gamma:n=2']).scoped), { message: /--set gamma:n=2: "gamma" names no category or benchmark file of this run; its categories: alpha, beta/ })
  t.throws(() => splitScoped(['alpha:CPUSET=1']), { message: /CPUSET applies to the whole run/ })
})

t.test('bad question files: one usage error naming the file and the key', async (t) => {
  const cases = [
    ['a.json', '{"categories": ["alpha"], "sets": {}}', /a\.json: "sets" is not a key of a question \(did you mean "set"\?\)/],
    ['b.json', '{"categories": []}', /b\.json: "categories" is empty/],
    ['c.json', '{"runs": "often"}', /c\.json: "runs" is "often": give a whole number of pairs >= 1, "auto" or "seq"/],
    ['d.yaml', 'set:\n  alpha:\n    n: [1, {a: 2}]\n', /d\.yaml: "set\.alpha\.n" is \[1,\{"a":2\}\]: give a value \(a string, number or boolean\) or a list of them/],
    ['e.yaml', 'rule:\n  alpah: 0.1\n', /e\.yaml: "rule\.alpah" is not a parameter of a rule \(did you mean "rule\.alpha"\?\)/],
    ['f.yaml', 'rule:\n  alpha: -1\n', /f\.yaml: "rule\.alpha" is -1: give a number > 0/],
    ['g.yaml', 'set: [1]\n', /g\.yaml: "set" must be an object/],
    ['h.json', '{"categories": ', /h\.json: not valid JSON/],
    ['i.yaml', 'a: b: c\n', /i\.yaml(:\d+)?: not valid YAML/],
    ['j.txt', '{}', /j\.txt: give a \.json, \.yaml or \.yml file/],
    ['k.yaml', '- alpha\n', /k\.yaml: the file must hold an object/]
  ]
  for (const [name, text, re] of cases) t.throws(() => parseQuestion(text, name), { code: 'BENCHRIG_ERR_INVALID_ARG', message: re }, name)
  // through compare: exit 2 before any run, nothing written
  const out = path.join(dir, 'never.csv')
  const cli = [
    [['--question', write('m.yaml', 'categories: [alpha]\nmeasure: walls\n')], /--question .*m\.yaml: "measure": --measure walls/],
    [['--question', write('n.yaml', 'categories: [alpha]\nset:\n  gamma:\n    n: 1\n')], /--set \(or "set" of --question .*n\.yaml\) gamma:n=1: "gamma" names no category/],
    [['--question', write('o.yaml', 'categories: [alpha]\nruns: 3\n'), '--runs', '4'], /--runs 4: --question .*o\.yaml gives "runs" as 3; give it in one place/],
    [['--question', write('p.yaml', 'categories: [alpha]\n'), 'beta'], /names the categories \(alpha\); leave them off the command line \(beta\)/],
    [['--question', path.join(dir, 'missing.yaml')], /--question .*missing\.yaml: cannot read it \(ENOENT\)/]
  ]
  for (const [args, re] of cli) {
    const r = await run([...args, '--output', out])
    t.equal(r.code, 2, args.join(' '))
    t.match(r.stderr, re)
  }
  t.notOk(fs.existsSync(out), 'no run started')
})

t.test('one run with per-file settings: rows, meta, plan hash; the file and its flags give the same plan', async (t) => {
  const q = write('q.yaml', [
    'categories: [alpha, beta]',
    'exclude: two',
    'runs: 2',
    'set:',
    '  kind: a',
    '  alpha:',
    '    n: 3',
    '  beta/one.js:',
    '    n: 4',
    '  alpha/two.js:', // excluded: a scope may name a file the filters leave out
    '    n: 7',
    ''
  ].join('\n'))
  const csv = path.join(dir, 'q.csv')
  const nd = path.join(dir, 'q.ndjson')
  const r = await run(['--question', q, '--output', csv, '--ndjson', nd], { progress: true })
  t.equal(r.code, 0, r.stderr)
  // not a terminal: each file's verdicts as it ends, from the analysis benchrig analyze gives
  const done = r.stderr.split('\n').filter((l) => / done \(so far/.test(l))
  t.same(done.map((l) => l.split(' ')[1]).sort(), ['alpha/one.js', 'beta/one.js'], 'one block per file')
  t.match(r.stderr, /compare: beta\/one\.js done \(so far; the final analysis spans every file\):\n {2}kind='a' n=4: [+-]\d+\.\d+% \[/)
  const rows = parseCsvRecords(fs.readFileSync(csv, 'utf8')).records
  t.same([...new Set(rows.map((x) => `${x.filename} ${x.configuration}`))].sort(), ["alpha/one.js kind='a' n=3", "beta/one.js kind='a' n=4"], 'each file ran with its own n; --exclude from the file')
  t.equal(rows.length, 2 * 2 * 2, '2 files x 2 pairs x 2 sides')
  const meta = JSON.parse(fs.readFileSync(nd, 'utf8').split('\n')[0])
  t.match(meta, { type: 'meta', runs: 2, fileArgs: { 'alpha/one.js': ['kind=a', 'n=3'], 'beta/one.js': ['kind=a', 'n=4'] }, question: { file: q, categories: ['alpha', 'beta'], set: { alpha: { n: 3 } } } }, 'the question in the NDJSON meta')
  // the PR report names the question and each file's settings
  const { main: analyzeMain } = require('../../lib/cli/analyze.js')
  let comment = ''
  t.equal(await analyzeMain(['--format', 'github', nd], { stdout: { write: (x) => { comment += x; return true } }, stderr: { write: () => true } }), 0)
  t.match(comment, /- question: `q\.yaml`; each file's settings: alpha\/one\.js kind=a n=3; beta\/one\.js kind=a n=4/)
  // the same question as flags: the same plan (hash), the same rows
  const csv2 = path.join(dir, 'flags.csv')
  const r2 = await run(['--runs', '2', '--exclude', 'two', '--set', 'kind=a', '--set', 'alpha:n=3', '--set', 'beta/one:n=4', '--output', csv2, 'alpha', 'beta'])
  t.equal(r2.code, 0, r2.stderr)
  const rows2 = parseCsvRecords(fs.readFileSync(csv2, 'utf8')).records
  t.equal(rows2[0].plan, rows[0].plan, 'one plan hash')
  t.same(rows2.map((x) => `${x.filename}|${x.configuration}|${x.pair}|${x.binary}`), rows.map((x) => `${x.filename}|${x.configuration}|${x.pair}|${x.binary}`), 'the same runs in the same order')
  // other settings are another plan
  const parsed = parseCompareArgs([...BIN, '--root', root, '--set', 'alpha:n=9', 'alpha'])
  t.same(parsed.scopedSets, [{ scope: 'alpha', key: 'n', value: '9', raw: 'alpha:n=9' }])
  const { planHash } = require('../../lib/compare/shards.js')
  const hashOf = (fileArgs) => planHash({ seed: 5, categories: ['alpha'], batches: [], args: [], fileArgs, sha256: { old: 'a', new: 'b' } })
  t.not(hashOf(new Map([['alpha/one.js', ['n=2']]])), hashOf(new Map([['alpha/one.js', ['n=3']]])), 'other settings of a file: another plan hash')
  t.equal(hashOf(undefined), planHash({ seed: 5, categories: ['alpha'], batches: [], args: [], sha256: { old: 'a', new: 'b' } }), 'nothing scoped: the hash of before')
  // --resume takes the question file as it takes flags
  const lines = fs.readFileSync(csv, 'utf8').trim().split('\n')
  fs.writeFileSync(csv, lines.slice(0, lines.length - 3).join('\n') + '\n')
  const resumed = await run(['--question', q, '--resume', csv])
  t.equal(resumed.code, 0, resumed.stderr)
  t.match(resumed.stderr, /resuming .*: 4 rows kept/)
  t.equal(parseCsvRecords(fs.readFileSync(csv, 'utf8')).records.length, 8, 'the missing runs ran again')
  t.notMatch(resumed.stderr, /under plan/, 'the same question: the same plan')
  // another question on resume: refused before any run, naming what differs (the sides record beside --output)
  const other = write('other.yaml', 'categories: [alpha, beta]\nexclude: two\nruns: 2\nset:\n  kind: a\n  alpha:\n    n: 9\n')
  const before = fs.readFileSync(csv, 'utf8')
  const again = await run(['--question', other, '--resume', csv])
  t.equal(again.code, 2, 'a usage error')
  t.match(again.stderr, /--resume .*q\.csv: not the comparison its rows were measured in .*the plan is [0-9a-f]{16}, the file's [0-9a-f]{16}/)
  t.equal(fs.readFileSync(csv, 'utf8'), before, 'the file untouched')
  // shards take it too: each shard the same question; their union is the plan, analyze merges them
  const shard = (i) => run(['--question', q, '--shard', `${i}/2`, '--output', path.join(dir, `shard${i}.csv`)])
  for (const s of [await shard(0), await shard(1)]) t.equal(s.code, 0, s.stderr)
  const parts = [0, 1].map((i) => parseCsvRecords(fs.readFileSync(path.join(dir, `shard${i}.csv`), 'utf8')).records)
  t.same([...parts[0], ...parts[1]].map((x) => `${x.filename}|${x.configuration}|${x.pair}|${x.binary}`).sort(), rows.map((x) => `${x.filename}|${x.configuration}|${x.pair}|${x.binary}`).sort(), 'the shards ran the unsharded plan\'s runs')
  t.ok([...parts[0], ...parts[1]].every((x) => x.plan === rows[0].plan), 'under its plan hash')
})
