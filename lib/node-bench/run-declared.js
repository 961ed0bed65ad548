'use strict'
// Runs the benchmarks a node:bench file declared with our implementation
// (api.js), in declaration order, and emits for each one the record Node's
// json reporter writes: `{type: 'bench:complete', data: {name, namePath,
// file, params, samples: [{operations, duration_ns, rate}], error?, skip?}}`.
// Like Node: `warmup` unreported samples then `samples` measured ones (the
// command line's --bench-samples/--bench-warmup win over a benchmark's own),
// beforeEach/afterEach around each benchmark, before/after once per suite.
// Runs inside the binary under test: Node 18 APIs only.
const { BenchContext } = require('./api.js')

/** The benchmarks of a tree, in declaration order. */
function flatten (root) {
  const out = []
  const walk = (node) => {
    for (const child of node.children) {
      if (child.kind === 'bench') out.push(child)
      else walk(child)
    }
  }
  walk(root)
  return out
}

function ancestors (node) {
  const list = []
  for (let s = node.parent; s; s = s.parent) list.unshift(s)
  return list
}

/** Node's rule: a skip anywhere up the tree skips; with any `only`, the rest is skipped. */
function skipReason (benchmark, hasOnly) {
  for (const n of [...ancestors(benchmark), benchmark]) {
    if (n.skip !== undefined && n.skip !== false) return n.skip
  }
  if (hasOnly && ![...ancestors(benchmark), benchmark].some((n) => n.only)) return 'only'
  return null
}

function hasOnlyIn (root) {
  const walk = (node) => node.only || (node.children || []).some(walk)
  return walk(root)
}

async function runHooks (fns, context) {
  for (const fn of fns) await fn(context)
}

/**
 * @param {object} root the tree from createHarness()
 * @param {{file: string, samples?: number, warmup?: number,
 *   emit: (record: object) => void|Promise<void>}} opts
 * @returns {Promise<{completed: number, failed: number, skipped: number}>}
 */
async function runDeclared (root, opts) {
  const counts = { completed: 0, failed: 0, skipped: 0 }
  const all = flatten(root)
  const hasOnly = hasOnlyIn(root)
  const entered = new Set()
  const remaining = new Map()
  for (const b of all) for (const s of ancestors(b)) remaining.set(s, (remaining.get(s) || 0) + 1)
  for (const b of all) {
    const skip = skipReason(b, hasOnly)
    const data = { name: b.name, namePath: b.namePath, file: opts.file, params: b.params, selected: skip === null }
    if (skip !== null) data.skip = skip
    await opts.emit({ type: 'bench:plan', data })
  }

  for (const benchmark of all) {
    const base = { name: benchmark.name, namePath: benchmark.namePath, file: opts.file, params: benchmark.params }
    const skip = skipReason(benchmark, hasOnly)
    const suites = ancestors(benchmark)
    let error
    const samples = []
    if (skip === null) {
      const context = { name: benchmark.name, params: benchmark.params, signal: undefined }
      try {
        for (const s of suites) {
          if (entered.has(s)) continue
          entered.add(s)
          await runHooks(s.hooks.before, undefined)
        }
        for (const s of suites) await runHooks(s.hooks.beforeEach, context)
        try {
          await runSamples(benchmark, opts, samples)
        } finally {
          for (const s of suites.slice().reverse()) await runHooks(s.hooks.afterEach, context)
        }
      } catch (err) {
        error = err
      }
    }
    // A suite's after hooks run when its last benchmark is over.
    for (const s of suites.slice().reverse()) {
      const left = remaining.get(s) - 1
      remaining.set(s, left)
      if (left === 0 && entered.has(s)) {
        try { await runHooks(s.hooks.after, undefined) } catch (err) { if (!error) error = err }
      }
    }
    /** @type {typeof base & {samples: object[], skip?: string, error?: object}} */
    const data = { ...base, samples: skip === null ? samples : [] }
    if (skip !== null) {
      data.skip = skip
      counts.skipped++
    } else if (error !== undefined) {
      data.error = { name: error && error.name, message: error && error.message, code: error && error.code, stack: error && error.stack }
      counts.failed++
    } else {
      counts.completed++
    }
    await opts.emit({ type: 'bench:complete', data })
  }
  return counts
}

async function runSamples (benchmark, opts, samples) {
  const warmup = opts.warmup ?? benchmark.warmup
  const total = warmup + (opts.samples ?? benchmark.samples)
  for (let i = 0; i < total; i++) {
    const phase = i < warmup ? 'warmup' : 'measurement'
    const ctx = new BenchContext(benchmark, phase, phase === 'warmup' ? i : i - warmup, undefined)
    await benchmark.fn(ctx)
    const { sample, done } = ctx.finish()
    if (phase === 'measurement') samples.push(sample)
    if (done) break
    // Node yields to the event loop between samples.
    if (i + 1 < total) await new Promise((resolve) => setImmediate(resolve))
  }
}

module.exports = { runDeclared, flatten }
