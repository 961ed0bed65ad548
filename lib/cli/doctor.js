'use strict'
// `benchrig doctor`: a pre-flight of the machine for compare. Probes each
// CPU's speed (lib/harness/cpu-probe.js) in rounds over a few seconds (its
// spread between CPUs, its drift, which CPU is faster and whether that
// swaps), reads steal and busy time per CPU from /proc/stat over the same
// span, the load, the frequency governor, SMT siblings, the CPUs this process
// may use and the cgroup's CPU limit (cpu.max), and says which compare design
// suits the machine now. Text, or --json. The readings are gathered in one
// place (readMachine) and judged by a pure function (diagnose), so the advice
// is tested on injected readings.
const fs = require('node:fs')
const os = require('node:os')
const { parseCommandLine } = require('../harness/cli-args.js')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { createCpuProbe, allowedCpus, LIMIT } = require('../harness/cpu-probe.js')
const { parseCpuList } = require('../harness/cpuset.js')

const SCHEMA = 'benchrig-doctor/1'

const USAGE = `Usage: benchrig doctor [--json] [--seconds S]

Looks at this machine the way compare will use it and says which design
suits it now: each CPU's speed as a pinned process gets it (a fixed loop,
probed in rounds over --seconds: the spread between CPUs, the drift of each,
and whether the fastest CPU changes), steal and busy time per CPU
(/proc/stat), the load, the frequency governor, SMT siblings, the CPUs this
process may use and the cgroup's CPU limit (cpu.max).

Options:
  --json          the readings and the advice as JSON
  --seconds S     how long to probe (default 4; at most 12)
  -h, --help      this text`

/** @type {import('../harness/cli-args.js').CommandOptions} */
const OPTIONS = {
  json: { type: 'boolean' },
  seconds: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
}

// Above these, the machine is said to be noisy in that respect.
const STEAL_PCT = 5
const DRIFT = 1.10

/**
 * Per-CPU counters of /proc/stat: busy and steal jiffies, and the total.
 * @param {string} text
 * @returns {Record<string, {busy: number, steal: number, total: number}>}
 */
function parseProcStat (text) {
  /** @type {Record<string, {busy: number, steal: number, total: number}>} */
  const out = {}
  for (const line of String(text).split('\n')) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line)
    if (!m) continue
    const v = m[2].trim().split(/\s+/).map(Number)
    // user nice system idle iowait irq softirq steal (guest time is inside user)
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = v
    out[m[1]] = { busy: user + nice + system + irq + softirq, steal, total: user + nice + system + idle + iowait + irq + softirq + steal }
  }
  return out
}

/**
 * The cgroup v2 CPU limit (cpu.max: "max 100000" or "QUOTA PERIOD") in CPUs.
 * @param {string|undefined} text
 * @returns {number|undefined} undefined: no limit, or unknown
 */
function parseCpuMax (text) {
  if (text === undefined) return undefined
  const [quota, period] = String(text).trim().split(/\s+/)
  if (quota === 'max' || !(Number(quota) > 0) || !(Number(period) > 0)) return undefined
  return Number(quota) / Number(period)
}

function medianOf (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const r3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : x)

/**
 * @typedef {object} Readings
 * @property {number[]} cpus the CPUs this process may use
 * @property {Record<string, number>[]} rounds the probe's speeds per CPU, one record per round
 * @property {string} [statBefore] /proc/stat at the start
 * @property {string} [statAfter] /proc/stat at the end
 * @property {number[]} [loadavg]
 * @property {Record<string, string>} [governors] per CPU
 * @property {Record<string, number[]>} [siblings] per CPU, itself included
 * @property {string} [cpuMax] the cgroup's cpu.max
 * @property {number} seconds the span probed
 * @property {boolean} [canPin] false: no taskset (no probe, no pinning)
 */

/**
 * The report and the advice from readings: pure.
 * @param {Readings} r
 */
