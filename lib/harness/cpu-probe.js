'use strict'
// The per-CPU speed probe: one long-lived child (cpu-probe-child.js) that
// the driver moves from CPU to CPU with `taskset -a -p -c CPU PID` and asks
// to run a fixed loop (cpu-probe-loop.js) a few times. The speed of a CPU is
// the loop's iterations per microsecond over the whole few milliseconds, so
// a CPU shared with other work, or stolen by the hypervisor, reads slower:
// what a benchmark pinned there would get. One child for the whole run costs
// one node start-up; a probe of one CPU costs one taskset call and ~8 ms.
const path = require('node:path')
const fs = require('node:fs')
const { fork, spawnSync } = require('node:child_process')
const { LOOP } = require('./cpu-probe-loop.js')
const { parseCpuList } = require('./cpuset.js')

// 16 x ~0.45 ms: long enough to see a CPU time-shared with other work as
// slower (a time slice of the other work lands in the window), short
// enough to run before every pair
const REPS = 16

/**
 * The CPUs this process may run on (its affinity, which a cgroup cpuset
 * narrows too), from /proc/self/status; undefined where Linux does not say.
 * @param {string} [status] the file's text (tests)
 * @returns {number[]|undefined}
 */
function allowedCpus (status) {
  let text = status
  if (text === undefined) {
    try { text = fs.readFileSync('/proc/self/status', 'utf8') } catch { return undefined }
  }
  const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(text)
  if (!m) return undefined
  try { return parseCpuList(m[1]) } catch { return undefined }
}

/** True when this platform can pin a running process to a CPU (Linux with taskset). */
function canPin () {
  return process.platform === 'linux' && !spawnSync('taskset', ['--version'], { stdio: 'ignore' }).error
}

/**
 * Speed (loop iterations per µs) from the child's answer.
 * @param {number[]} ns wall time of each repetition
 * @param {number} [iterations]
 */
function speedOf (ns, iterations = LOOP) {
  const total = ns.reduce((s, x) => s + x, 0)
  return total > 0 ? round3(iterations * ns.length / (total / 1000)) : NaN
}

/** Three significant digits: a probe is no more exact than that. */
function round3 (x) {
  if (!Number.isFinite(x) || x === 0) return x
  const p = Math.pow(10, 2 - Math.floor(Math.log10(Math.abs(x))))
  return Math.round(x * p) / p
}

/**
 * The spread of a probe: fastest over slowest CPU (1 when one CPU or none).
 * @param {Record<string, number>} speeds per CPU
 */
function spreadOf (speeds) {
  const v = Object.values(speeds).filter((x) => x > 0)
  if (v.length < 2) return 1
  return round3(Math.max(...v) / Math.min(...v))
}

/**
 * The speed of a CPU set as one number: the mean of its CPUs' speeds.
 * @param {Record<string, number>} speeds
 * @param {string} list a taskset CPU list
 */
function setSpeed (speeds, list) {
  const v = parseCpuList(list).map((c) => speeds[c]).filter((x) => x > 0)
  return v.length > 0 ? round3(v.reduce((s, x) => s + x, 0) / v.length) : undefined
}

/**
 * Starts the probe. measure(cpus) pins the child to each CPU in turn and
 * returns each one's speed; when the platform cannot pin, a probe is not made
 * (createCpuProbe returns undefined).
 * @param {{execPath?: string, pin?: (pid: number, cpu: number) => boolean}} [opts] pin: for tests
 * @returns {{measure: (cpus: number[]) => Promise<Record<string, number>>, close: () => void}|undefined}
 */
function createCpuProbe (opts = {}) {
  const pin = opts.pin ?? pinProcess
  if (!opts.pin && !canPin()) return undefined
  const child = fork(path.join(__dirname, 'cpu-probe-child.js'), [], { execPath: opts.execPath ?? process.execPath, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'json' })
  // the probe never keeps the driver alive on its own: its channel is held
  // only while a reading is awaited (a driver that ends early leaves no hang)
  child.unref()
  child.channel?.unref()
  let closed = false
  child.on('error', () => { closed = true })
  child.on('exit', () => { closed = true })
  const ask = () => new Promise((resolve) => {
    const onMessage = (m) => { if (m && m.type === 'spun') done(m.ns) }
    const onExit = () => done(undefined)
    function done (ns) {
      child.channel?.unref()
      child.removeListener('message', onMessage)
      child.removeListener('exit', onExit)
      resolve(ns)
    }
    child.on('message', onMessage)
    child.on('exit', onExit)
    child.channel?.ref()
    child.send({ type: 'spin', iterations: LOOP, reps: REPS })
  })
  return {
    async measure (cpus) {
      /** @type {Record<string, number>} */
      const speeds = {}
      for (const cpu of cpus) {
        if (closed || !pin(child.pid, cpu)) continue
        const ns = await ask()
        if (ns) speeds[cpu] = speedOf(ns)
      }
      return speeds
    },
    close () {
      closed = true
      if (child.connected) child.disconnect()
    }
  }
}

/**
 * The run-time warning: keeps each CPU's last `window` probe speeds and
 * warns when the medians of the fastest and slowest CPU differ by more than
 * `limit` (a ratio); once, and again only when another CPU becomes the
 * slowest (the load moved) and `quiet` probes have passed since the last
 * warning (under heavy load the slow CPU changes every few pairs: one line
 * per change would drown the output).
 * @param {{warn: (w: {slow: string, fast: string, ratio: number}) => void, window?: number, limit?: number, quiet?: number}} o
 * @returns {(speeds: Record<string, number>) => void}
 */
function createSpeedWatch ({ warn, window = 5, limit = LIMIT, quiet = 20 }) {
  /** @type {Map<string, number[]>} */
  const seen = new Map()
  let warnedSlow
  let since = Infinity
  return (speeds) => {
    since++
    for (const [cpu, v] of Object.entries(speeds)) {
      if (!(v > 0)) continue
      const xs = seen.get(cpu) ?? []
      xs.push(v)
      if (xs.length > window) xs.shift()
      seen.set(cpu, xs)
    }
    const medians = [...seen].filter(([, xs]) => xs.length >= Math.min(3, window)).map(([cpu, xs]) => [cpu, medianOf(xs)])
    if (medians.length < 2) return
    medians.sort((a, b) => a[1] - b[1])
    const [slow, lo] = medians[0]
    const [fast, hi] = medians[medians.length - 1]
    const ratio = hi / lo
    if (ratio > limit && warnedSlow !== slow && since >= quiet) {
      warnedSlow = slow
      since = 0
      warn({ slow, fast, ratio: round3(ratio) })
    }
  }
}

/** Above this ratio of fastest to slowest CPU, compare warns (a few per cent: quiet machines agree within it). */
const LIMIT = 1.05

function medianOf (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

function pinProcess (pid, cpu) {
  const r = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' })
  return !r.error && r.status === 0
}

module.exports = { createCpuProbe, createSpeedWatch, LIMIT, allowedCpus, canPin, speedOf, spreadOf, setSpeed, round3, REPS }
