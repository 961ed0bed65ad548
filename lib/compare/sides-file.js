'use strict'
// FILE.sides.json beside every compare --output FILE: what the rows were
// measured with (each side's binary sha256, a ref's commit, a package's
// version; the seed and the plan), so that --resume FILE continues the same
// comparison and refuses another one. Without it a resumed file could hold
// two binaries' rows under "new" (the CSV's rows do not say which binary ran).
// Written atomically (a temporary file, then rename) before the first row.
const fs = require('node:fs')
const { UsageError } = require('../errors.js')

const SCHEMA = 'benchrig-sides/1'

/** @param {string} csvFile */
function sidesPath (csvFile) {
  return `${csvFile}.sides.json`
}

/**
 * @typedef {{path: string, version: string|null, sha256: string, binary_sha256?: string,
 *   ref?: string, commit?: string, package?: string, spec?: string, package_version?: string}} SideIdentity
 * @typedef {{seed: number, plan: {id: string, categories: string[], set: string[],
 *   batches: {files: string[], runs: number, firstPair: number}[]}, old: SideIdentity, new: SideIdentity,
 *   source?: string}} Identity
 */

/** The fields of a side's metadata that say what ran (not where or how it was printed). */
const SIDE_FIELDS = ['path', 'version', 'sha256', 'binary_sha256', 'ref', 'commit', 'package', 'spec', 'package_version']

/**
 * The identity of a comparison about to run.
 * @param {{seed: number, plan: import('./plan.js').Plan, categories: string[], args: string[],
 *   old: Record<string, any>, new: Record<string, any>}} p old/new: the sides' describe()
 * @returns {Identity}
 */
function identityOf (p) {
  const side = (/** @type {Record<string, any>} */ d) => /** @type {SideIdentity} */ (Object.fromEntries(SIDE_FIELDS.filter((k) => d[k] !== undefined).map((k) => [k, d[k]])))
  return {
    seed: p.seed,
    plan: {
      id: p.plan.id,
      categories: p.categories,
      set: p.args,
      batches: p.plan.batches.map((b) => ({ files: b.files.map((f) => f.name), runs: b.runs, firstPair: b.firstPair }))
    },
    old: side(p.old),
    new: side(p.new)
  }
}

/**
 * @param {string} csvFile
 * @param {Identity} identity
 */
function writeSidesFile (csvFile, identity) {
  const target = sidesPath(csvFile)
  const tmp = `${target}.${process.pid}.tmp`
  try {
    fs.writeFileSync(tmp, JSON.stringify({ schema: SCHEMA, ...identity }, null, 1) + '\n')
    fs.renameSync(tmp, target)
  } catch (err) {
    fs.rmSync(tmp, { force: true })
    throw new UsageError(`--output ${csvFile}: cannot write ${target} beside it (${err.code || err.message}); give a file in a writable folder`)
  }
}

/**
 * What the interrupted run recorded: FILE.sides.json, else (files written
 * before it existed) the metadata record of its --ndjson file, else undefined.
 * @param {string} csvFile
 * @param {string} [ndjsonFile]
 * @returns {Identity|undefined}
 */
function readIdentity (csvFile, ndjsonFile) {
  const p = sidesPath(csvFile)
  if (fs.existsSync(p)) {
    let body
    try {
      body = JSON.parse(fs.readFileSync(p, 'utf8'))
    } catch (err) {
      throw new UsageError(`--resume ${csvFile}: ${p} is not valid JSON (${err.message}); it records the sides the rows were measured with: restore it, or start a new --output`)
    }
    if (!body || body.schema !== SCHEMA || !body.old || !body.new) throw new UsageError(`--resume ${csvFile}: ${p} is not a sides record written by compare --output (schema ${SCHEMA}); restore it, or start a new --output`)
    return { ...body, source: p }
  }
  if (!ndjsonFile) return undefined
  let first
  try {
    first = fs.readFileSync(ndjsonFile, 'utf8').split('\n', 1)[0]
  } catch {
    return undefined // no NDJSON yet
  }
  let meta
  try {
    meta = JSON.parse(first)
  } catch {
    throw new UsageError(`--ndjson ${ndjsonFile}: its first line is not the JSON metadata record of a compare run; give the --ndjson file of the interrupted run`)
  }
  if (!meta || meta.type !== 'meta' || typeof meta.old?.sha256 !== 'string' || typeof meta.new?.sha256 !== 'string') return undefined
  // the NDJSON's plan is its id alone: only the sides and the seed are checked
  return { seed: meta.seed, plan: undefined, old: meta.old, new: meta.new, source: ndjsonFile }
}

