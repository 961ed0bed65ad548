'use strict'
// wrk's script surface for a --script module, in JS (docs/load.md, "wrk's
// script surface"). The per-request hooks become the hooks the dynamic path
// already runs (request -> setupRequest, response -> onResponse, delay ->
// scripting/delayed-connection.js); this module holds what wrk adds around a
// run: the thread objects (setup, init, get/set, stop), and done() with
// wrk's summary, latency and requests arguments.
//
// A "thread" is one share of the run: a worker thread with -w > 1, else this
// thread. Module scope is per thread (each worker loads the module again), so
// values that must reach done() in the main thread go through thread.set().
const { RunError } = require('../../errors.js')

const WRK_HOOKS = ['init', 'setup', 'request', 'response', 'delay', 'done']

class ScriptThread {
  /**
   * @param {number} id 0-based share index
   * @param {{host: string, port: number}|null} addr where this share connects
   * @param {Record<string, unknown>} [vars]
   */
  constructor (id, addr, vars = {}) {
    this.id = id
    this.addr = addr
    this.vars = vars
    /** set in the thread that runs the share: ends the run */
    this.onStop = null
  }

  get (name) { return this.vars[name] }
  set (name, value) { this.vars[name] = value }

  /** Ends the run (every share), which still reports its result. */
  stop () {
    if (this.onStop === null) throw new Error('thread.stop() works only while the run goes on (in init, request, response or delay)')
    this.onStop()
  }
}

/** The hooks wrk's names stand for, for hooks.js's resolver (undefined when absent). */
function wrkHook (mod, name) {
  if (name === 'setupRequest' && typeof mod.request === 'function') return requestHook(mod.request)
  if (name === 'onResponse' && typeof mod.response === 'function') return responseHook(mod.response)
  if (name === 'delay' && typeof mod.delay === 'function') return mod.delay
  return undefined
}

// request(req, context): req is a copy of the request the run would send;
// the hook changes it or returns another. Returning nothing sends req as
// changed (wrk's request() always returns one: no sequence restart here).
// context: the connection's own state (wrk has none; ours, as setupRequest's)
function requestHook (fn) {
  return (req, context) => {
    const out = fn(req, context)
    return out === undefined || out === null ? req : out
  }
}

// wrk's order of arguments (status, headers, body); headers by lowercase
// name, each a string (a repeated header, an array for autocannon's hooks,
// is joined with ", " here: wrk's table holds one string per name)
function responseHook (fn) {
  return (status, body, context, headers) => fn(status, joined(headers), body, context)
}

function joined (headers) {
  if (headers === null || headers === undefined) return headers
  for (const k in headers) {
    if (Array.isArray(headers[k])) return Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, Array.isArray(v) ? v.join(', ') : v]))
  }
  return headers
}

/**
 * Calls setup(thread) for each share, in this thread, before any starts
 * (awaited), and returns the thread objects; each share's options get what
 * its thread needs (id, vars, addr).
 * @param {object} opts normalized options (opts.hooks.script is the module's path)
 * @param {object[]} runnerOpts one per share (mutated)
 * @returns {Promise<ScriptThread[]>}
 */
async function setupThreads (opts, runnerOpts) {
  const mod = require(opts.hooks.script)
  const threads = []
  for (let i = 0; i < runnerOpts.length; i++) {
    const ro = runnerOpts[i]
    const t = ro.target
    const thread = new ScriptThread(i, t.socketPath === undefined ? { host: t.hostname, port: t.port } : null)
    if (typeof mod.setup === 'function') {
      try {
        await mod.setup(thread)
      } catch (err) {
        throw new RunError(`the run stopped: setup threw: ${err?.message ?? err}`, 'BENCHRIG_ERR_HOOK')
      }
    }
    if (thread.addr !== null && (thread.addr.host !== t.hostname || thread.addr.port !== t.port)) {
      // thread.addr set by setup: this share connects there (Host stays the URL's)
      ro.target = { ...t, hostname: String(thread.addr.host), port: Number(thread.addr.port) }
    }
    // a worker gets a clone of the data; this thread uses the object itself
    ro.script = runnerOpts.length === 1 ? { thread } : { id: i, addr: thread.addr, vars: thread.vars }
    threads.push(thread)
  }
  return threads
}

/** The thread object of a share, in the thread that runs it. */
function threadOf (ro) {
  const s = ro.script
  if (s === undefined) return new ScriptThread(0, null)
  return s.thread ?? new ScriptThread(s.id, s.addr, s.vars)
}

/**
 * Runs init(args, thread) (awaited) before the share starts; a throw or a
 * rejection is the share's hook failure.
 * @returns {Promise<void>}
 */
async function initThread (mod, args, thread, hookFailed) {
  if (typeof mod.init !== 'function') return
  try {
    await mod.init(args, thread)
  } catch (err) {
    hookFailed('init', err)
  }
}

/** Summary statistics of a list of numbers, with wrk's percentile(p). */
function statsOf (sorted, mean, stdev) {
  return {
    min: sorted.length ? sorted[0] : 0,
    max: sorted.length ? sorted[sorted.length - 1] : 0,
    mean,
    stdev,
    percentile: (p) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))] : 0
  }
}

/**
 * done(summary, latency, requests) with wrk's arguments: summary {duration
 * (µs), requests, bytes, errors {connect, read, write, status, timeout}};
 * latency in µs and requests per second sample, each {min, max, mean, stdev,
 * percentile(p)}. Awaited; returns {summary, done} for the result.
 * @param {object} merged the merged stats (result/result.js mergeStats)
 * @param {object} result the built result
 */
async function runDone (scriptPath, merged, result) {
  const mod = require(scriptPath)
  const summary = {
    duration: Math.round(merged.elapsedMs * 1000),
    requests: result.requests.total,
    bytes: result.throughput.total,
    errors: {
      connect: result.errorsByKind.connect ?? 0,
      read: (result.errorsByKind.read ?? 0) + (result.errorsByKind.parse ?? 0),
      write: result.errorsByKind.write ?? 0,
      status: result.non2xx,
      timeout: result.errorsByKind.timeout ?? 0
    }
  }
  const h = merged.histogram
  const latency = {
    min: h.percentile(0),
    max: h.percentile(100),
    mean: h.mean(),
    stdev: h.stddev(),
    percentile: (p) => h.percentile(p)
  }
  const samples = Array.from(merged.samplesReq).sort((a, b) => a - b)
  const mean = samples.reduce((a, b) => a + b, 0) / (samples.length || 1)
  const stdev = Math.sqrt(samples.reduce((a, b) => a + (b - mean) ** 2, 0) / (samples.length || 1))
  let out
  try {
    out = await mod.done(summary, latency, statsOf(samples, mean, stdev))
  } catch (err) {
    throw new RunError(`the run stopped: done threw: ${err?.message ?? err}`, 'BENCHRIG_ERR_HOOK')
  }
  return { summary, done: out }
}

module.exports = { WRK_HOOKS, ScriptThread, wrkHook, setupThreads, threadOf, initThread, runDone }
