'use strict'
// The embedded engine of the history store: one SQLite file through
// better-sqlite3 12. node:sqlite would need no native module, but the driver's
// node here is 20, which has no node:sqlite (it came in 22.5, behind a flag
// until 23.4), so the store uses better-sqlite3 on every node the drivers
// support. The calls are synchronous; this module wraps them in the same
// promise-returning interface as engine-postgres.js so the store above is
// written once.
//
// Concurrency: WAL (readers never wait for the writer) and a busy timeout, so
// two writers queue instead of failing; an add is one BEGIN IMMEDIATE ..
// COMMIT, which takes the write lock at its start (a deferred BEGIN could fail
// half-way when it upgrades to a write).
const Database = require('better-sqlite3')

const BUSY_TIMEOUT_MS = 30000

/** Types of the schema's columns in this engine's dialect. */
const DIALECT = { pk: 'INTEGER PRIMARY KEY', real: 'REAL', bigint: 'INTEGER' }

/**
 * @param {string} file
 * @returns {Promise<import('./engine-postgres.js').Engine>}
 */
async function openSqlite (file) {
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS })
  db.pragma('journal_mode = WAL')
  // NORMAL is durable across a crash of the process (the WAL is synced on
  // commit checkpoints); a power cut may lose the last commits, never half of one.
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  const statements = new Map()
  const prepare = (sql) => {
    let s = statements.get(sql)
    if (!s) { s = db.prepare(sql); statements.set(sql, s) }
    return s
  }
  let insertPoint
  let insertSeries
  let claimKey
  return {
    kind: 'sqlite',
    where: file,
    dialect: DIALECT,
    async exec (sql) { db.exec(sql) },
    async all (sql, params = []) { return prepare(sql).all(...params) },
    async get (sql, params = []) { return prepare(sql).get(...params) },
    async run (sql, params = []) { prepare(sql).run(...params) },
    /** A list bound as one parameter: SQLite reads it from JSON. */
    inList (column, values, params) {
      params.push(JSON.stringify(values))
      return `${column} IN (SELECT value FROM json_each(?))`
    },
    async tx (fn) {
      if (db.inTransaction) return fn()
      db.exec('BEGIN IMMEDIATE')
      try {
        const r = await fn()
        db.exec('COMMIT')
        return r
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK')
        throw err
      }
    },
    async insertPoints (rows) {
      insertPoint ??= db.prepare('INSERT INTO points (series_id, label_id, source_id, value) VALUES (?, ?, ?, ?)')
      for (const r of rows) insertPoint.run(r.seriesId, r.labelId, r.sourceId, r.value)
    },
    async insertSeries (rows) {
      insertSeries ??= db.prepare('INSERT INTO series (file, configuration, measure, env_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
      for (const r of rows) insertSeries.run(r.file, r.configuration, r.measure, r.envId)
    },
    async claimKeys (rows) {
      claimKey ??= db.prepare('INSERT INTO measurements (key, source_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING key')
      const claimed = new Set()
      for (const r of rows) if (claimKey.get(r.key, r.sourceId)) claimed.add(r.key)
      return claimed
    },
    async close () { db.close() }
  }
}

module.exports = { openSqlite }
