'use strict'
// The differential self-time table of `compare --profile`: two V8 CPU
// profiles (.cpuprofile, as node --cpu-prof writes them) of one
// configuration, old and new, reduced to each function's share of the
// profile's self time, and the functions whose share grew most first.
// Shares, not milliseconds: the two runs need not take the same time, and a
// function that takes the same time in a slower run has a smaller share.
// Pure: profiles in, rows and text out.
const path = require('node:path')
const { fileURLToPath } = require('node:url')

/**
 * @typedef {{nodes: {id: number, callFrame: {functionName: string, url: string, lineNumber: number, columnNumber: number}}[],
 *   samples?: number[], timeDeltas?: number[]}} CpuProfile
 * @typedef {{name: string, location: string, oldShare: number, newShare: number, change: number,
 *   oldMs: number, newMs: number}} ProfileRow shares in % of the profile's self time; change in points
 */

// Not work of the program: the process waiting.
const LEFT_OUT = new Set(['(idle)'])

/**
 * A script's location as the table shows it: files relative to `base` (the
 * side's benchmark directory, so that two worktrees' copies of one file have
 * one name), built-in modules as node names them.
 * @param {string} url
 * @param {string} [base]
 */
function displayUrl (url, base) {
  if (!url) return ''
  let file
  if (url.startsWith('file://')) file = fileURLToPath(url)
  else if (path.isAbsolute(url)) file = url
  if (file === undefined) return url
  if (!base) return file
  return path.relative(base, file).split(path.sep).join('/')
}

/**
 * Self time (µs) per function (name + location) of one profile: every sample
 * counts one sampling interval (the median of the profile's deltas). The
 * deltas themselves are not summed: on a loaded machine the profiler's own
 * thread waits too, and a 30 ms gap in node's start-up would outweigh 30
 * samples of the measured section.
 * @param {CpuProfile} profile
 * @param {string} [base] see displayUrl
 * @returns {{byKey: Map<string, {name: string, location: string, us: number}>, totalUs: number}}
 */
function selfTimes (profile, base) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  /** @type {Map<string, {name: string, location: string, us: number}>} */
  const byKey = new Map()
  let totalUs = 0
  const sorted = deltas.filter((d) => d > 0).sort((x, y) => x - y)
  const interval = sorted.length > 0 ? sorted[sorted.length >> 1] : 1000
  for (let i = 0; i < samples.length; i++) {
    const node = nodes.get(samples[i])
    if (!node) continue
    const cf = node.callFrame
    if (LEFT_OUT.has(cf.functionName)) continue
    const us = interval
    const url = displayUrl(cf.url, base)
    const location = url ? `${url}:${cf.lineNumber + 1}:${cf.columnNumber + 1}` : ''
    const name = cf.functionName || '(anonymous)'
    const key = `${name}\0${location}`
    const entry = byKey.get(key) ?? { name, location, us: 0 }
    entry.us += us
    byKey.set(key, entry)
    totalUs += us
  }
  return { byKey, totalUs }
}

/**
 * The functions of two profiles by how much their share of self time grew,
 * largest growth first.
 * @param {CpuProfile} oldProfile
 * @param {CpuProfile} newProfile
 * @param {{oldBase?: string, newBase?: string, top?: number}} [opts]
 * @returns {ProfileRow[]}
 */
function diffProfiles (oldProfile, newProfile, opts = {}) {
  const a = selfTimes(oldProfile, opts.oldBase)
  const b = selfTimes(newProfile, opts.newBase)
  const keys = new Set([...a.byKey.keys(), ...b.byKey.keys()])
  const share = (t, key) => (t.totalUs > 0 ? 100 * (t.byKey.get(key)?.us ?? 0) / t.totalUs : 0)
  const rows = [...keys].map((key) => {
    const e = b.byKey.get(key) ?? a.byKey.get(key)
    const oldShare = share(a, key)
    const newShare = share(b, key)
    return { name: e.name, location: e.location, oldShare, newShare, change: newShare - oldShare, oldMs: (a.byKey.get(key)?.us ?? 0) / 1000, newMs: (b.byKey.get(key)?.us ?? 0) / 1000 }
  })
  rows.sort((x, y) => y.change - x.change || y.newShare - x.newShare || x.name.localeCompare(y.name))
  return rows.slice(0, opts.top ?? 10)
}

const pct = (x) => `${x.toFixed(1)}%`
const points = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`

/**
 * @param {{filename: string, configuration: string, files: {old: string, new: string}, rows: ProfileRow[]}[]} tables
 * @param {'text'|'markdown'} format
 */
function renderProfiles (tables, format) {
  if (tables.length === 0) return ''
  const out = []
  for (const t of tables) {
    const title = `${t.filename}${t.configuration ? ' ' + t.configuration : ''}`
    const head = ['function', 'location', 'old self', 'new self', 'change (points)']
    const body = t.rows.map((r) => [r.name, r.location || '(native)', pct(r.oldShare), pct(r.newShare), points(r.change)])
    if (format === 'markdown') {
      out.push(`### Where the time went: ${title}`, '')
      out.push(`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i >= 2 ? '---:' : '---')).join('|')}|`)
      for (const r of body) out.push(`| ${r.map((c, i) => (i < 2 ? '`' + c.replace(/\|/g, '\\|') + '`' : c)).join(' | ')} |`)
      out.push('', `Profiles (Chrome DevTools, Performance > Load profile): \`${t.files.old}\`, \`${t.files.new}\``, '')
    } else {
      out.push(`where the time went: ${title}`)
      const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)))
      const line = (r) => '  ' + r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd()
      out.push(line(head), ...body.map(line))
      out.push(`  self time as a share of each profile; profiles: ${t.files.old}, ${t.files.new}`, '')
    }
  }
  return out.join('\n') + '\n'
}

module.exports = { diffProfiles, selfTimes, renderProfiles, displayUrl }
