'use strict'
// The duet executor (Bulej et al., "Duet benchmarking", ICPE 2020): both
// runs of a pair at once, each side under taskset on its own CPU set, the
// sets assigned in crossover blocks of two pairs (old on set A and new on B,
// then swapped, the block's order seeded; recorded in the "cpuset" and
// "cpu_block" columns) so that a difference between the two sets cancels
// within each block (lib/stats/crossover.js) instead of on average only.
// Before each pair the CPU probe measures both sets ("cpu_speed"). The children meet at a barrier before each
// configuration's measured section (lib/harness/duet-barrier.js), so what
// disturbs the machine during the section disturbs both. A pair's rows are
// written when both sides are done, each with its section's start and end
// and its own CPU seconds in the section; a side that got less than
// STARVED_SHARE of the other side's CPU share in its section is flagged
// ("starved" names it): a load that hits one side only. A CPU set that is
// slower for longer (other work time-shared on it, the hypervisor) shows in
// the probe's cpu_speed column (analyze's cpu-speed warning) and cancels in
// the crossover. With --cmd a side is the runner's command
// (lib/runners/run-command.js): both start together, and with no
// bench.start() to meet at, each command's whole process is its section.
// A side that throws (a command that does not work on its side) does not
// cut the other short: both are waited for, the other's rows are written,
// then the error (naming its side) ends the comparison.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { BenchrigError } = require('../errors.js')
const { createRng } = require('../prng.js')
const { runOne } = require('./run-compare.js')
const { runKey } = require('./schedule.js')

const STARVED_SHARE = 0.8
// Below this section length the CPU time's tick (and the process's helper
// threads) make a share too rough to judge.
const MIN_SECTION_MS = 50

/**
 * The side that was starved in a pair's configuration, if any.
 * @param {{section_start?: number, section_end?: number, section_cpu?: number}} a old row
 * @param {{section_start?: number, section_end?: number, section_cpu?: number}} b new row
 * @returns {'old'|'new'|undefined}
 */
function starvedSide (a, b) {
  const ms = (r) => r.section_end - r.section_start
  if (!(ms(a) >= MIN_SECTION_MS) || !(ms(b) >= MIN_SECTION_MS)) return undefined
  const share = (r) => r.section_cpu / (ms(r) / 1000)
  const sa = share(a)
  const sb = share(b)
  if (!(sa > 0) || !(sb > 0)) return undefined
  if (sa < STARVED_SHARE * sb) return 'old'
  if (sb < STARVED_SHARE * sa) return 'new'
  return undefined
}

/**
 * The crossover assignment of a pair: its block (pairs 1-2, 3-4, ...) and
 * whether the old side gets the first CPU set. The block's first pair draws
 * it (seeded by the plan's seed, the file and the block), its second pair
 * takes the other: every complete block runs old once on each set.
 * @param {number} seed
 * @param {string} name
 * @param {number} pair
 * @returns {{block: number, oldOnFirst: boolean}}
 */
function crossoverArm (seed, name, pair) {
  const block = Math.ceil(pair / 2)
  const coin = oldGetsFirst(seed, name, block)
  return { block, oldOnFirst: pair % 2 === 1 ? coin : !coin }
}

/** A seeded coin per (seed, file, number): which CPU set the old side gets. */
function oldGetsFirst (seed, name, pair) {
  let h = seed >>> 0
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0
  return createRng((h ^ Math.imul(pair, 0x9e3779b1)) >>> 0).uniform() < 0.5
}

/**
 * @param {import('./schedule.js').ScheduledRun[]} schedule
 * @param {import('./run-compare.js').CompareContext & {duet: {sets: [string, string]}}} ctx
 */
