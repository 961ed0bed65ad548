'use strict'
// The order of a series' labels: semver (node versions, package versions),
// commit order (the user's git history) or the order they were first added.
// `auto` decides only where the labels leave no doubt: all semver, or all
// commit ids; a mix (or names that are neither) asks for --order instead of
// guessing, since a wrong order makes wrong change points.
const { spawnSync } = require('node:child_process')
const { UsageError } = require('../errors.js')

const ORDERS = ['auto', 'semver', 'commit', 'added']
const SEMVER = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/
const COMMIT = /^[0-9a-f]{7,40}$/i

/** @param {string} s */
function parseSemver (s) {
  const m = SEMVER.exec(s)
  if (!m) return undefined
  return { parts: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] }
}

/** semver precedence: numbers, then a pre-release before its release. */
function compareSemver (a, b) {
  const x = /** @type {NonNullable<ReturnType<typeof parseSemver>>} */ (parseSemver(a))
  const y = /** @type {NonNullable<ReturnType<typeof parseSemver>>} */ (parseSemver(b))
  for (let i = 0; i < 3; i++) if (x.parts[i] !== y.parts[i]) return x.parts[i] - y.parts[i]
  if (x.pre === y.pre) return a < b ? -1 : a > b ? 1 : 0
  if (x.pre === undefined) return 1
  if (y.pre === undefined) return -1
  const p = x.pre.split('.')
  const q = y.pre.split('.')
  for (let i = 0; i < Math.min(p.length, q.length); i++) {
    if (p[i] === q[i]) continue
    const pn = /^\d+$/.test(p[i])
    const qn = /^\d+$/.test(q[i])
    if (pn && qn) return Number(p[i]) - Number(q[i])
    if (pn !== qn) return pn ? -1 : 1
    return p[i] < q[i] ? -1 : 1
  }
  return p.length - q.length
}

/**
 * Commit ids in history order (oldest first) from `git rev-list`.
 * @param {string} repo
 */
function gitOrder (repo) {
  const r = spawnSync('git', ['-C', repo, 'rev-list', '--topo-order', '--reverse', '--all'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  if (r.error || r.status !== 0) {
    throw new UsageError(`--order commit: cannot read the commits of ${repo} (${(r.stderr || r.error?.message || '').trim().split('\n')[0]}); give --repo DIR, a git checkout that has them`)
  }
  return r.stdout.split('\n').filter(Boolean)
}

/**
 * @param {{name: string, seq: number, pos?: number|null}[]} labels pos: a commit's git position, where stored
 * @param {{order?: string, repo?: string}} [opts]
 * @returns {{order: string, rank: Map<string, number>}} rank: 0 for the first label
 */
function orderLabels (labels, opts = {}) {
  let order = opts.order ?? 'auto'
  if (!ORDERS.includes(order)) throw new UsageError(`--order ${order}: use one of ${ORDERS.join(', ')}`)
  const names = labels.map((l) => l.name)
  if (order === 'auto') {
    if (names.every((n) => parseSemver(n))) order = 'semver'
    else if (names.every((n) => COMMIT.test(n))) order = 'commit'
    else {
      const sv = names.filter((n) => parseSemver(n)).slice(0, 2)
      const other = names.filter((n) => !parseSemver(n)).slice(0, 2)
      throw new UsageError(`the labels cannot be ordered by themselves (${[...sv, ...other].map((n) => `"${n}"`).join(', ')}${names.length > 4 ? ', …' : ''}: ${sv.length ? 'versions mixed with other names' : 'neither versions nor commit ids'}); give --order semver, --order commit (with --repo DIR) or --order added`, 'BENCHRIG_ERR_LABEL_ORDER')
    }
  }
  let sorted
  if (order === 'semver') {
    const bad = labels.find((l) => !parseSemver(l.name))
    if (bad) throw new UsageError(`--order semver: label "${bad.name}" is not a version; give --order added or commit`, 'BENCHRIG_ERR_LABEL_ORDER')
    sorted = [...labels].sort((a, b) => compareSemver(a.name, b.name))
  } else if (order === 'commit' && labels.every((l) => Number.isInteger(l.pos) && l.pos > 0)) {
    // the git position stored with each commit (lib/history/git-label.js):
    // git order from any folder, no checkout needed
    sorted = [...labels].sort((a, b) => /** @type {number} */ (a.pos) - /** @type {number} */ (b.pos) || a.seq - b.seq)
  } else if (order === 'commit') {
    const commits = gitOrder(opts.repo ?? process.cwd())
    const position = (name) => {
      const lower = name.toLowerCase()
      const i = commits.findIndex((c) => c.startsWith(lower))
      if (i < 0) throw new UsageError(`--order commit: label "${name}" is not a commit of ${opts.repo ?? process.cwd()}; give --repo DIR, the checkout it comes from`, 'BENCHRIG_ERR_LABEL_ORDER')
      return i
    }
    const pos = new Map(labels.map((l) => [l.name, position(l.name)]))
    sorted = [...labels].sort((a, b) => /** @type {number} */ (pos.get(a.name)) - /** @type {number} */ (pos.get(b.name)))
  } else {
    sorted = [...labels].sort((a, b) => a.seq - b.seq)
  }
  return { order, rank: new Map(sorted.map((l, i) => [l.name, i])) }
}

module.exports = { orderLabels, compareSemver, parseSemver, ORDERS }
