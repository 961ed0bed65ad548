'use strict'
// Every comparison of a bisect goes into the history store (--history DB):
// the good end's rows under its label, the probe's (or the bad end's) under
// its own, with this machine's environment. The node version and binary hash
// are left out of the environment: the label already names the binary (a
// release, a build), so one configuration's measurements across the
// candidates form one series, as `history changes` and the report read it.
const { localEnv } = require('../history/fingerprint.js')

/**
 * @param {{add: (inputs: object[], opts: object) => Promise<{added: number}>}} history an open store
 * @param {object[]} rows compare rows (binary old|new, filename, configuration, rate, measure)
 * @param {{old: string, new: string, source: string}} labels the two candidates' labels; source names the batch
 * @returns {Promise<number>} points added (0 when these very rows were added before)
 */
async function recordComparison (history, rows, labels) {
  const env = { ...localEnv(), nodeVersion: '', nodeSha256: '' }
  const records = rows
    .filter((r) => Number.isFinite(Number(r.rate)))
    .map((r) => ({
      file: r.filename,
      configuration: r.configuration ?? '',
      measure: r.measure ?? 'wall',
      value: Number(r.rate),
      label: r.binary === 'old' ? labels.old : labels.new,
      env
    }))
  if (records.length === 0) return 0
  const res = await history.add(records, { source: labels.source })
  return res.added
}

module.exports = { recordComparison }
