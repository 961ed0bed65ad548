'use strict'
// The executor input of `compare --cmd COMMAND --runner RUNNER`: a planned
// run starts the user's own benchmark command on its side instead of a
// createBenchmark file, and its runner's tasks come back as the reports a
// file's root sends ({name, conf, rate, time, extra}), so the serial
// executor, the rules and the sinks see the same rows. It has the shape of
// runBenchmarkFile (lib/harness/run-file.js); session.js hands it to the
// executor as ctx.runFile.
//
// A side is what its process sees: the side's binary first on PATH as
// `node` (--old/--new), its worktree as the working folder (--old-ref/
// --new-ref), its package version through the require/import hooks in
// NODE_OPTIONS (--old-pkg/--new-pkg). The command runs under /bin/sh, whose
// `times` gives the CPU time of everything it started (the cpu measure of
// runners that report none). "{out}" in the command is a file the runner
// writes (vitest --outputJson, hyperfine --export-json); else its stdout is
// read.
//
// Under compare --duet both sides' commands start at once, each under
// taskset on its side's CPU set (as a benchmark file's process). A runner's
// process has no bench.start() to meet the other side at, so the command's
// section is its whole process: its start and end (epoch ms) and the CPU
// seconds of everything it started, from which duet.js judges a starved
// side. The duet's barrier variable (BENCHRIG_DUET) does not reach the
// command: a createBenchmark file started by it would wait there for a peer.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { BenchrigError } = require('../errors.js')
const { cpusetPrefix } = require('../harness/cpuset.js')
const { readRunnerOutput } = require('./index.js')
const { taskWarnings, orderEffects } = require('./guidance.js')

const DEFAULT_TIMEOUT_S = 300

/** A stable name for a command: the filename column of its rows. */
function commandName (command) {
  return command.trim().replace(/\s+/g, ' ')
}

/** Single-quoted for /bin/sh. */
const shQuote = (s) => `'${String(s).replace(/'/g, '\'\\\'\'')}'`

/** Children's user and system seconds from the second line of sh's `times`. */
function childCpuSeconds (text) {
  const lines = text.trim().split('\n')
  const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines[lines.length - 1] || '')
  if (!m) return undefined
  return Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])
}

/**
 * @param {object} o
 * @param {string} o.command the user's command (a shell command line)
 * @param {import('./index.js').Runner} o.runner
 * @param {(message: string) => void} [o.warn] guidance, once per task and kind
 * @param {string} [o.cwd] where the command runs on a side without a folder of its own (--root, default the cwd)
 * @returns {{runFile: (opts: any) => Promise<{exitCode: number|null, signal: string|null, failures: number, reports: number}>, name: string, close: () => void}}
 */