function diagnose (r) {
  const before = parseProcStat(r.statBefore ?? '')
  const after = parseProcStat(r.statAfter ?? '')
  const cpus = r.cpus.map((cpu) => {
    const speeds = r.rounds.map((x) => x[cpu]).filter((v) => v > 0)
    const a = after[cpu]
    const b = before[cpu]
    const dt = a && b ? a.total - b.total : 0
    return {
      cpu,
      speed: speeds.length > 0 ? { median: r3(medianOf(speeds)), min: Math.min(...speeds), max: Math.max(...speeds), rounds: speeds.length } : null,
      busy_pct: dt > 0 ? r3((a.busy - b.busy) / dt * 100) : null,
      steal_pct: dt > 0 ? r3((a.steal - b.steal) / dt * 100) : null,
      governor: r.governors?.[cpu] ?? null,
      siblings: r.siblings?.[cpu] ?? [cpu]
    }
  })
  const probed = cpus.filter((c) => c.speed)
  const medians = probed.map((c) => c.speed.median)
  const spread = medians.length >= 2 ? r3(Math.max(...medians) / Math.min(...medians)) : 1
  // drift: a CPU's fastest round over its slowest (trimmed: the second of each end when there are 5 rounds or more)
  const drift = probed.length > 0 ? r3(Math.max(...probed.map((c) => trimmedRatio(r.rounds.map((x) => x[c.cpu]).filter((v) => v > 0))))) : 1
  // which CPU was fastest in each round: a change is a swap
  const fastest = r.rounds.map((x) => {
    const e = Object.entries(x).filter(([, v]) => v > 0)
    return e.length >= 2 ? e.reduce((p, q) => (q[1] > p[1] ? q : p))[0] : undefined
  }).filter((x) => x !== undefined)
  const swaps = fastest.reduce((n, c, i) => n + (i > 0 && c !== fastest[i - 1] ? 1 : 0), 0)
  const steal = Math.max(0, ...cpus.map((c) => c.steal_pct ?? 0))
  const busy = cpus.map((c) => c.busy_pct ?? 0)
  const limit = parseCpuMax(r.cpuMax)
  const smtPairs = r.cpus.length >= 2 && r.cpus.every((c) => (r.siblings?.[c] ?? [c]).some((s) => s !== c && r.cpus.includes(s)))
  const governors = [...new Set(cpus.map((c) => c.governor).filter(Boolean))]
  const report = {
    schema: SCHEMA,
    cpus,
    allowed: r.cpus,
    seconds: r.seconds,
    spread,
    drift,
    swaps,
    steal_pct: steal,
    loadavg: r.loadavg ?? null,
    cgroup_cpus: limit ?? null,
    smt_siblings_only: smtPairs,
    governors
  }
  return { ...report, advice: advise({ ...report, canPin: r.canPin !== false, busy }) }
}

function trimmedRatio (xs) {
  if (xs.length < 2) return 1
  const s = [...xs].sort((a, b) => a - b)
  const k = s.length >= 5 ? 1 : 0
  return s[s.length - 1 - k] / s[k]
}

/**
 * Which design suits the machine, and why.
 * @param {{allowed: number[], spread: number, drift: number, swaps: number, steal_pct: number, loadavg: number[]|null,
 *   cgroup_cpus: number|null, smt_siblings_only: boolean, governors: string[], canPin: boolean, busy: number[]}} m
 * @returns {{design: 'duet'|'serial'|'serial-float', flags: string[], rule: string, reasons: string[]}}
 */
function advise (m) {
  const reasons = []
  const n = m.allowed.length
  const pct = (x) => `${((x - 1) * 100).toFixed(0)}%`
  let duetOk = true
  if (!m.canPin) {
    reasons.push('taskset is not available (or this is not Linux): runs cannot be pinned, so they float between CPUs; install the Debian package "util-linux"')
    return { design: 'serial-float', flags: ['--runs', 'seq'], rule: 'seq', reasons }
  }
  if (n < 2) {
    reasons.push(`this process may use ${n} CPU: duet needs two; serial runs on it`)
    duetOk = false
  }
  if (m.cgroup_cpus !== null && m.cgroup_cpus < Math.min(n, 2) - 0.01) {
    reasons.push(`the cgroup allows ${m.cgroup_cpus} CPU of time (cpu.max): duet's two sides would share that quota and throttle each other`)
    duetOk = false
  }
  if (m.spread > LIMIT) {
    reasons.push(`the CPUs differ in speed by ${pct(m.spread)} (medians of the probe): other work or the hypervisor takes more of one; serial pairs on one CPU (the default) keep it out of each pair's ratio, and a duet crossover removes it at the cost of wider intervals`)
    duetOk = false
  }
  if (m.drift > DRIFT) {
    reasons.push(`a CPU's speed drifted by ${pct(m.drift)} over ${m.swaps > 0 ? `the probe, and the fastest CPU changed ${m.swaps} time(s)` : 'the probe'}: pair by pair designs cancel slow drift; expect wider intervals`)
    duetOk = false
  }
  if (m.steal_pct > STEAL_PCT) reasons.push(`the hypervisor stole ${m.steal_pct.toFixed(1)}% of a CPU's time: a shared virtual machine; prefer --runs seq, which stops when the evidence is there`)
  if (m.smt_siblings_only) reasons.push('every CPU this process may use is an SMT sibling of another: duet\'s two sides would share cores')
  const load = m.loadavg ? m.loadavg[0] : 0
  if (load > n) reasons.push(`load ${load} on ${n} CPU(s): other work is queued; close it or expect wide intervals`)
  const notPerf = m.governors.filter((g) => g !== 'performance')
  if (notPerf.length > 0) reasons.push(`the frequency governor is ${notPerf.join(', ')}: "performance" keeps the clock steady (cpupower frequency-set -g performance)`)
  if (duetOk && !m.smt_siblings_only && load <= n / 2 && m.steal_pct <= STEAL_PCT) {
    reasons.unshift(`the CPUs agree within ${pct(Math.max(1, m.spread))} and hold their speed: duet (old and new at once, in crossover blocks) halves the wall time`)
    return { design: 'duet', flags: ['--duet', '--runs', 'seq'], rule: 'seq', reasons }
  }
  reasons.unshift('serial pairs on one CPU (the default of compare): both runs of a pair on one CPU, drawn per pair')
  return { design: 'serial', flags: ['--runs', 'seq'], rule: 'seq', reasons }
}

