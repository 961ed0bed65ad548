'use strict'
// A history store checked before a command does any work (compare builds
// worktrees and installs before its sinks open): opened, migrated and closed,
// so a corrupt or unreachable store is one error before anything runs and no
// result file is started.
const { openHistory } = require('./index.js')

/**
 * @param {string} db --history
 * @param {{root?: string}} [opts]
 */
async function checkStore (db, opts = {}) {
  const h = await openHistory(db, { root: opts.root, flag: '--history' })
  await h.close()
}

module.exports = { checkStore }
