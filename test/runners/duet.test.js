'use strict'
// compare --cmd --duet (issue 33): both sides' commands at once, each pinned
// to its side's CPU set as a benchmark file's process is (the command's
// shell reports its own CPUs here), the CPU sets in crossover blocks and the
// analysis's cpu-effect report as for files, the whole process as each
// side's section; the duet's barrier variable does not reach the command. A
// command that fails on one side: at the first pair one error naming the
// side after the other side's rows are written, and --resume finishes the
// file; later, a retry that ran after the other side's end is marked
// no-peer, and a second failure is recorded with its side while the other
// side's rows stay.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { main: compareMain } = require('../../lib/cli/compare.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { runnerModules } = require('./_packages.js')
const { PROJECTS, WORK } = require('./_projects.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-duet-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
const project = path.join(dir, 'project')
const rowsOf = (file) => parseCsvRecords(fs.readFileSync(file, 'utf8')).records
const node = process.execPath

/** compare --duet in this process, in the project; a thrown error as its exit code and message. */
async function compare (args) {
  let stderr = ''
  const ctx = { stdout: { write: () => true }, stderr: { write: (s) => { stderr += s; return true } }, handleSigint: false, env: {} }
  try {
    return { code: await compareMain(['--root', project, '--no-progress', '--seed', '8', '--duet', '--runner', 'tinybench', ...args], ctx), stderr }
  } catch (err) {
    if (typeof err.exitCode !== 'number') throw err
    return { code: err.exitCode, stderr: stderr + err.message }
  }
}

t.before(async () => {
  const mods = await runnerModules()
  if (mods.skip || os.cpus().length < 2) return
  fs.mkdirSync(project)
  fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
  fs.writeFileSync(path.join(project, 'work.js'), WORK(2000))
  fs.writeFileSync(path.join(project, 'bench.mjs'), PROJECTS.tinybench.files['bench.mjs'])
  // what each run of a side saw: benchrig's variables and the CPUs it may run on, one line a run
  fs.writeFileSync(path.join(project, 'seen.sh'), [
    'env | grep "^BENCHRIG_" | sort | tr "\\n" " " >> "env.$BENCHRIG_SIDE"; echo >> "env.$BENCHRIG_SIDE"',
    'sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/$$/status >> "cpus.$BENCHRIG_SIDE"',
    'exec node bench.mjs', ''
  ].join('\n'))
  // the new side's 2nd run fails once the old side's 2nd has ended (its retry, the 3rd, runs
  // alone and works), and its 5th and 6th fail at once (pair 4 and its retry)
  fs.writeFileSync(path.join(project, 'flaky.sh'), [
    'n=$(cat "count.$BENCHRIG_SIDE" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "count.$BENCHRIG_SIDE"',
    'case "$BENCHRIG_SIDE:$n" in',
    '  new:2) while [ ! -e ended.old.2 ]; do sleep 0.05; done; sleep 0.3; echo "flaky: run 2 fails late" >&2; exit 4;;',
    '  new:5|new:6) echo "flaky: run $n fails" >&2; exit 4;;',
    'esac',
    'node bench.mjs; s=$?; touch "ended.$BENCHRIG_SIDE.$n"; exit $s', ''
  ].join('\n'))
})
const ready = (t) => {
  if (fs.existsSync(project)) return true
  t.skip('no runners installed, or fewer than 2 CPUs')
  return false
}

t.test('each side pinned to its CPU set, crossover blocks, the process as the section, no barrier variable', async (t) => {
  if (!ready(t)) return
  const csv = path.join(dir, 'seen.csv')
  const r = await compare(['--old', node, '--new', node, '--cmd', 'sh seen.sh', '--runs', '4', '--output', csv])
  t.equal(r.code, 0, r.stderr)
  const rows = rowsOf(csv)
  t.equal(rows.length, 4 * 2 * 2, '4 pairs x 2 sides x 2 tasks')
  t.ok(rows.every((x) => x.executor === 'duet' && x.filename === 'sh seen.sh'))
  t.same([...new Set(rows.map((x) => `${x.pair}:${x.cpu_block}`))].sort(), ['1:1', '2:1', '3:2', '4:2'], 'pairs 1-2 and 3-4 form the crossover blocks')
  for (const pair of ['1', '2', '3', '4']) {
    const sets = new Set(rows.filter((x) => x.pair === pair).map((x) => `${x.binary}:${x.cpuset}`))
    t.equal(sets.size, 2, `pair ${pair}: one CPU set per side`)
    t.not(rows.find((x) => x.pair === pair && x.binary === 'old').cpuset, rows.find((x) => x.pair === pair && x.binary === 'new').cpuset, `pair ${pair}: the sides on different sets`)
  }
  for (const block of ['1', '2']) t.equal(new Set(rows.filter((x) => x.cpu_block === block && x.binary === 'old').map((x) => x.cpuset)).size, 2, `block ${block}: old once on each set`)
  for (const side of ['old', 'new']) {
    // a side's runs follow one another in pair order
    const recorded = [1, 2, 3, 4].map((p) => rows.find((x) => x.binary === side && Number(x.pair) === p).cpuset)
    t.same(fs.readFileSync(path.join(project, `cpus.${side}`), 'utf8').trim().split('\n'), recorded, `${side}: each run's command could run only on the row's CPU set`)
    const env = fs.readFileSync(path.join(project, `env.${side}`), 'utf8').trim().split('\n')
    t.equal(env.length, 4)
    // besides what the environment of this test holds (BENCHRIG_PROGRESS, ...)
    const names = new Set(env.flatMap((l) => l.trim().split(' ').map((kv) => kv.split('=')[0])).filter((k) => !(k in process.env)))
    t.same([...names].sort(), ['BENCHRIG_SIDE', 'BENCHRIG_TASK_ORDER'], `${side}: the command sees its side and task order, no duet barrier or harness variable`)
    t.ok(env.every((l) => l.includes(`BENCHRIG_SIDE=${side} `)))
  }
  for (const x of rows) {
    t.ok(Number(x.section_end) > Number(x.section_start) && Number(x.section_cpu) > 0, 'the process as the section: its start, end and CPU seconds')
  }
  const pair1 = rows.filter((x) => x.pair === '1' && x.configuration === 'sum')
  t.ok(Math.max(...pair1.map((x) => Number(x.section_start))) < Math.min(...pair1.map((x) => Number(x.section_end))), 'the two commands ran at once')
  const a = analyze(rows)
  t.same(a.results.map((x) => [x.configuration, x.n_pairs]).sort(), [['join', 2], ['sum', 2]], 'each crossover block one pair of the analysis')
  t.match(a.warnings.find((w) => w.kind === 'cpu-effect'), { message: /^duet crossover: CPU set \d ran \d+% slower than CPU set \d .*removed by the crossover/ }, 'the CPU effect reported as for files')
})

t.test('a command that fails on one side at the first pair: one error naming the side, the other side\'s rows written, --resume finishes', async (t) => {
  if (!ready(t)) return
  const broken = path.join(dir, 'broken-node')
  const marker = path.join(dir, 'broken.marker')
  fs.writeFileSync(broken, `#!/bin/sh\nif [ -e ${JSON.stringify(marker)} ]; then\n  case "$1" in -e|-p) ;; *) echo "broken-node: cannot run $1" >&2; exit 3;; esac\nfi\nexec ${JSON.stringify(node)} "$@"\n`, { mode: 0o755 })
  fs.writeFileSync(marker, '')
  const csv = path.join(dir, 'first.csv')
  const r = await compare(['--old', node, '--new', broken, '--cmd', 'node bench.mjs', '--runs', '2', '--output', csv])
  t.equal(r.code, 1)
  t.match(r.stderr, /compare --cmd: the new side's command "node bench\.mjs" \(in .*project\) exited with code 3; it said:\n\s+broken-node: cannot run bench\.mjs\n\s*Nothing of this side was measured/)
  t.equal(r.stderr.match(/exited with code/g).length, 1, 'one error')
  t.same(rowsOf(csv).map((x) => `${x.binary}:${x.pair}`), ['old:1', 'old:1'], 'the old side ran to its end; its rows are on disk')
  fs.rmSync(marker)
  const resumed = await compare(['--old', node, '--new', broken, '--cmd', 'node bench.mjs', '--runs', '2', '--resume', csv])
  t.equal(resumed.code, 0, resumed.stderr)
  t.match(resumed.stderr, /2 rows of unfinished runs and pairs dropped/, 'the half pair runs again whole')
  t.equal(rowsOf(csv).length, 2 * 2 * 2)
})

t.test('later failures of one side: a retry alone is no-peer; a second failure is recorded with its side, the other side\'s rows kept', async (t) => {
  if (!ready(t)) return
  const csv = path.join(dir, 'flaky.csv')
  const r = await compare(['--old', node, '--new', node, '--cmd', 'sh flaky.sh', '--runs', '4', '--output', csv])
  t.equal(r.code, 1, r.stderr)
  t.match(r.stderr, /compare: FAILED sh flaky\.sh with the new binary \(.*\), pair 4: compare --cmd: the new side's command "sh flaky\.sh" \(in .*\) exited with code 4; it said:\n\s+flaky: run 6 fails/)
  t.equal((r.stderr.match(/compare: FAILED/g) ?? []).length, 1, 'one failure: pair 4\'s new side')
  const rows = rowsOf(csv)
  t.same(rows.filter((x) => x.pair === '4').map((x) => x.binary), ['old', 'old'], 'pair 4: the old side\'s rows kept')
  t.same([...new Set(rows.filter((x) => x.pair === '2').map((x) => `${x.binary}:${x.starved}`))].sort(), ['new:no-peer', 'old:no-peer'], 'pair 2: the new side retried alone, after the old side\'s end: no-peer')
  t.ok(rows.filter((x) => x.pair === '1' || x.pair === '3').every((x) => x.starved !== 'no-peer'), 'pairs whose sides ran together are not')
})
