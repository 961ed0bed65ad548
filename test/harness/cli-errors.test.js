'use strict'
// Bad input to every driver gets a clear error naming the flag or file, exit
// code 2, and never a stack trace. Each case is a real process of the entry
// point a user types; none of them gets as far as running a benchmark.
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const NODE = process.execPath
// A stack trace line as node prints it ("    at fn (file:line:col)").
const STACK = /^\s+at .+[:(]/m

function cli (entry, args) {
  const r = spawnSync(NODE, [path.join(ROOT, entry), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30000 })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

function expectUsageError (t, entry, args, message) {
  const r = cli(entry, args)
  const what = `${entry} ${args.join(' ')}`
  t.equal(r.code, 2, `${what}: exit code 2`)
  t.match(r.stderr, message, `${what}: ${r.stderr.trim()}`)
  t.notMatch(r.stderr, STACK, `${what}: no stack trace`)
  t.equal(r.stdout, '', `${what}: nothing on stdout`)
}

test('run.js: wrong invocations', async (t) => {
  const cases = [
    [[], /^run\.js: name at least one category or "all"; categories in .*buffers/],
    [['nope'], /unknown category "nope"/],
    [['--bogus', 'buffers'], /^run\.js: unknown option --bogus; see --help/],
    [['--root'], /^run\.js: --root needs a value/],
    [['--test=1', 'buffers'], /^run\.js: --test takes no value/],
    [['--timeout', '-1', 'buffers'], /^run\.js: --timeout -1: a value that starts with "-" must be joined to its flag, as in --timeout=-1/],
    [['--timeout=-1', 'buffers'], /^run\.js: --timeout -1: give a number of seconds \(0: no limit\)/],
    [['--format', 'xml', 'buffers'], /--format xml: use one of simple, csv, csv-wide, ndjson/],
    [['--runs', '0', 'buffers'], /--runs 0: give a whole number >= 1/],
    [['--set', 'len', 'buffers'], /--set len: expected key=value/],
    [['--root', '/nonexistent-benchrig', 'buffers'], /--root \/nonexistent-benchrig: cannot read the benchmark directory/],
    [['--filter', '/[/', 'buffers'], /--filter \/\[\/: not a valid regular expression/],
    [['--cpuset', 'abc', 'buffers'], /--cpuset abc: not a CPU list/]
  ]
  for (const [args, message] of cases) expectUsageError(t, 'run.js', args, message)
})

test('compare.js: wrong invocations fail before anything runs', async (t) => {
  const dir = t.testdir({ 'not-exec': 'x' })
  const both = ['--old', NODE, '--new', NODE]
  const cases = [
    [[], /^compare\.js: --old is required/],
    [['--old', path.join(dir, 'nope'), '--new', NODE, 'buffers'], /--old .*nope: no such file/],
    [['--old', NODE, '--new', path.join(dir, 'not-exec'), 'buffers'], /--new .*not-exec: not executable/],
    [['--old', dir, '--new', NODE, 'buffers'], /--old .*: not a file/],
    [[...both], /name at least one category/],
    [[...both, 'nope'], /unknown category "nope"/],
    [[...both, '--runs', 'x', 'buffers'], /--runs x: give a whole number of pairs, auto or seq/],
    [[...both, '--seed', 'abc', 'buffers'], /--seed abc: give a whole number/],
    [[...both, '--max-regression', 'abc', 'buffers'], /--max-regression abc: give a number > 0/],
    [[...both, '--target', '-3', '--runs', 'auto', 'buffers'], /--target -3: a value that starts with "-"/],
    [[...both, '--target', '1', 'buffers'], /--target, --max-runs and --time-budget go with --runs auto/],
    [[...both, '--resume', path.join(dir, 'missing.csv'), 'buffers'], /--resume .*missing\.csv: cannot read it \(ENOENT\)/],
    [[...both, '--output', path.join(dir, 'no', 'such', 'out.csv'), 'buffers'], /--output .*out\.csv: cannot write it \(its folder does not exist\)/],
    [[...both, '--ndjson', path.join(dir, 'no', 'out.ndjson'), '--output', path.join(dir, 'ok.csv'), 'buffers'], /--ndjson .*out\.ndjson: cannot write it/],
    [[...both, '--analyze', '--format', 'xml', 'buffers'], /--format xml: use one of text, markdown, json/],
    [[...both, '--plot', path.join(dir, 'pr.png'), 'buffers'], /--plot .*pr\.png: give a file name ending in \.svg/],
    [[...both, '--bogus', 'buffers'], /unknown option --bogus/]
  ]
  for (const [args, message] of cases) expectUsageError(t, 'compare.js', args, message)
})

test('scatter.js: wrong invocations', async (t) => {
  const dir = t.testdir()
  const file = 'buffers/buffer-compare.js'
  const cases = [
    [[], /give exactly one benchmark file/],
    [['a.js', 'b.js'], /give exactly one benchmark file/],
    [['nope.js'], /nope\.js: no such benchmark file/],
    [['buffers'], /^scatter\.js: buffers: not a file; give one benchmark file/],
    [['--runs', '0', file], /--runs 0: give a whole number >= 1/],
    [['--analyze', file], /--analyze needs --xaxis V/],
    [['--xaxis', 'len', file], /--xaxis, --category, --format and --no-chart go with --analyze/],
    [['--binary', path.join(dir, 'nope'), file], /--binary .*nope: no such file/],
    [['--output', path.join(dir, 'no', 'x.csv'), file], /--output .*x\.csv: cannot write it \(its folder does not exist\)/],
    [['--set', 'len', file], /--set len: expected key=value/]
  ]
  for (const [args, message] of cases) expectUsageError(t, 'scatter.js', args, message)
})

test('benchrig analyze: wrong invocations', async (t) => {
  const dir = t.testdir({
    'empty.csv': '',
    'run.csv': '"filename","configuration","rate","time"\n"a/b.js","",1,1\n',
    'broken.csv': '"binary","filename","configuration","rate","time"\n"old","x","\n'
  })
  const fixture = path.join(__dirname, '..', 'r', 'fixtures', 'paired.csv')
  const cases = [
    [['analyze'], /^benchrig analyze: give a compare CSV or NDJSON file/],
    [['analyze', path.join(dir, 'nope.csv')], /nope\.csv: cannot read it \(ENOENT\)/],
    [['analyze', dir], /: cannot read it \(EISDIR\)/],
    [['analyze', path.join(dir, 'empty.csv')], /empty\.csv: no "binary", "filename", "configuration", "rate" column/],
    [['analyze', path.join(dir, 'run.csv')], /run\.csv: no "binary" column; give a CSV written by compare\.js/],
    [['analyze', path.join(dir, 'broken.csv')], /broken\.csv: not valid CSV/],
    [['analyze', '--format', 'xml', fixture], /--format xml: use one of text, markdown, json/],
    [['analyze', '--alpha', '2', fixture], /--alpha 2: give a number > 0 and < 1/],
    [['analyze', '--plot', path.join(dir, 'no', 'pr.svg'), fixture], /--plot .*pr\.svg: the folder .*no does not exist/],
    [['analyze', '--meta', path.join(dir, 'nope.ndjson'), fixture], /--meta .*nope\.ndjson: cannot read it \(ENOENT\)/],
    [['analyze', '--nope', fixture], /unknown option --nope/],
    [['nope'], /^benchrig: unknown command "nope"/]
  ]
  for (const [args, message] of cases) expectUsageError(t, 'bin/benchrig.js', args, message)
  t.ok(fs.existsSync(fixture))
})