/**
 * Reads this machine over `seconds`: the probe in rounds, /proc/stat before and after.
 * @param {{seconds: number}} o
 * @returns {Promise<Readings>}
 */
async function readMachine ({ seconds }) {
  const read = (f) => { try { return fs.readFileSync(f, 'utf8') } catch { return undefined } }
  const cpus = allowedCpus() ?? os.cpus().map((_, i) => i)
  /** @type {Record<string, string>} */
  const governors = {}
  /** @type {Record<string, number[]>} */
  const siblings = {}
  for (const c of cpus) {
    const g = read(`/sys/devices/system/cpu/cpu${c}/cpufreq/scaling_governor`)
    if (g) governors[c] = g.trim()
    const s = read(`/sys/devices/system/cpu/cpu${c}/topology/thread_siblings_list`)
    try { siblings[c] = s ? parseCpuList(s.trim()) : [c] } catch { siblings[c] = [c] }
  }
  const statBefore = read('/proc/stat')
  const t0 = Date.now()
  const probe = createCpuProbe()
  const rounds = []
  if (probe) {
    try {
      const probed = cpus.slice(0, 16)
      const gap = 250
      while (Date.now() - t0 < seconds * 1000 - gap) {
        rounds.push(await probe.measure(probed))
        await new Promise((resolve) => setTimeout(resolve, gap))
      }
    } finally {
      probe.close()
    }
  } else {
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  }
  return {
    cpus,
    rounds,
    statBefore,
    statAfter: read('/proc/stat'),
    loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
    governors,
    siblings,
    cpuMax: read('/sys/fs/cgroup/cpu.max'),
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    canPin: Boolean(probe)
  }
}

/** The report as text. @param {ReturnType<typeof diagnose>} d */
function formatDoctor (d) {
  const lines = ['CPU   speed (median, min-max, loops/µs)   busy   steal   governor   siblings']
  for (const c of d.cpus) {
    const sp = c.speed ? `${c.speed.median} (${c.speed.min}-${c.speed.max})` : '-'
    const pctOr = (v) => (v === null ? '-' : `${v.toFixed(0)}%`)
    lines.push(`${String(c.cpu).padEnd(6)}${sp.padEnd(36)}${pctOr(c.busy_pct).padEnd(7)}${pctOr(c.steal_pct).padEnd(8)}${String(c.governor ?? '-').padEnd(11)}${c.siblings.join(',')}`)
  }
  lines.push('')
  lines.push(`spread between CPUs ${d.spread}x, drift ${d.drift}x, fastest CPU changed ${d.swaps} time(s) in ${d.seconds} s`)
  lines.push(`load ${d.loadavg ? d.loadavg.join(' ') : '-'}; cgroup CPU limit ${d.cgroup_cpus ?? 'none'}; CPUs allowed ${d.allowed.join(',')}`)
  lines.push('')
  lines.push(`design now: ${d.advice.design} (benchrig compare ${d.advice.flags.join(' ')} ...)`)
  for (const r of d.advice.reasons) lines.push(`  - ${r}`)
  return lines.join('\n') + '\n'
}

/**
 * @param {string[]} argv
 * @param {{stdout?: {write: (s: string) => unknown}, readings?: Readings}} [ctx] readings: injected (tests)
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const { values: v } = parseCommandLine(argv, OPTIONS)
  if (v.help) {
    stdout.write(withExamples(USAGE, 'doctor', 'benchrig doctor'))
    return 0
  }
  let seconds = 4
  if (v.seconds !== undefined) {
    seconds = Number(v.seconds)
    if (!(seconds >= 0.5 && seconds <= 12)) throw new UsageError(`--seconds ${v.seconds}: give a number of seconds from 0.5 to 12`)
  }
  const d = diagnose(ctx.readings ?? await readMachine({ seconds }))
  stdout.write(v.json ? JSON.stringify(d, null, 2) + '\n' : formatDoctor(d))
  return 0
}

module.exports = { main, diagnose, advise, parseProcStat, parseCpuMax, formatDoctor, readMachine, SCHEMA }
