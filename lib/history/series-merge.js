'use strict'
// Joins what stores of schema version 2 split (the fix of migration 3):
//  1. a commit stored under a short id (bisect's 12 characters) and its full
//     id (compare's 40): the short label's points move to the full one;
//  2. a series of commit labels without the node binary in its fingerprint
//     (bisect --refs left it out) and the series of the same benchmark on
//     the same machine with it (compare --old-ref/--new-ref): one series;
//  3. a series without any fingerprint (a CSV added without one) and the one
//     series of the same benchmark that has one: one series.
// Each join happens only where exactly one target fits; anything else stays
// as it was (and `history list` shows it).

const COMMIT = /^[0-9a-f]{7,40}$/i
const MACHINE = ['cpu', 'kernel', 'governor', 'v8_flags', 'host']

/** @param {import('./engine-postgres.js').Engine} e */
async function mergeShortCommits (e) {
  const labels = await e.all('SELECT id, name FROM labels')
  const full = labels.filter((l) => /^[0-9a-f]{40}$/i.test(l.name))
  for (const short of labels.filter((l) => COMMIT.test(l.name) && l.name.length < 40)) {
    const lower = short.name.toLowerCase()
    const targets = full.filter((l) => l.name.toLowerCase().startsWith(lower))
    if (targets.length !== 1) continue
    await e.run('UPDATE points SET label_id = ? WHERE label_id = ?', [targets[0].id, short.id])
    await e.run('DELETE FROM labels WHERE id = ?', [short.id])
  }
}

/** @param {import('./engine-postgres.js').Engine} e */
async function mergeSeries (e) {
  const rows = await e.all(`SELECT s.id, s.file, s.configuration, s.measure, v.cpu, v.kernel, v.governor, v.node_version, v.node_sha256, v.v8_flags, v.host
    FROM series s JOIN envs v ON v.id = s.env_id`)
  const labelsOf = new Map()
  for (const p of await e.all('SELECT DISTINCT p.series_id, l.name FROM points p JOIN labels l ON l.id = p.label_id')) {
    if (!labelsOf.has(p.series_id)) labelsOf.set(p.series_id, [])
    labelsOf.get(p.series_id).push(p.name)
  }
  const byBench = new Map()
  for (const s of rows) {
    const k = `${s.file}\0${s.configuration}\0${s.measure}`
    if (!byBench.has(k)) byBench.set(k, [])
    byBench.get(k).push(s)
  }
  const empty = (s) => MACHINE.every((f) => s[f] === '') && s.node_version === '' && s.node_sha256 === ''
  const join = async (from, to) => {
    await e.run('UPDATE points SET series_id = ? WHERE series_id = ?', [to.id, from.id])
    await e.run('DELETE FROM series WHERE id = ?', [from.id])
  }
  for (const group of byBench.values()) {
    if (group.length < 2) continue
    const gone = new Set()
    for (const s of group) {
      if (empty(s) || s.node_version !== '' || s.node_sha256 !== '') continue
      const labels = labelsOf.get(s.id) ?? []
      if (labels.length === 0 || !labels.every((l) => COMMIT.test(l))) continue
      const targets = group.filter((t) => t !== s && !gone.has(t.id) && t.node_version !== '' && MACHINE.every((f) => t[f] === s[f]))
      if (targets.length !== 1) continue
      await join(s, targets[0])
      gone.add(s.id)
    }
    for (const s of group) {
      if (!empty(s)) continue
      const targets = group.filter((t) => t !== s && !gone.has(t.id) && !empty(t))
      if (targets.length !== 1) continue
      await join(s, targets[0])
      gone.add(s.id)
    }
  }
}

/** @param {import('./engine-postgres.js').Engine} engine */
async function mergeSplitSeries (engine) {
  await mergeShortCommits(engine)
  await mergeSeries(engine)
}

module.exports = { mergeSplitSeries }
