'use strict'
// Checks the files of one comparison before they are analysed together: that
// they come from one plan, which pairs are missing (a shard that never
// reported, a run cut short) and which are there twice (a shard run twice, a
// file given twice), and whether the shards ran on different hardware. A pair
// is keyed by (seed, pair) within its file, as everywhere in benchrig, so
// concatenated or sharded files never mix two pairs up.

/**
 * @typedef {{file: string, rows: Record<string, any>[],
 *   sidecar?: {plan: string, seed: number, shardCount: number, units: {filename: string, pair: number, shard: number}[]}}} Input
 * @typedef {{filename: string, seed: string, pair: number, shard?: number, why: string}} PairProblem
 */

function pairKey (filename, seed, pair) {
  return `${filename}\u0000${seed}\u0000${pair}`
}

/** The plan without its round ("<hash>.<round>" -> "<hash>"). */
function basePlan (plan) {
  return String(plan).split('.')[0]
}

/**
 * @param {Input[]} inputs
 * @returns {{plans: string[], mixedPlans: boolean, mixedCounts: boolean, shards: {plan: string, count: number, seen: number[]}[],
 *   missing: PairProblem[], duplicates: PairProblem[], hosts: {host: string, files: string[]}[],
 *   rows: object[]}}
 *   rows: every row once (a duplicate pair keeps the copy of the first file that has it)
 */
function checkShards (inputs) {
  const plans = new Set()
  // per plan (a round of --plan may use another shard count)
  const counts = new Map()
  const shardsSeen = new Map()
  const hostFiles = new Map()
  // pair -> {file, binaries: Map(binary -> configurations), configs}
  const pairs = new Map()
  const duplicates = []
  const rows = []
  inputs.forEach((input, idx) => {
    const local = new Map()
    for (const r of input.rows) {
      if (r.plan) plans.add(String(r.plan))
      const plan = String(r.plan ?? '')
      if (r.shard_count !== undefined && r.shard_count !== '') counts.set(plan, (counts.get(plan) ?? new Set()).add(Number(r.shard_count)))
      if (r.shard_index !== undefined && r.shard_index !== '') shardsSeen.set(plan, (shardsSeen.get(plan) ?? new Set()).add(Number(r.shard_index)))
      if (r.host) {
        const f = hostFiles.get(r.host) ?? new Set()
        f.add(input.file)
        hostFiles.set(r.host, f)
      }
      if (r.pair === undefined || r.pair === '') { rows.push(r); continue }
      const key = pairKey(r.filename, r.seed ?? '', Number(r.pair))
      const owner = pairs.get(key)
      if (owner && owner.input !== idx) {
        // the same pair in a second file (or the same file given twice):
        // report once per file, keep the first copy
        if (!owner.reported.has(idx)) {
          owner.reported.add(idx)
          duplicates.push({ filename: r.filename, seed: String(r.seed ?? ''), pair: Number(r.pair), why: `in ${owner.file} and ${input.file}` })
        }
        continue
      }
      let p = owner
      if (!p) {
        p = { file: input.file, input: idx, filename: r.filename, seed: String(r.seed ?? ''), pair: Number(r.pair), runs: new Map(), configs: Number(r.configs), reported: new Set() }
        pairs.set(key, p)
      }
      const runKey = `${r.binary}\u0000${r.configuration}`
      if (local.has(`${key}\u0000${runKey}`)) {
        if (!p.reported.has('self')) {
          p.reported.add('self')
          duplicates.push({ filename: r.filename, seed: p.seed, pair: p.pair, why: `twice in ${input.file}` })
        }
        continue
      }
      local.set(`${key}\u0000${runKey}`, true)
      const confs = p.runs.get(r.binary) ?? new Set()
      confs.add(r.configuration)
      p.runs.set(r.binary, confs)
      rows.push(r)
    }
  })

  const missing = []
  // Pairs that are there but not whole: a binary missing, or fewer
  // configurations than the file has (a run cut short).
  for (const p of pairs.values()) {
    for (const b of ['old', 'new']) {
      const confs = p.runs.get(b)
      if (!confs) missing.push({ filename: p.filename, seed: p.seed, pair: p.pair, why: `no ${b} run` })
      else if (Number.isFinite(p.configs) && confs.size < p.configs) missing.push({ filename: p.filename, seed: p.seed, pair: p.pair, why: `${b} run has ${confs.size} of ${p.configs} configurations` })
    }
  }
  // Pairs that are not there at all: from the split a shard recorded beside
  // its CSV when there is one, else the gaps in each file's pair numbers.
  const sidecars = new Map()
  for (const i of inputs) if (i.sidecar && !sidecars.has(i.sidecar.plan)) sidecars.set(i.sidecar.plan, i.sidecar)
  const seenNames = new Set([...pairs.values()].map((p) => `${p.filename}\u0000${p.seed}\u0000${p.pair}`))
  if (sidecars.size > 0) {
    for (const sidecar of sidecars.values()) {
      for (const u of sidecar.units) {
        if (!seenNames.has(`${u.filename}\u0000${sidecar.seed}\u0000${u.pair}`)) missing.push({ filename: u.filename, seed: String(sidecar.seed), pair: u.pair, shard: u.shard, why: `shard ${u.shard} did not report it` })
      }
    }
  } else {
    // per benchmark file and seed: whole runs of other seeds number their
    // pairs from 1 again, and one run's gap must not hide behind another's
    const byFile = new Map()
    for (const p of pairs.values()) {
      const key = `${p.filename}\u0000${p.seed}`
      const f = byFile.get(key) ?? { filename: p.filename, seed: p.seed, max: 0, have: new Set() }
      f.max = Math.max(f.max, p.pair)
      f.have.add(p.pair)
      byFile.set(key, f)
    }
    for (const f of byFile.values()) {
      for (let n = 1; n <= f.max; n++) if (!f.have.has(n)) missing.push({ filename: f.filename, seed: f.seed, pair: n, why: 'a gap in the pair numbers' })
    }
  }
  const shards = [...counts].map(([plan, c]) => ({ plan, count: [...c][0], seen: [...(shardsSeen.get(plan) ?? [])].sort((a, b) => a - b) }))
  return {
    plans: [...plans],
    mixedPlans: new Set([...plans].map(basePlan)).size > 1,
    mixedCounts: [...counts.values()].some((c) => c.size > 1),
    shards,
    missing,
    duplicates,
    hosts: [...hostFiles].map(([host, files]) => ({ host, files: [...files] })),
    rows
  }
}

