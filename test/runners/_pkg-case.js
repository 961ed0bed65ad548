'use strict'
// compare --cmd with --old-pkg/--new-pkg, for real, for one runner (each
// runner's test file pkg-RUNNER.test.js calls this): a project whose
// "escape" task calls escape-html from the npm registry and whose "control"
// task does not. The side's version reaches the benchmark through the
// package hooks only: the runners' node_modules hold no escape-html.
//
// The text (TEXT in _pkg-projects.js): one tag, then 2 KB of plain words.
// 1.0.2 runs five replace() passes, each a fast search for one character;
// 1.0.3 finds the tag with one exec(), then walks every later character
// with charCodeAt() and a switch. Per call here: 0.6-0.7 us against 6.8-9.7 us on node 18, 20,
// 24 and 26, 10x or more on each (plain text without the tag is 3x slower
// under 1.0.3 on node 20 and 2x faster on node 26: not a difference to test).
// With 1.0.2 as old and 1.0.3 as new, escape is called slower and control not;
// an A/A of one version calls nothing.
//
// --max-runs bounds the pairs. With two configurations, seq calls one of
// them from the 9th pair of one sign (a perfect run's e-value, 65, over
// e-BH's bar of 40), both at once from the 7th (bar 20): escape was called at
// the 9th in every run here. 20 for the change, fewer for slow runners; 10
// for the A/A (9 for mitata), past the 9 pairs a call of one task needs, so
// calling nothing says something.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { needTool } = require('../helpers/tools.js')
const { runnerModules } = require('./_packages.js')
const { verdicts, CALLS, BIN } = require('./_refs-case.js')

const NETWORK = /ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|network/i

/**
 * @typedef {object} PkgProject
 * @property {Record<string, string>} files the project's files by name
 * @property {string} command the --cmd
 * @property {'wall'|'cpu'} measure cpu for a runner whose value is a mean of
 *   wall times, or a whole process (a loaded machine's pauses are in it)
 * @property {[string, string]} [tasks] the configurations of escape and control, as the runner names them
 * @property {string} [node] the --node binary (both sides); default the one running the test
 * @property {number} [pairs] --max-runs of the change
 * @property {number} [aaPairs] --max-runs of the A/A
 * @property {('change'|'aa')[]} [parts] a slow runner's two parts go in two files, each within tap's time limit
 * @property {string} [tool] a program the command needs (hyperfine)
 */

/**
 * @param {string} runner
 * @param {PkgProject} p
 */
function pkgCase (runner, { files, command, measure, tasks = ['escape', 'control'], node, pairs = 20, aaPairs = 10, parts = ['change', 'aa'], tool }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `benchrig-cmd-pkg-${runner}-`))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const [escape, control] = tasks
  const compare = (args) => spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--seed', '5', '--node', node ?? process.execPath,
    '--cache', path.join(dir, 'cache'), '--analyze', '--format', 'json', '--cmd', command, '--runner', runner, '--measure', measure,
    '--runs', 'seq', '--threshold', '10', ...args], { cwd: path.join(dir, 'project') })
  const offline = (r) => NETWORK.test(r.stderr) && process.env.BENCHRIG_REQUIRE_TOOLS !== '1'

  const title = [parts.includes('change') && 'escape-html 1.0.2 against 1.0.3: escape is called slower, control not', parts.includes('aa') && 'an A/A of 1.0.2 calls nothing'].filter(Boolean).join('; ')
  t.test(`${runner}: ${title}`, async (t) => {
    const mods = await runnerModules()
    if (mods.skip) return t.skip(mods.skip)
    if (tool && !needTool(t, tool)) return
    if (node && !fs.existsSync(node)) return t.skip(`no node at ${node}: scripts/install-node-versions.sh`)
    const project = path.join(dir, 'project')
    fs.mkdirSync(project)
    fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
    for (const [name, source] of Object.entries(files)) fs.writeFileSync(path.join(project, name), source)

    if (parts.includes('change')) {
      const nd = path.join(dir, 'change.ndjson')
      const r = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.3', '--max-runs', String(pairs), '--ndjson', nd])
      if (offline(r)) return t.skip(`the npm registry is not reachable: ${r.stderr.trim().split('\n').pop()}`)
      t.equal(r.code, 0, r.stderr)
      const v = verdicts(r.stdout)
      t.same(Object.keys(v).sort(), [...tasks].sort(), 'one configuration per task')
      t.equal(v[escape], 'slower', `${escape}: the version that walks the text character by character is called slower (${r.stderr.split('\n').filter((l) => l.includes('--runs seq')).join(' ')})`)
      t.notMatch(v[control], CALLS, `${control}: not called (${v[control]})`)
      const recs = fs.readFileSync(nd, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      t.match(recs[0], { type: 'meta', old: { package: 'escape-html', package_version: '1.0.2' }, new: { package: 'escape-html', package_version: '1.0.3' } })
      const rows = recs.filter((x) => x.type === 'measurement')
      t.ok(rows.length >= 2 * 2 * 2, `${rows.length} rows: two tasks, two sides, at least two pairs`)
      t.ok(rows.every((x) => x.measure === measure && x.filename === command.replace(/\s+/g, ' ')), 'each row is the command, measured as asked')
      t.match(rows[0].extra, { runner, runner_stat: String, runner_rate: Number }, 'the runner\'s own statistics kept beside the row')
    }
    if (!parts.includes('aa')) return
    const aa = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.2', '--max-runs', String(aaPairs)])
    if (offline(aa)) return t.skip(`the npm registry is not reachable: ${aa.stderr.trim().split('\n').pop()}`)
    t.equal(aa.code, 0, aa.stderr)
    const w = verdicts(aa.stdout)
    t.same(Object.keys(w).sort(), [...tasks].sort())
    for (const task of tasks) t.notMatch(w[task], CALLS, `A/A: ${task} not called (${w[task]})`)
  })
}

module.exports = { pkgCase }