async function runDuetSchedule (schedule, ctx) {
  const pairs = new Map()
  for (const r of schedule) {
    const key = `${r.name}\u0000${r.pair}`
    pairs.set(key, [...(pairs.get(key) ?? []), r])
  }
  const isDone = (r) => ctx.done && ctx.done.has(runKey(r.name, r.binary, r.pair))
  const todo = [...pairs.values()].filter((runs) => runs.some((r) => !isDone(r)))
  const total = todo.reduce((s, runs) => s + runs.filter((r) => !isDone(r)).length, 0)
  const rows = []
  const failures = []
  let ran = 0
  let starved = 0
  const t0 = Date.now()
  for (const runs of todo) {
    if (ctx.stop && ctx.stop.stopped) break
    const left = runs.filter((r) => !isDone(r))
    const [a, b] = ctx.duet.sets
    const { block, oldOnFirst: first } = crossoverArm(ctx.seed, left[0].name, left[0].pair)
    const setOf = { old: first ? a : b, new: first ? b : a }
    const probed = await probeSets(ctx, setOf)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-duet-'))
    const buffered = []
    if (ctx.onProgress) ctx.onProgress({ phase: 'start', run: left[0], index: ran, total, elapsedMs: Date.now() - t0 })
    let settled
    try {
      // both sides to their end, even when one throws (a --cmd command that does not work on
      // its side): the other's process is waited for and its rows and failures handled first
      settled = await Promise.allSettled(left.map((run) => runOne(run, {
        ...ctx,
        cpuset: setOf[run.binary],
        // alone (the other side is on disk already: --resume drops such half pairs, so only a
        // schedule that holds one side of a pair) there is no one to wait for
        env: left.length === 2 ? { ...(ctx.env ?? process.env), BENCHRIG_DUET: JSON.stringify({ dir, side: run.binary }) } : ctx.env,
        onRow: (row, extra) => buffered.push({ row: { ...row, cpuset: setOf[run.binary], ...probed[run.binary], cpu_block: String(block) }, extra }),
        onProgress: undefined
      })))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
    // a runner's command (--cmd: its reports name the runner) meets no barrier
    starved += markStarved(buffered.map((x) => x.row), buffered.some((x) => x.extra && x.extra.runner !== undefined))
    if (ctx.onProgress) ctx.onProgress({ phase: 'duet', starved })
    for (const { row, extra } of buffered) {
      rows.push(row)
      ctx.onRow(row, extra)
    }
    for (const out of settled) {
      if (out.status !== 'fulfilled') continue
      for (const f of out.value.failures) {
        failures.push(f)
        if (ctx.onFailure) ctx.onFailure(f)
      }
    }
    const thrown = settled.flatMap((out) => (out.status === 'rejected' ? [out.reason] : []))
    if (thrown.length > 0) throw oneError(thrown)
    for (const r of left) if (ctx.done) ctx.done.add(runKey(r.name, r.binary, r.pair))
    ran += left.length
    if (ctx.onProgress) ctx.onProgress({ phase: 'end', run: left[left.length - 1], index: ran, total, elapsedMs: Date.now() - t0 })
  }
  return { rows, failures, stopped: Boolean(ctx.stop && ctx.stop.stopped), ran }
}

/**
 * The probe of both CPU sets before a pair, as each side's columns.
 * @param {import('./run-compare.js').CompareContext} ctx
 * @param {{old: string, new: string}} setOf
 */
async function probeSets (ctx, setOf) {
  if (!ctx.probe || !ctx.placement || ctx.placement.probe.length === 0) return { old: {}, new: {} }
  // lazy: only a duet with the per-CPU speed probe on loads the probe's timing code
  const { spreadOf, setSpeed } = require('../harness/cpu-probe.js')
  const speeds = await ctx.probe.measure(ctx.placement.probe)
  if (ctx.onProbe) ctx.onProbe(speeds)
  const spread = spreadOf(speeds)
  const side = (label) => {
    const speed = setSpeed(speeds, setOf[label])
    return { ...(speed === undefined ? {} : { cpu_speed: speed }), cpu_spread: spread }
  }
  return { old: side('old'), new: side('new') }
}

/**
 * What the two sides of a pair threw (each error names its side): the one
 * error, or both messages in one error of the first's code and the larger
 * exit code.
 * @param {any[]} errors
 */
function oneError (errors) {
  if (errors.length === 1 || !errors.every((e) => e instanceof BenchrigError)) return errors[0]
  return new BenchrigError(errors[0].code, errors.map((e) => e.message).join('\n'), { exitCode: Math.max(...errors.map((e) => e.exitCode)) })
}

/**
 * True when both rows have sections and they do not overlap. Only for a
 * --cmd command's rows, whose section is its whole process: one side ran
 * alone (retried after the other ended; there is no barrier to time out
 * at). Benchmark files' sections start at the barrier and may be a few ms
 * long: on a loaded machine one can end before the other starts although
 * both met.
 */
function apart (a, b) {
  const known = (r) => typeof r.section_start === 'number' && typeof r.section_end === 'number'
  return known(a) && known(b) && (a.section_end <= b.section_start || b.section_end <= a.section_start)
}

// Sets "starved" on both rows of each configuration of a pair where one
// side's CPU share in its section fell below the other's (or "no-peer" when
// a side met no one at the barrier, or a command's processes did not overlap).
function markStarved (rows, commands) {
  let count = 0
  const byConf = new Map()
  for (const r of rows) byConf.set(r.configuration, { ...byConf.get(r.configuration), [r.binary]: r })
  for (const { old, new: nw } of byConf.values()) {
    if (!old || !nw) continue
    const side = old.barrier === 'timeout' || nw.barrier === 'timeout' || (commands && apart(old, nw)) ? 'no-peer' : starvedSide(old, nw)
    if (side) { old.starved = side; nw.starved = side; count++ }
  }
  for (const r of rows) delete r.barrier
  return count
}

module.exports = { runDuetSchedule, starvedSide, oldGetsFirst, crossoverArm, STARVED_SHARE }