function commandExecutor ({ command, runner, warn = () => {}, cwd: defaultCwd = process.cwd() }) {
  const name = commandName(command)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-'))
  let count = 0
  const sideOk = new Set()
  /** @type {Map<string, Record<string, {forward: number[], reverse: number[]}>>} */
  const byOrder = new Map()
  const warned = new Set()
  const say = (key, message) => {
    if (warned.has(key)) return
    warned.add(key)
    warn(message)
  }

  /** A folder whose `node` is the side's binary (PATH's first entry). */
  const binDirs = new Map()
  const binDir = (execPath) => {
    if (path.basename(execPath) === 'node') return path.dirname(execPath)
    if (!binDirs.has(execPath)) {
      const dir = path.join(tmp, `bin-${binDirs.size}`)
      fs.mkdirSync(dir)
      fs.symlinkSync(execPath, path.join(dir, 'node'))
      binDirs.set(execPath, dir)
    }
    return binDirs.get(execPath)
  }

  async function runFile (opts) {
    const label = opts.side ?? 'old'
    const cwd = opts.cwd ?? defaultCwd
    const where = `compare --cmd: the ${label} side's command "${name}" (in ${cwd})`
    const out = path.join(tmp, `out-${++count}`)
    const line = command.includes('{out}') ? command.split('{out}').join(shQuote(out)) : command
    const base = opts.env ?? process.env
    // both sides of a pair in one order: odd pairs forward, even pairs reverse (for a benchmark that honours it)
    const order = opts.pair !== undefined && opts.pair % 2 === 0 ? 'reverse' : 'forward'
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...base, PATH: `${binDir(opts.execPath ?? process.execPath)}${path.delimiter}${base.PATH ?? ''}`, BENCHRIG_SIDE: label, BENCHRIG_TASK_ORDER: order }
    if (opts.execArgv && opts.execArgv.length > 0) env.NODE_OPTIONS = [base.NODE_OPTIONS, ...opts.execArgv.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].filter(Boolean).join(' ')
    // one side of a duet pair (duet.js gives both sides the barrier's variable): the process is the section
    const duetSide = base.BENCHRIG_DUET !== undefined
    for (const k of ['BENCHRIG_CHILD', 'BENCHRIG_DRIVER', 'BENCHRIG_MEASURE', 'BENCHRIG_DUET']) delete env[k]
    const script = `${line}\nbenchrig_status=$?\ntimes >&3\nexit $benchrig_status\n`
    const argv = ['/bin/sh', '-c', script]
    const [cmd, ...args] = opts.cpuset === undefined ? argv : [...cpusetPrefix(opts.cpuset), ...argv]
    const timeoutS = Number(base.BENCHRIG_TIMEOUT ?? DEFAULT_TIMEOUT_S)
    const t0 = process.hrtime.bigint()
    const startMs = performance.timeOrigin + performance.now()
    const res = await new Promise((resolve) => {
      // its own process group: a --timeout kills everything it started; a Ctrl-C is passed on
      const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true })
      let interrupted = false
      const interrupt = () => {
        interrupted = true
        try { process.kill(-child.pid, 'SIGINT') } catch {}
      }
      process.on('SIGINT', interrupt)
      let stdout = ''
      let stderr = ''
      let times = ''
      let timedOut = false
      child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
      child.stderr.setEncoding('utf8').on('data', (d) => { stderr = (stderr + d).slice(-4000) })
      const fd3 = /** @type {import('node:stream').Readable} */ (child.stdio[3])
      fd3.setEncoding('utf8').on('data', (d) => { times += d })
      const timer = timeoutS > 0 ? setTimeout(() => { timedOut = true; try { process.kill(-child.pid, 'SIGKILL') } catch {} }, timeoutS * 1000) : undefined
      const done = (r) => {
        clearTimeout(timer)
        process.removeListener('SIGINT', interrupt)
        resolve(r)
      }
      child.on('error', (err) => done({ code: null, signal: null, stdout, stderr: err.message, times, timedOut, interrupted }))
      child.on('close', (code, signal) => done({ code, signal, stdout, stderr, times, timedOut, interrupted }))
    })
    const wallS = Number(process.hrtime.bigint() - t0) / 1e9
    const endMs = performance.timeOrigin + performance.now()
    const failed = res.timedOut ? `ran longer than ${timeoutS} s (--timeout) and was killed` : res.code !== 0 ? (res.signal ? `was killed by ${res.signal}` : `exited with code ${res.code}`) : undefined
    // Ctrl-C: not the command's failure; compare stops after this run and --resume runs it again
    if (failed && res.interrupted) return { exitCode: res.code, signal: res.signal, failures: 1, reports: 0 }
    if (failed) {
      const tail = res.stderr.trim().split('\n').slice(-4).join('\n  ')
      const message = `${where} ${failed}${tail ? `; it said:\n  ${tail}` : ''}`
      // the first run of a side: the command does not work there (no pair measured yet)
      if (!sideOk.has(label)) throw new BenchrigError('BENCHRIG_ERR_COMMAND', `${message}\nNothing of this side was measured; fix the command (run it by hand in that folder), then --resume the --output file`, { exitCode: 1 })
      if (opts.onError) opts.onError({ type: 'error', name, conf: null, message })
      return { exitCode: res.code, signal: res.signal, failures: 1, reports: 0 }
    }
    let text = res.stdout
    if (command.includes('{out}')) {
      try {
        text = fs.readFileSync(out, 'utf8')
      } catch {
        throw new BenchrigError('BENCHRIG_ERR_RUNNER_OUTPUT', `${where} wrote no file at {out}: give {out} where the runner takes its output file (e.g. --outputJson {out}, --export-json {out})`, { exitCode: 2 })
      }
      fs.rmSync(out, { force: true })
    }
    const result = readRunnerOutput(runner, text, where)
    sideOk.add(label)
    const cpuS = childCpuSeconds(res.times)
    const section = duetSide ? { section_start: startMs, section_end: endMs, ...(cpuS === undefined ? {} : { section_cpu: cpuS }) } : {}
    if (opts.onConfig) opts.onConfig({ type: 'config', name, queueLength: result.tasks.length })
    for (const w of taskWarnings(runner, result)) say(w.key, w.message)
    let reports = 0
    for (const t of result.tasks) {
      const rate = opts.measure === 'cpu' ? (t.cpuRate ?? (cpuS > 0 ? t.rate * wallS / cpuS : undefined)) : t.rate
      if (!(rate > 0)) {
        if (opts.onError) opts.onError({ type: 'error', name, conf: null, message: `${where}: no CPU time for ${t.name}` })
        continue
      }
      reports++
      if (opts.pair !== undefined) {
        const sides = byOrder.get(t.name) ?? {}
        const g = (sides[label] ??= { forward: [], reverse: [] })
        g[order].push(rate)
        byOrder.set(t.name, sides)
      }
      if (opts.onReport) {
        opts.onReport({
          type: 'report',
          name,
          conf: t.name,
          rate,
          time: wallS,
          extra: { runner: runner.name, task_order: order, runner_stat: t.stat, runner_rate: t.rate, runner_samples: t.samples, runner_sample_unit: t.sampleUnit, runner_sample_count: t.count, process_wall_s: wallS, process_cpu_s: cpuS, ...section }
        })
      }
    }
    for (const e of result.errors) {
      if (opts.onError) opts.onError({ type: 'error', name, conf: null, message: `${where}: task ${e.name} failed in ${runner.name}: ${e.message}`, code: 'BENCHRIG_ERR_BENCHMARK' })
    }
    return { exitCode: 0, signal: null, failures: result.errors.length, reports }
  }

  const close = () => {
    for (const w of orderEffects(byOrder)) say(`order:${w.task}`, w.message)
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return { runFile, name, close }
}

module.exports = { commandExecutor, commandName, childCpuSeconds }
