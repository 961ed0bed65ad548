'use strict'
// The shared engine of the history store: PostgreSQL through `pg`. The store
// writes `?` placeholders (SQLite's); they become $1, $2 ... here. An add is
// one transaction on one connection, so a crash or a killed process leaves
// nothing of it (the server rolls back a transaction whose client is gone).
// Points go in with one INSERT .. SELECT FROM unnest(arrays) per 5,000 rows:
// one round trip instead of one per row.

/**
 * @typedef {object} Engine
 * @property {'sqlite'|'postgres'} kind
 * @property {string} where the file or the URL without its password
 * @property {{pk: string, real: string, bigint: string}} dialect
 * @property {(sql: string) => Promise<void>} exec several statements, no parameters
 * @property {(sql: string, params?: unknown[]) => Promise<any[]>} all
 * @property {(sql: string, params?: unknown[]) => Promise<any>} get
 * @property {(sql: string, params?: unknown[]) => Promise<void>} run
 * @property {(column: string, values: unknown[], params: unknown[]) => string} inList
 * @property {<T>(fn: () => Promise<T>) => Promise<T>} tx
 * @property {(rows: {seriesId: number, labelId: number, sourceId: number, value: number}[]) => Promise<void>} insertPoints
 * @property {(rows: {file: string, configuration: string, measure: string, envId: number}[]) => Promise<void>} insertSeries
 *   new series (one that exists already is left as it is)
 * @property {(rows: {key: string, sourceId: number}[]) => Promise<Set<string>>} claimKeys
 *   records measurement keys; returns those that were not stored before
 * @property {() => Promise<void>} close
 */

const DIALECT = { pk: 'SERIAL PRIMARY KEY', real: 'DOUBLE PRECISION', bigint: 'BIGINT' }
const CHUNK = 5000

/** `?` -> `$n` (the store's SQL has no `?` inside strings). */
function numbered (sql) {
  let i = 0
  return sql.replace(/\?/g, () => `$${++i}`)
}

/** The URL to print: without the password. */
function redact (url) {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return 'postgres://…'
  }
}

/**
 * @param {string} url postgres://user@host:port/db
 * @returns {Promise<Engine>}
 */
async function openPostgres (url) {
  const { Client } = require('pg') // lazy: an optional dependency: only postgres:// stores need it
  // the name shows in pg_stat_activity (the crash test finds an add in flight by it)
  const client = new Client({ connectionString: url, application_name: 'benchrig-history' })
  await client.connect()
  // a NOTICE ("relation already exists, skipping") is not for the user
  client.on('notice', () => {})
  // a server gone between queries: the next query fails with its error (an
  // unhandled 'error' event would end the process with a stack)
  client.on('error', () => {})
  const text = new Map()
  const q = (sql) => {
    let t = text.get(sql)
    if (t === undefined) { t = numbered(sql); text.set(sql, t) }
    return t
  }
  let depth = 0
  return {
    kind: 'postgres',
    where: redact(url),
    dialect: DIALECT,
    async exec (sql) { await client.query(sql) },
    async all (sql, params = []) { return (await client.query(q(sql), params)).rows },
    async get (sql, params = []) { return (await client.query(q(sql), params)).rows[0] },
    async run (sql, params = []) { await client.query(q(sql), params) },
    inList (column, values, params) {
      params.push(values)
      return `${column} = ANY(?)`
    },
    async tx (fn) {
      if (depth > 0) return fn()
      depth++
      await client.query('BEGIN')
      try {
        const r = await fn()
        await client.query('COMMIT')
        return r
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        depth--
      }
    },
    async insertPoints (rows) {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const part = rows.slice(i, i + CHUNK)
        await client.query('INSERT INTO points (series_id, label_id, source_id, value) SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::float8[])',
          [part.map((r) => r.seriesId), part.map((r) => r.labelId), part.map((r) => r.sourceId), part.map((r) => r.value)])
      }
    },
    async insertSeries (rows) {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const part = rows.slice(i, i + CHUNK)
        await client.query('INSERT INTO series (file, configuration, measure, env_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) ON CONFLICT DO NOTHING',
          [part.map((r) => r.file), part.map((r) => r.configuration), part.map((r) => r.measure), part.map((r) => r.envId)])
      }
    },
    async claimKeys (rows) {
      const claimed = new Set()
      for (let i = 0; i < rows.length; i += CHUNK) {
        const part = rows.slice(i, i + CHUNK)
        const r = await client.query('INSERT INTO measurements (key, source_id) SELECT * FROM unnest($1::text[], $2::int[]) ON CONFLICT DO NOTHING RETURNING key',
          [part.map((x) => x.key), part.map((x) => x.sourceId)])
        for (const row of r.rows) claimed.add(row.key)
      }
      return claimed
    },
    async close () { await client.end() }
  }
}

module.exports = { openPostgres, numbered, redact }
