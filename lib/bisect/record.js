'use strict'
// Every comparison of a bisect goes into the history store (--history DB):
// the good end's rows under its label, the probe's (or the bad end's) under
// its own, with this machine's environment. Where the candidates are
// binaries (--node, --binaries) the node version and binary hash leave the
// environment: the label names the binary, so one configuration's
// measurements across the candidates form one series. Where they are commits
// (--refs) all run on this node, which stays in the environment as compare
// --old-ref/--new-ref keeps it: bisect and compare then add to one series.
const { localEnv } = require('../history/fingerprint.js')

/**
 * The environment of a bisect's rows.
 * @param {'binaries'|'refs'} kind
 */
function bisectEnv (kind) {
  return kind === 'refs'
    ? localEnv({ nodeVersion: process.version, execPath: process.execPath })
    : { ...localEnv(), nodeVersion: '', nodeSha256: '' }
}

/**
 * @param {{add: (inputs: object[], opts: object) => Promise<{added: number}>}} history an open store
 * @param {object[]} rows compare rows (binary old|new, filename, configuration, rate, measure)
 * @param {{old: {label: string, display?: string, pos?: number}, new: {label: string, display?: string, pos?: number}, source: string, env?: object}} labels
 *   the two candidates (label, display name, git position); source names the batch; env: bisectEnv()
 * @returns {Promise<number>} points added (0 when these very rows were added before)
 */
async function recordComparison (history, rows, labels) {
  const env = labels.env ?? bisectEnv('binaries')
  const info = (c) => ({ label: c.label, ...(c.display ? { display: c.display } : {}), ...(Number.isInteger(c.pos) ? { pos: c.pos } : {}) })
  const records = rows
    .filter((r) => Number.isFinite(Number(r.rate)))
    .map((r) => ({
      file: r.filename,
      configuration: r.configuration ?? '',
      measure: r.measure ?? 'wall',
      value: Number(r.rate),
      ...info(r.binary === 'old' ? labels.old : labels.new),
      env
    }))
  if (records.length === 0) return 0
  const res = await history.add(records, { source: labels.source })
  return res.added
}

module.exports = { recordComparison, bisectEnv }