/**
 * The report of a check, as lines for stderr (empty when all is well).
 * @param {ReturnType<typeof checkShards>} c
 * @param {{limit?: number}} [opts] limit: pairs named per list
 */
function describeCheck (c, { limit = 20 } = {}) {
  const lines = []
  for (const s of c.shards) {
    const absent = []
    for (let i = 0; i < s.count; i++) if (!s.seen.includes(i)) absent.push(i)
    if (absent.length > 0) lines.push(`shard(s) ${absent.join(', ')} of 0..${s.count - 1}${c.shards.length > 1 ? ` of plan ${s.plan}` : ''} not among the files`)
  }
  const list = (title, items) => {
    if (items.length === 0) return
    lines.push(`${items.length} ${title}:`)
    for (const p of items.slice(0, limit)) lines.push(`  ${p.filename} pair ${p.pair} (seed ${p.seed}): ${p.why}`)
    if (items.length > limit) lines.push(`  ... and ${items.length - limit} more`)
  }
  list('missing pair(s)', c.missing)
  list('duplicate pair(s)', c.duplicates)
  return lines
}

/**
 * Why these files may not be analysed together, or undefined when they may.
 * Whole runs (compare without --shard) always combine, whatever their plans:
 * a pair is keyed by (seed, pair), so runs of other seeds only add pairs, as
 * `cat a.csv b.csv` does. Shards do not mix with files of another plan: a
 * shard is a slice of its plan's split, its completeness is judged against
 * that split, and the plan hash is the only sign that two shards belong to
 * one comparison (a stray shard of another run may have other binaries or
 * --set). Nor do shards of one plan (round) cut into different counts.
 * @param {Input[]} inputs
 * @returns {string|undefined}
 */
