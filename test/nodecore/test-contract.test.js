'use strict'
// Node core's test workflow: its test suite forks benchmark/run.js with
// ['test', <category>] and NODEJS_BENCHMARK_ZERO_ALLOWED=1 and accepts the
// output only if it is made of blocks "\n<file>\n<one result>\n" (more
// results only for files with groups). This checker applies those rules
// (our own code, written from the rules) to our run.js over our suites.
const { test } = require('tap')
const path = require('node:path')
const fs = require('node:fs')
const { fork } = require('node:child_process')
const { needTool } = require('../helpers/tools.js')

const REPO = path.join(__dirname, '..', '..')
const RUN_JS = path.join(REPO, 'run.js')

function runTest (category) {
  return new Promise((resolve) => {
    const env = { ...process.env, NODEJS_BENCHMARK_ZERO_ALLOWED: '1' }
    const child = fork(RUN_JS, ['test', category], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/**
 * Splits run.js output by Node's rules into blocks; returns the problems found.
 * @param {string} stdout
 * @returns {{blocks: {file: string, results: string[]}[], problems: string[]}}
 */
function checkContract (stdout) {
  const problems = []
  const blocks = []
  if (!stdout.startsWith('\n')) problems.push('output does not start with a blank line')
  if (!stdout.endsWith('\n')) problems.push('output does not end with a newline')
  // Every block: blank line, file name, then its result lines (non-empty).
  for (const chunk of stdout.split('\n\n').map((c) => c.replace(/^\n/, ''))) {
    if (chunk === '') continue
    const lines = chunk.replace(/\n$/, '').split('\n')
    const [file, ...results] = lines
    if (lines.some((l) => l === '')) problems.push(`${file}: an empty line inside the block`)
    if (results.length === 0) problems.push(`${file}: no result line`)
    for (const r of results) {
      if (!r.startsWith(file + ' ') && !r.startsWith(file + ':')) problems.push(`${file}: a line that is not a result of this file: ${JSON.stringify(r)}`)
    }
    // Node's checker looks for `group="` (its run.js JSON-quotes values)
    const grouped = results.every((r) => / group="[^"]*"/.test(r))
    if (results.length > 1 && !grouped) problems.push(`${file}: ${results.length} result lines without groups`)
    blocks.push({ file, results })
  }
  return { blocks, problems }
}

const benchmarkFiles = (category) => fs.readdirSync(path.join(REPO, category))
  .filter((f) => f.endsWith('.js') && !f.startsWith('_')).sort().map((f) => `${category}/${f}`)

test('the checker rejects what Node rejects', async (t) => {
  t.same(checkContract('\nbuffers/a.js\nbuffers/a.js n=1: 1.00\n').problems, [])
  t.not(checkContract('buffers/a.js\nbuffers/a.js n=1: 1.00\n').problems.length, 0, 'no leading blank line')
  t.not(checkContract('\nbuffers/a.js\nbuffers/a.js n=1: 1.00\nbuffers/a.js n=2: 1.00\n').problems.length, 0, 'two results without groups')
  t.not(checkContract('\nhttp/a.js\nhttp/a.js n=1: 1.00\n  wrk 4.1; errors 0\n').problems.length, 0, 'an indented detail line')
  t.not(checkContract('\nbuffers/a.js\n').problems.length, 0, 'no result')
  t.same(checkContract('\nb/g.js\nb/g.js group="a" n=1: 1\nb/g.js group="b" n=1: 2\n').problems, [], 'groups may have one line each')
  t.not(checkContract("\nb/g.js\nb/g.js group='a' n=1: 1\nb/g.js group='b' n=1: 2\n").problems.length, 0, 'Node looks for group=" (JSON quotes)')
})

// One category at a time: run side by side, the test-mode HTTP loads (0.3 s)
// of a starved machine can complete no request at all.
for (const category of ['buffers', 'http', 'http2']) {
  test(`node run.js test ${category} meets Node's test contract`, async (t) => {
    if (category === 'http2' && !needTool(t, 'h2load')) return
    const r = await runTest(category)
    t.equal(r.code, 0, r.stderr)
    t.equal(r.signal, null)
    const { blocks, problems } = checkContract(r.stdout)
    t.same(problems, [], r.stdout)
    t.same(blocks.map((b) => b.file), benchmarkFiles(category), 'every file of the category, once, in order')
    for (const b of blocks) {
      // one configuration, or one per group (Node's test mode reduces each group)
      const groups = b.results.map((r) => (/ group="([^"]*)"/.exec(r) || [])[1])
      if (groups[0] === undefined) t.equal(b.results.length, 1, `${b.file}: one configuration in test mode`)
      else t.equal(new Set(groups).size, b.results.length, `${b.file}: one configuration per group`)
    }
  })
}

module.exports = { checkContract }