const short = (/** @type {string|undefined} */ h) => (h ? h.slice(0, 12) : 'none')

/** How a side differs from the recorded one, in words (empty when it does not). */
function sideDifferences (which, now, was) {
  if (now.sha256 === was.sha256) return []
  const out = []
  if (now.commit !== was.commit) {
    out.push(`the ${which} side's commit is ${now.commit ? `${short(now.commit)} (${now.ref})` : 'none (not a git ref)'}, the file's ${was.commit ? `${short(was.commit)} (${was.ref})` : 'none (not a git ref)'}`)
  }
  if (now.package_version !== was.package_version || now.package !== was.package) {
    const pkg = (/** @type {SideIdentity} */ s) => (s.package ? `${s.package}@${s.package_version}` : 'none')
    out.push(`the ${which} side's package is ${pkg(now)}, the file's ${pkg(was)}`)
  }
  const bin = (/** @type {SideIdentity} */ s) => s.binary_sha256 ?? s.sha256
  // a ref or package side's sha256 is of its binary and its commit or version:
  // the binary differs only when its own hash does
  if (out.length === 0 || bin(now) !== bin(was)) {
    out.push(`the ${which} binary is ${now.path} (sha256 ${short(bin(now))}), the file's ${was.path} (sha256 ${short(bin(was))})`)
  }
  return out
}

const list = (/** @type {unknown[]} */ a) => (a.length ? a.join(' ') : '(none)')

/**
 * How the plan differs from the recorded one, in words. Its id hashes the
 * sides too: when they differ, only the plan's own parts are named.
 */
function planDifferences (now, was, sidesDiffer) {
  if (!was || now.id === was.id) return []
  const out = []
  if (list(now.categories) !== list(was.categories)) out.push(`the categories are ${list(now.categories)}, the file's ${list(was.categories)}`)
  if (list(now.set) !== list(was.set)) out.push(`--set is ${list(now.set)}, the file's ${list(was.set)}`)
  const files = (/** @type {{files: string[]}[]} */ b) => b.flatMap((x) => x.files)
  const added = files(now.batches).filter((f) => !files(was.batches).includes(f))
  const gone = files(was.batches).filter((f) => !files(now.batches).includes(f))
  if (added.length || gone.length) out.push(`the benchmark files differ (${[...added.map((f) => `+${f}`), ...gone.map((f) => `-${f}`)].slice(0, 4).join(' ')}${added.length + gone.length > 4 ? ' ...' : ''})`)
  const runs = (/** @type {{runs: number, firstPair: number}[]} */ b) => b.map((x) => `${x.runs}@${x.firstPair}`).join(' ')
  if (out.length === 0 && runs(now.batches) !== runs(was.batches)) {
    const pairs = (/** @type {{runs: number}[]} */ b) => [...new Set(b.map((x) => x.runs))].join('/')
    out.push(`the pairs per file are ${pairs(now.batches)}, the file's ${pairs(was.batches)} (--runs, or the --plan round)`)
  }
  if (out.length === 0 && !sidesDiffer) out.push(`the plan is ${now.id}, the file's ${was.id}`)
  return out
}

/**
 * Refuses to continue a file with other sides, another seed or another plan
 * than its rows were measured with: one error naming every difference.
 * @param {string} csvFile
 * @param {Identity} now
 * @param {Identity} was readIdentity()
 */
function checkIdentity (csvFile, now, was) {
  const sides = [...sideDifferences('old', now.old, was.old), ...sideDifferences('new', now.new, was.new)]
  const diffs = [
    ...sides,
    ...(was.seed !== undefined && Number(was.seed) !== now.seed ? [`the seed is ${now.seed}, the file's ${was.seed}`] : []),
    ...planDifferences(now.plan, was.plan, sides.length > 0)
  ]
  if (diffs.length === 0) return
  throw new UsageError(`--resume ${csvFile}: not the comparison its rows were measured in (recorded in ${was.source}): ${diffs.join('; ')}; resume with the sides and flags it was started with, or start a new --output so that rows of two comparisons do not mix`, 'BENCHRIG_ERR_RESUME_MISMATCH')
}

module.exports = { identityOf, writeSidesFile, readIdentity, checkIdentity, sidesPath, SIDES_SCHEMA: SCHEMA }
