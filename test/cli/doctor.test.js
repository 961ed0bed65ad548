'use strict'
// benchrig doctor: the JSON shape and the advice on injected readings (/proc
// contents and probe results), and one short real run for the shape alone
// (no speed is asserted).
const t = require('tap')
const { main, diagnose, parseProcStat, parseCpuMax, formatDoctor, SCHEMA } = require('../../lib/cli/doctor.js')

const stat = (rows) => 'cpu  1 2 3 4 5 6 7 8 0 0\n' + rows.map(([busy, idle, steal], i) => `cpu${i} ${busy} 0 0 ${idle} 0 0 0 ${steal} 0 0`).join('\n') + '\nintr 1 2 3\n'
const quiet = {
  cpus: [0, 1],
  rounds: Array.from({ length: 10 }, (_, i) => ({ 0: 440 + (i % 3), 1: 438 + (i % 2) })),
  statBefore: stat([[100, 1000, 0], [100, 1000, 0]]),
  statAfter: stat([[110, 1390, 0], [120, 1380, 0]]),
  loadavg: [0.2, 0.3, 0.3],
  governors: { 0: 'performance', 1: 'performance' },
  siblings: { 0: [0], 1: [1] },
  cpuMax: 'max 100000\n',
  seconds: 4
}

t.test('readings are parsed', async (t) => {
  t.same(parseProcStat(stat([[10, 90, 5]])), { 0: { busy: 10, steal: 5, total: 105 } })
  t.equal(parseCpuMax('max 100000'), undefined)
  t.equal(parseCpuMax('150000 100000\n'), 1.5)
  t.equal(parseCpuMax(undefined), undefined)
})

t.test('a quiet machine: duet, and the JSON shape', async (t) => {
  const d = diagnose(quiet)
  t.equal(d.schema, SCHEMA)
  t.same(Object.keys(d), ['schema', 'cpus', 'allowed', 'seconds', 'spread', 'drift', 'swaps', 'steal_pct', 'loadavg', 'cgroup_cpus', 'smt_siblings_only', 'governors', 'advice'])
  t.same(Object.keys(d.cpus[0]), ['cpu', 'speed', 'busy_pct', 'steal_pct', 'governor', 'siblings'])
  t.same(Object.keys(d.cpus[0].speed), ['median', 'min', 'max', 'rounds'])
  t.equal(d.cpus[0].speed.rounds, 10)
  t.equal(d.cpus[0].busy_pct, 2.5, '10 busy of 400 jiffies')
  t.equal(d.cpus[1].busy_pct, 5)
  t.equal(d.steal_pct, 0)
  t.equal(d.cgroup_cpus, null)
  t.match(d.advice, { design: 'duet', flags: ['--duet', '--runs', 'seq'] })
  t.match(d.advice.reasons[0], /agree within/)
  t.match(formatDoctor(d), /design now: duet \(benchrig compare --duet --runs seq \.\.\.\)/)
})

t.test('a CPU time-shared with other work, swapping: serial on one CPU', async (t) => {
  const rounds = Array.from({ length: 10 }, (_, i) => (i < 5 ? { 0: 440, 1: 240 } : { 0: 250, 1: 430 }))
  const d = diagnose({ ...quiet, rounds, loadavg: [1.6, 1.2, 1] })
  t.equal(d.swaps, 1, 'the fastest CPU changed once')
  t.ok(d.drift > 1.5)
  t.equal(d.advice.design, 'serial')
  t.match(d.advice.reasons.join('\n'), /differ in speed|drifted/)
})

t.test('steal, a cgroup quota, one CPU, SMT siblings, no taskset', async (t) => {
  const stolen = diagnose({ ...quiet, statAfter: stat([[110, 1300, 90], [120, 1380, 0]]) })
  t.equal(stolen.steal_pct, 22.5)
  t.equal(stolen.advice.design, 'serial')
  t.match(stolen.advice.reasons.join('\n'), /hypervisor stole 22\.5%/)
  const quota = diagnose({ ...quiet, cpuMax: '100000 100000' })
  t.equal(quota.cgroup_cpus, 1)
  t.equal(quota.advice.design, 'serial')
  t.match(quota.advice.reasons.join('\n'), /cgroup allows 1 CPU/)
  const one = diagnose({ ...quiet, cpus: [0], rounds: quiet.rounds.map((r) => ({ 0: r[0] })) })
  t.equal(one.advice.design, 'serial')
  t.match(one.advice.reasons.join('\n'), /may use 1 CPU: duet needs two/)
  const smt = diagnose({ ...quiet, siblings: { 0: [0, 1], 1: [0, 1] } })
  t.equal(smt.smt_siblings_only, true)
  t.equal(smt.advice.design, 'serial')
  const powersave = diagnose({ ...quiet, governors: { 0: 'powersave', 1: 'powersave' } })
  t.match(powersave.advice.reasons.join('\n'), /governor is powersave/)
  const noPin = diagnose({ ...quiet, rounds: [], canPin: false })
  t.equal(noPin.advice.design, 'serial-float')
  t.equal(noPin.cpus[0].speed, null)
})

t.test('the command: injected readings as JSON; a short real run; a bad flag', async (t) => {
  let out = ''
  const stdout = { write: (s) => { out += s; return true } }
  t.equal(await main(['--json'], { stdout, readings: quiet }), 0)
  t.equal(JSON.parse(out).advice.design, 'duet')
  out = ''
  t.equal(await main(['--json', '--seconds', '0.5'], { stdout }), 0)
  const real = JSON.parse(out)
  t.equal(real.schema, SCHEMA)
  t.ok(real.cpus.length >= 1 && real.cpus.every((c) => typeof c.cpu === 'number'))
  t.ok(['duet', 'serial', 'serial-float'].includes(real.advice.design))
  await t.rejects(main(['--seconds', '60'], { stdout }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--seconds 60: give a number of seconds from 0\.5 to 12/ })
})
