'use strict'
// compare --cmd with --old-ref/--new-ref, for real, for one runner (each
// runner's test file calls this): its project in a temporary git repository
// whose second commit makes "sum" do 1.5x the work. --runs seq calls sum
// slower and join neither faster nor slower; an A/A of one commit calls
// nothing. Each run is one process of the runner at short time settings;
// --max-runs bounds the pairs: 20 for the change (a seq stop needs 7 to 9
// pairs of one sign; on a machine at a load of 15, a few pairs turned over
// made the rule's futility stop at 7 pairs with 12 as the limit, "would
// need ~13"), 14 for slow runners, 10 for the A/A, past the point where a
// call could come.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { needTool } = require('../helpers/tools.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { PROJECTS } = require('./_projects.js')
const { runnerModules } = require('./_packages.js')
const { makeRepo } = require('./_repo.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const CALLS = /^(faster|slower)$/

/** The analysis's verdict per configuration. */
const verdicts = (stdout) => Object.fromEntries(JSON.parse(stdout).results.map((r) => [r.configuration, r.verdict]))

/**
 * @param {string} runner
 * @param {{loop?: number, measure?: string, parts?: ('change'|'aa')[], aaPairs?: number, pairs?: number}} [o] loop: sum's loop count (default 20000: ~0.1 ms a call);
 *   measure: cpu for a runner whose statistic is a mean of wall times (a loaded machine's pauses are in it);
 *   parts: the change, the A/A or both (a slow runner's two parts go in two files, each within tap's time limit)
 */
function refsCase (runner, { loop = 20000, measure = 'wall', parts = ['change', 'aa'], aaPairs = 10, pairs = 20 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `benchrig-cmd-${runner}-`))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const p = PROJECTS[runner]
  const compare = (cwd, args) => spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--node', p.node ?? process.execPath, '--seed', '3',
    '--measure', measure, '--analyze', '--format', 'json', '--cmd', p.command, '--runner', runner, '--runs', 'seq', '--threshold', '10', ...args], { cwd })

  const title = [parts.includes('change') && 'a commit that makes one task 1.5x the work is called slower, nothing else', parts.includes('aa') && 'an A/A calls nothing'].filter(Boolean).join('; ')
  t.test(`${runner}: ${title}`, async (t) => {
    const mods = await runnerModules()
    if (mods.skip) return t.skip(mods.skip)
    if (runner === 'hyperfine' && !needTool(t, 'hyperfine')) return
    if (p.node && !fs.existsSync(p.node)) return t.skip(`no node at ${p.node}: scripts/install-node-versions.sh`)
    const repo = makeRepo(path.join(dir, 'project'), runner, mods.nodeModules, { loop })
    const [sum, join] = p.tasks
    if (parts.includes('change')) {
      const out = path.join(dir, 'refs.csv')
      const r = await compare(repo, ['--old-ref', 'HEAD~1', '--new-ref', 'HEAD', '--max-runs', String(pairs), '--output', out])
      t.equal(r.code, 0, r.stderr)
      const v = verdicts(r.stdout)
      t.equal(v[sum], 'slower', `${sum}: 1.5x the work is called slower (${r.stderr.split('\n').filter((l) => l.includes('--runs seq')).join(' ')})`)
      t.notMatch(v[join], CALLS, `${join}: not called (${v[join]})`)
      const rows = parseCsvRecords(fs.readFileSync(out, 'utf8')).records
      t.same([...new Set(rows.map((x) => x.configuration))].sort(), [...p.tasks].sort(), 'one configuration per task')
      t.same([...new Set(rows.map((x) => x.filename))], [p.command], 'the filename is the command')
      t.ok(rows.every((x) => x.measure === measure))
    }
    if (!parts.includes('aa')) return
    const aa = await compare(repo, ['--old-ref', 'HEAD', '--new-ref', 'HEAD', '--max-runs', String(aaPairs)])
    t.equal(aa.code, 0, aa.stderr)
    const w = verdicts(aa.stdout)
    t.same(Object.keys(w).sort(), [...p.tasks].sort())
    for (const task of p.tasks) t.notMatch(w[task], CALLS, `A/A: ${task} not called (${w[task]})`)
  })
}

module.exports = { refsCase, verdicts, CALLS, BIN }