function planConflict (inputs) {
  const plans = new Map()
  for (const input of inputs) {
    for (const r of input.rows) {
      const base = basePlan(r.plan ?? '')
      const p = plans.get(base) ?? { files: new Set(), seeds: new Set(), counts: new Map(), shards: new Set() }
      p.files.add(input.file)
      if (r.seed !== undefined && r.seed !== '') p.seeds.add(String(r.seed))
      if (r.shard_count !== undefined && r.shard_count !== '') {
        const round = String(r.plan ?? '')
        p.counts.set(round, (p.counts.get(round) ?? new Set()).add(Number(r.shard_count)))
        p.shards.add(Number(r.shard_index))
      }
      plans.set(base, p)
    }
  }
  const sharded = [...plans.values()].filter((p) => p.counts.size > 0)
  const splitTwice = sharded.some((p) => [...p.counts.values()].some((c) => c.size > 1))
  if (!splitTwice && (sharded.length === 0 || plans.size === 1)) return undefined
  const lines = [...plans].map(([plan, p]) => {
    const counts = [...new Set([...p.counts.values()].flatMap((c) => [...c]))]
    const what = counts.length === 0 ? 'whole run' : `shard(s) ${[...p.shards].sort((a, b) => a - b).join(', ')} of ${counts.join(' and ')}`
    return `  plan ${plan || '(none)'} (seed ${[...p.seeds].join(', ') || '?'}, ${what}): ${[...p.files].join(' ')}`
  })
  const example = [...sharded[0].files].join(' ')
  if (splitTwice) {
    return `these files hold shards of one plan split into different counts, so their pairs overlap or leave gaps:\n${lines.join('\n')}\n` +
      'give the shards of one split (run the missing ones with the same --shard I/N count)'
  }
  return `these files hold shards of more than one plan, so they cannot be checked as one comparison:\n${lines.join('\n')}\n` +
    `analyse each plan's files on their own (e.g. benchrig analyze ${example}); to add pairs to a sharded comparison, run another round of its plan ` +
    '(benchrig plan --next, then compare --plan); whole runs (compare without --shard) of other seeds combine'
}

module.exports = { checkShards, describeCheck, basePlan, planConflict }

/**
 * The machines as blocks: per shard, its host, its pairs and the median of
 * its pairs' changes (new/old - 1, over every configuration). Each pair ran
 * on one machine, so a machine's speed cancels in its ratios; what stays is
 * how the change itself differs between machines, which this table shows
 * and the pooled CI already carries as spread between pairs.
 * @param {object[]} rows checked rows
 * @returns {{round: number, shard: number|undefined, run?: string, host: string, pairs: number, change: number}[]}
 *   run: the plan of a whole run (no shard columns); each such run is a block
 */
function machineBlocks (rows) {
  const blocks = new Map()
  for (const r of rows) {
    const shard = r.shard_index === undefined || r.shard_index === '' ? undefined : Number(r.shard_index)
    // a round of --plan is another job array: its shard 0 is another machine
    const round = String(r.plan ?? '').split('.')[1] ?? ''
    // whole runs (no shard) of other plans ran at other times: a block each
    const run = shard === undefined ? basePlan(r.plan ?? '') : ''
    const key = `${round}\u0000${shard}\u0000${run}\u0000${r.host ?? ''}`
    const b = blocks.get(key) ?? { round, shard, run, host: r.host ?? '', runs: new Map() }
    const k = `${r.filename}\u0000${r.configuration}\u0000${r.seed}\u0000${r.pair}`
    const p = b.runs.get(k) ?? {}
    p[r.binary] = Number(r.rate)
    b.runs.set(k, p)
    blocks.set(key, b)
  }
  const out = []
  for (const b of blocks.values()) {
    const logs = [...b.runs.values()].filter((p) => p.old > 0 && p.new > 0).map((p) => Math.log(p.new / p.old)).sort((x, y) => x - y)
    const pairs = new Set([...b.runs.keys()].map((k) => { const [f, , seed, pair] = k.split('\u0000'); return `${f}/${seed}/${pair}` }))
    const mid = logs.length === 0 ? NaN : logs.length % 2 ? logs[(logs.length - 1) / 2] : (logs[logs.length / 2 - 1] + logs[logs.length / 2]) / 2
    out.push({ round: b.round ? Number(b.round) : 1, shard: b.shard, ...(b.run ? { run: b.run } : {}), host: b.host, pairs: pairs.size, change: (Math.exp(mid) - 1) * 100 })
  }
  return out.sort((a, b) => a.round - b.round || (a.shard ?? -1) - (b.shard ?? -1))
}

/** @param {ReturnType<typeof machineBlocks>} blocks */
function formatMachineBlocks (blocks) {
  const lines = ['', 'Machines (each shard or whole run a block; pairs never span two machines):']
  for (const b of blocks) {
    const change = Number.isFinite(b.change) ? `${b.change >= 0 ? '+' : ''}${b.change.toFixed(2)}%` : 'n/a'
    const where = b.shard === undefined && b.run ? `run of plan ${b.run}` : `shard ${b.shard ?? '-'}`
    lines.push(`  ${b.round > 1 ? `round ${b.round} ` : ''}${where}: ${b.pairs} pairs, median change ${change}  [${b.host || 'host unknown'}]`)
  }
  return lines.join('\n') + '\n'
}

module.exports.machineBlocks = machineBlocks
module.exports.formatMachineBlocks = formatMachineBlocks
