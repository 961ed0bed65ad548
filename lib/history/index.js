'use strict'
// The history store: every result benchrig writes, kept by benchmark file,
// configuration, measure, environment fingerprint and label, in one schema
// over two engines (SQLite by default, PostgreSQL when shared).
//
//   const h = await openHistory(dbSpec)   // path | postgres://… | undefined
//   await h.add(paths | records, { label })   -> { added, skipped, sources }
//   await h.series(filter)   -> [{ key, points: [{ label, order, values }] }]
//   await h.changes(filter)  -> [{ key, points, changes, weak }]
//   await h.close()
//
// dbSpec undefined: $BENCHRIG_DB, else .benchrig/history.sqlite in the
// benchmark directory (opts.root, default the cwd).
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { migrate } = require('./schema.js')
const { readResultFile } = require('./ingest.js')
const { seriesEnv, FIELDS } = require('./fingerprint.js')
const { orderLabels } = require('./label-order.js')
const { detectGroupChanges } = require('./changepoint.js')
const { UsageError, BenchrigError } = require('../errors.js')

const isPostgres = (spec) => /^postgres(ql)?:\/\//i.test(spec)

/**
 * Where the store is: the spec given, $BENCHRIG_DB, or the default file.
 * @param {string|undefined} spec
 * @param {{root?: string, env?: NodeJS.ProcessEnv}} [opts]
 */
function resolveDbSpec (spec, opts = {}) {
  const env = opts.env ?? process.env
  if (spec !== undefined && spec !== '') return spec
  if (env.BENCHRIG_DB) return env.BENCHRIG_DB
  return path.join(opts.root ?? process.cwd(), '.benchrig', 'history.sqlite')
}

/**
 * @param {string} [dbSpec]
 * @param {{root?: string, env?: NodeJS.ProcessEnv, flag?: string}} [opts] flag: the option that named
 *   the store, for messages (default --db)
 * @returns {Promise<History>}
 */
async function openHistory (dbSpec, opts = {}) {
  const spec = resolveDbSpec(dbSpec, opts)
  const flag = opts.flag ?? '--db'
  let engine
  if (isPostgres(spec)) {
    try {
      engine = await require('./engine-postgres.js').openPostgres(spec) // lazy: only postgres:// stores load pg
    } catch (err) {
      // lazy: only postgres:// stores load pg
      throw new BenchrigError('BENCHRIG_ERR_HISTORY_DB', `${flag} ${require('./engine-postgres.js').redact(spec)}: cannot connect (${err.code || err.message}); start the server (scripts/postgres-local.sh start) or give another --db`, { exitCode: 2, cause: err })
    }
  } else {
    const file = path.resolve(spec)
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      engine = await require('./engine-sqlite.js').openSqlite(file) // lazy: only SQLite stores load node:sqlite
    } catch (err) {
      if (err.code === 'SQLITE_NOTADB') throw new BenchrigError('BENCHRIG_ERR_HISTORY_DB', `${flag} ${spec}: not a SQLite database; give a history store file or a new path`, { exitCode: 2 })
      throw new BenchrigError('BENCHRIG_ERR_HISTORY_DB', `${flag} ${spec}: cannot open it as a history store (${err.code || err.message}); give a writable file path or a postgres:// URL`, { exitCode: 2, cause: err })
    }
  }
  try {
    await migrate(engine)
  } catch (err) {
    await engine.close()
    throw err
  }
  return new History(engine)
}

/** @typedef {import('./ingest.js').HistoryRecord} HistoryRecord */

/**
 * @typedef {object} SeriesFilter
 * @property {string} [file] a benchmark file, or a category (every file under it)
 * @property {string} [configuration] a part of the configuration string
 * @property {string} [measure]
 * @property {string} [host]
 * @property {string} [fingerprint] the env hash of a series
 * @property {string} [from] first label (in label order)
 * @property {string} [to] last label
 * @property {string} [order] auto | semver | commit | added
 * @property {string} [repo] the git checkout for --order commit
 */

class History {
  #engine

  /** @param {import('./engine-postgres.js').Engine} engine */
  constructor (engine) {
    this.#engine = engine
  }

  get kind () { return this.#engine.kind }
  get where () { return this.#engine.where }

  /**
   * Adds result files (paths) or records in one transaction: all or nothing.
   * A source already in the store (same bytes) adds nothing.
   * @param {(string|HistoryRecord)[]} inputs file paths, or records
   * @param {{label?: string, runner?: string, source?: string, now?: () => Date, fingerprint?: string, meta?: object, resolveLabel?: (name: string) => import('./git-label.js').LabelInfo|undefined}} [opts] source: the name of a batch of records;
   *   resolveLabel: what a label name the store does not hold stands for (a git ref's commit);
   *   fingerprint: the machine whose series rows without one (a CSV) join;
   *   runner: the files are that runner's output (lib/runners/);
   *   meta: what the source's "meta" column keeps of it (compare: the CPU probe's summary)
   * A measurement already stored from another source (a compare CSV and its
   * NDJSON sidecar; a resumed CSV added again) is not added twice: it counts
   * in `skipped` and in the source's `duplicates`.
   * @returns {Promise<{added: number, skipped: number, sources: {path: string, kind: string, added: number, skipped: boolean, duplicates?: number, machine?: object}[]}>}
   */
  async add (inputs, opts = {}) {
    const batches = readInputs(inputs, opts)
    const e = this.#engine
    const now = (opts.now ?? (() => new Date()))().toISOString()
    return e.tx(async () => {
      await this.#resolveLabels(batches, opts.resolveLabel)
      const ids = { env: new Map(), label: new Map(), series: new Map() }
      const out = { added: 0, skipped: 0, sources: [] }
      for (const b of batches) {
        const known = await e.get('SELECT id FROM sources WHERE sha256 = ?', [b.sha256])
        const row = known ? undefined : await e.get('INSERT INTO sources (sha256, path, kind, added_at, rows_added, meta) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING RETURNING id', [b.sha256, b.path, b.kind, now, b.records.length, b.meta === undefined ? null : JSON.stringify(b.meta)])
        if (!row) {
          out.skipped += b.records.length
          out.sources.push({ path: b.path, kind: b.kind, added: 0, skipped: true })
          continue
        }
        const machine = await this.#joinMachine(b, opts.fingerprint)
        const records = await this.#newMeasurements(b.records, row.id)
        const duplicates = b.records.length - records.length
        if (duplicates > 0) {
          await e.run('UPDATE sources SET rows_added = ? WHERE id = ?', [records.length, row.id])
          out.skipped += duplicates
        }
        // ids first (envs and labels are few; series in bulk), then the points
        const keyed = []
        for (const r of records) {
          const label = /** @type {string} */ (r.label)
          const { env, hash } = seriesEnv(r.env, label)
          keyed.push({ r, envId: await this.#envId(env, hash, ids.env), labelId: await this.#labelId(r, ids.label) })
        }
        await this.#seriesIds(keyed, ids.series)
        const points = keyed.map((k) => ({ seriesId: ids.series.get(seriesKey(k.r.file, k.r.configuration, k.r.measure, k.envId)), labelId: k.labelId, sourceId: row.id, value: k.r.value }))
        await e.insertPoints(points)
        out.added += points.length
        out.sources.push({ path: b.path, kind: b.kind, added: points.length, skipped: false, ...(duplicates > 0 ? { duplicates } : {}), ...(machine ? { machine } : {}) })
      }
      return out
    })
  }

  /**
   * The records whose measurement (HistoryRecord.key) the store does not hold
   * yet, claiming their keys for this source; records without a key (formats
   * that carry no seed, pair and start) all count as new.
   * @param {HistoryRecord[]} records
   * @param {number} sourceId
   */
  async #newMeasurements (records, sourceId) {
    const keys = [...new Set(records.filter((r) => r.key).map((r) => /** @type {string} */ (r.key)))]
    if (keys.length === 0) return records
    const claimed = await this.#engine.claimKeys(keys.map((key) => ({ key, sourceId })))
    return records.filter((r) => {
      if (!r.key) return true
      if (!claimed.has(r.key)) return false
      claimed.delete(r.key) // the same measurement twice in one file: once
      return true
    })
  }

  async #envId (env, hash, cache) {
    let id = cache.get(hash)
    if (id !== undefined) return id
    const e = this.#engine
    const row = await e.get('INSERT INTO envs (hash, cpu, kernel, governor, node_version, node_sha256, v8_flags, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING RETURNING id',
      [hash, env.cpu, env.kernel, env.governor, env.nodeVersion, env.nodeSha256, env.v8Flags, env.host])
    id = row ? row.id : (await e.get('SELECT id FROM envs WHERE hash = ?', [hash])).id
    cache.set(hash, id)
    return id
  }

  /**
   * A label's id; a display name or git position the record brings is kept
   * (the latest display wins: a commit tagged since shows its tag).
   * @param {HistoryRecord} r
   * @param {Map<string, number>} cache
   */
  async #labelId (r, cache) {
    const name = /** @type {string} */ (r.label)
    let id = cache.get(name)
    if (id !== undefined) return id
    const e = this.#engine
    const display = r.display ?? null
    const pos = Number.isInteger(r.pos) ? r.pos : null
    const row = await e.get(`INSERT INTO labels (name, seq, display, pos) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM labels), ?, ?)
      ON CONFLICT (name) DO UPDATE SET display = COALESCE(excluded.display, labels.display), pos = COALESCE(excluded.pos, labels.pos) RETURNING id`, [name, display, pos])
    id = row.id
    cache.set(name, id)
    return id
  }

  /**
   * A file that carries no machine fingerprint (a CSV) joins a machine's
   * series: the one given (--fingerprint, a hash or its first 8+ characters),
   * else the one machine the store holds series of these benchmarks for.
   * Several such machines, or none: the rows keep no fingerprint and the
   * answer names the candidates.
   * @param {{path: string, records: HistoryRecord[]}} batch
   * @param {string} [given]
   * @returns {Promise<{joined?: string, how?: 'given'|'known', host?: string, nodeVersion?: string, candidates?: string[]}|undefined>}
   */
  async #joinMachine (batch, given) {
    const bare = batch.records.filter((r) => Object.values(r.env ?? {}).every((v) => v === undefined || v === null || v === ''))
    if (bare.length === 0) return undefined
    const e = this.#engine
    const envOf = (v) => ({ cpu: v.cpu, kernel: v.kernel, governor: v.governor, nodeVersion: v.node_version, nodeSha256: v.node_sha256, v8Flags: v.v8_flags, host: v.host })
    let env
    /** @type {'given'|'known'} */
    let how
    if (given !== undefined) {
      const found = await e.all('SELECT * FROM envs WHERE substr(hash, 1, ?) = ?', [given.length, given])
      if (given.length < 8 || found.length !== 1) {
        const known = (await e.all("SELECT hash, host FROM envs WHERE host <> '' ORDER BY id")).map((v) => `${v.hash.slice(0, 8)} (${v.host})`)
        throw new UsageError(`--fingerprint ${given}: ${given.length < 8 ? 'give at least its first 8 characters' : found.length === 0 ? 'no such fingerprint in the store' : 'more than one fingerprint starts so'}; the store holds ${known.join(', ') || 'none'} ("benchrig history show" prints them after #)`, 'BENCHRIG_ERR_HISTORY_INPUT')
      }
      env = found[0]
      how = 'given'
    } else {
      const files = [...new Set(bare.map((r) => r.file))]
      const wanted = new Set(bare.map((r) => `${r.file}\0${r.configuration}\0${r.measure}`))
      const byHash = new Map()
      for (let i = 0; i < files.length; i += 500) {
        const params = []
        const rows = await e.all(`SELECT s.file, s.configuration, s.measure, v.* FROM series s JOIN envs v ON v.id = s.env_id WHERE v.host <> '' AND ${e.inList('s.file', files.slice(i, i + 500), params)}`, params)
        for (const r of rows) if (wanted.has(`${r.file}\0${r.configuration}\0${r.measure}`)) byHash.set(r.hash, r)
      }
      if (byHash.size !== 1) return { candidates: [...byHash.values()].map((v) => `${v.hash.slice(0, 8)} (${v.host}${v.node_version ? ', node ' + v.node_version : ''})`) }
      env = [...byHash.values()][0]
      how = 'known'
    }
    for (const r of bare) r.env = envOf(env)
    return { joined: env.hash, how, host: env.host, nodeVersion: env.node_version }
  }

  /**
   * Labels the records name by a display name (--label v1.2.0 where the store
   * holds that tag's commit) become the stored label; a name the store does
   * not hold goes through `resolve` (the CLI's: a git ref of the repository
   * becomes its commit's label). Records that bring their own display name
   * (compare's sides, bisect) are left as they are.
   * @param {{records: HistoryRecord[]}[]} batches
   * @param {((name: string) => import('./git-label.js').LabelInfo|undefined)} [resolve]
   */
  async #resolveLabels (batches, resolve) {
    const e = this.#engine
    const names = new Set()
    for (const b of batches) for (const r of b.records) if (r.display === undefined) names.add(/** @type {string} */ (r.label))
    /** @type {Map<string, import('./git-label.js').LabelInfo>} */
    const to = new Map()
    for (const name of names) {
      if (await e.get('SELECT id FROM labels WHERE name = ?', [name])) continue
      const shown = await e.all('SELECT name, display, pos FROM labels WHERE display = ?', [name])
      if (shown.length === 1) { to.set(name, { label: shown[0].name, display: shown[0].display }); continue }
      const info = resolve?.(name)
      if (info) to.set(name, info)
    }
    if (to.size === 0) return
    for (const b of batches) {
      for (const r of b.records) {
        const info = r.display === undefined ? to.get(/** @type {string} */ (r.label)) : undefined
        if (!info) continue
        r.label = info.label
        r.display = info.display
        if (info.pos !== undefined) r.pos = info.pos
      }
    }
  }

  /**
   * Fills `cache` with the ids of the batch's series: one query for the
   * series of the files it touches, one bulk insert of those that are new,
   * and the query again for their ids.
   * @param {{r: HistoryRecord, envId: number}[]} keyed
   * @param {Map<string, number>} cache
   */
  async #seriesIds (keyed, cache) {
    const e = this.#engine
    const files = [...new Set(keyed.map((k) => k.r.file))]
    const load = async () => {
      for (let i = 0; i < files.length; i += 500) {
        const params = []
        const rows = await e.all(`SELECT id, file, configuration, measure, env_id FROM series WHERE ${e.inList('file', files.slice(i, i + 500), params)}`, params)
        for (const s of rows) cache.set(seriesKey(s.file, s.configuration, s.measure, s.env_id), s.id)
      }
    }
    await load()
    const missing = new Map()
    for (const { r, envId } of keyed) {
      const key = seriesKey(r.file, r.configuration, r.measure, envId)
      if (!cache.has(key)) missing.set(key, { file: r.file, configuration: r.configuration, measure: r.measure, envId })
    }
    if (missing.size === 0) return
    await e.insertSeries([...missing.values()])
    await load()
  }

  /**
   * The series matching a filter, each with its points in label order.
   * @param {SeriesFilter} [filter]
   * @returns {Promise<{key: {file: string, configuration: string, measure: string, fingerprint: string, env: import('./fingerprint.js').Env}, points: {label: string, display: string, order: number, values: number[]}[]}[]>}
   */
  async series (filter = {}) {
    const e = this.#engine
    const params = []
    const where = []
    if (filter.file !== undefined) {
      const f = filter.file.replace(/\/+$/, '')
      where.push('(s.file = ? OR substr(s.file, 1, ?) = ?)')
      params.push(f, f.length + 1, f + '/')
    }
    if (filter.configuration !== undefined) {
      where.push(e.kind === 'postgres' ? 'strpos(s.configuration, ?) > 0' : 'instr(s.configuration, ?) > 0')
      params.push(filter.configuration)
    }
    if (filter.measure !== undefined) { where.push('s.measure = ?'); params.push(filter.measure) }
    if (filter.host !== undefined) { where.push('v.host = ?'); params.push(filter.host) }
    if (filter.fingerprint !== undefined) { where.push('v.hash = ?'); params.push(filter.fingerprint) }
    const cond = where.length ? `WHERE ${where.join(' AND ')}` : ''
    const series = await e.all(`SELECT s.id, s.file, s.configuration, s.measure, v.hash, v.cpu, v.kernel, v.governor, v.node_version, v.node_sha256, v.v8_flags, v.host
      FROM series s JOIN envs v ON v.id = s.env_id ${cond} ORDER BY s.file, s.configuration, s.measure, v.hash`, params)
    if (series.length === 0) return []
    const points = await e.all(`SELECT p.series_id, p.label_id, p.value FROM points p WHERE p.series_id IN (SELECT s.id FROM series s JOIN envs v ON v.id = s.env_id ${cond})`, params)
    const usedLabels = new Set(points.map((p) => p.label_id))
    const labels = (await e.all('SELECT id, name, seq, display, pos FROM labels')).filter((l) => usedLabels.has(l.id))
    const displayOf = new Map(labels.map((l) => [l.name, displayName(l)]))
    const { rank } = orderLabels(labels, { order: filter.order, repo: filter.repo })
    const nameOf = new Map(labels.map((l) => [l.id, l.name]))
    const lo = filter.from === undefined ? -Infinity : rankOf(rank, filter.from, '--from')
    const hi = filter.to === undefined ? Infinity : rankOf(rank, filter.to, '--to')
    /** @type {Map<number, Map<number, number[]>>} series -> label rank -> values */
    const bySeries = new Map()
    for (const p of points) {
      const name = /** @type {string} */ (nameOf.get(p.label_id))
      const r = /** @type {number} */ (rank.get(name))
      if (r < lo || r > hi) continue
      let m = bySeries.get(p.series_id)
      if (!m) { m = new Map(); bySeries.set(p.series_id, m) }
      const values = m.get(r)
      if (values) values.push(p.value)
      else m.set(r, [p.value])
    }
    const labelAt = [...rank].sort((a, b) => a[1] - b[1]).map(([name]) => name)
    const out = []
    for (const s of series) {
      const m = bySeries.get(s.id)
      if (!m) continue
      const env = { cpu: s.cpu, kernel: s.kernel, governor: s.governor, nodeVersion: s.node_version, nodeSha256: s.node_sha256, v8Flags: s.v8_flags, host: s.host }
      out.push({
        key: { file: s.file, configuration: s.configuration, measure: s.measure, fingerprint: s.hash, env },
        points: [...m].sort((a, b) => a[0] - b[0]).map(([order, values]) => ({ label: labelAt[order], display: /** @type {string} */ (displayOf.get(labelAt[order])), order, values }))
      })
    }
    return out
  }

  /**
   * Change points per series, from every run of every label (a segment is
   * all its labels' runs; lib/history/changepoint.js). `untestable` says why
   * a series has too few labels or runs to test, and what would be enough.
   * @param {SeriesFilter} [filter]
   * @param {Partial<typeof import('./changepoint.js').DEFAULTS>} [opts]
   */
  async changes (filter = {}, opts = {}) {
    const out = []
    for (const s of await this.series(filter)) {
      const { changes, weak, untestable } = detectGroupChanges(s.points.map((p) => p.values), opts)
      const at = (c) => ({ ...c, label: s.points[c.index].label, display: s.points[c.index].display, previous: s.points[c.index - 1].label, previousDisplay: s.points[c.index - 1].display })
      out.push({ key: s.key, points: s.points, changes: changes.map(at), weak: weak.map(at), ...(untestable ? { untestable } : {}) })
    }
    return out
  }

  /** What the store holds: sources, labels (in the order they came) and counts. */
  async list () {
    const e = this.#engine
    const sources = await e.all('SELECT path, kind, added_at, rows_added, meta FROM sources ORDER BY id')
    const stored = await e.all('SELECT name, display FROM labels ORDER BY seq')
    const labels = stored.map((l) => l.name)
    const displays = stored.map((l) => displayName(l))
    const files = await e.all('SELECT s.file, COUNT(DISTINCT s.id) AS series, COUNT(p.series_id) AS points FROM series s LEFT JOIN points p ON p.series_id = s.id GROUP BY s.file ORDER BY s.file')
    return {
      where: e.where,
      kind: e.kind,
      sources: sources.map((s) => ({ path: s.path, kind: s.kind, addedAt: s.added_at, rows: Number(s.rows_added), ...(s.meta ? { meta: JSON.parse(s.meta) } : {}) })),
      labels,
      displays,
      files: files.map((f) => ({ file: f.file, series: Number(f.series), points: Number(f.points) }))
    }
  }

  async close () { await this.#engine.close() }
}

/** What a label shows: its display name, else a commit's first 12 characters, else its name. */
const displayName = (l) => l.display || (/^[0-9a-f]{40}$/i.test(l.name) ? l.name.slice(0, 12) : l.name)

const seriesKey = (file, configuration, measure, envId) => `${file}\0${configuration}\0${measure}\0${envId}`

function rankOf (rank, label, flag) {
  const r = rank.get(label)
  if (r === undefined) throw new UsageError(`${flag} ${label}: no such label in the selected series; see "benchrig history list"`)
  return r
}

/**
 * Reads every input before anything is written: a bad file fails the add
 * with nothing stored.
 * @param {(string|HistoryRecord)[]} inputs
 * @param {{label?: string, runner?: string, source?: string, meta?: object}} opts
 * @returns {{path: string, kind: string, sha256: string, records: HistoryRecord[], meta?: object}[]}
 */
function readInputs (inputs, opts) {
  if (!Array.isArray(inputs)) throw new TypeError('history.add: give an array of file paths or records')
  const files = inputs.filter((i) => typeof i === 'string')
  const records = inputs.filter((i) => typeof i !== 'string')
  const batches = files.map((f) => ({ path: f, ...readResultFile(f, { label: opts.label, runner: opts.runner }) }))
  if (records.length > 0) {
    const recs = records.map((r, i) => checkRecord(r, i, opts.label))
    const sha256 = crypto.createHash('sha256').update(JSON.stringify(recs)).digest('hex')
    batches.push({ path: opts.source ?? 'records', kind: 'records', sha256, records: recs, ...(opts.meta === undefined ? {} : { meta: opts.meta }) })
  }
  return batches
}

/** @returns {HistoryRecord} */
function checkRecord (r, i, label) {
  const rec = { file: r.file, configuration: r.configuration ?? '', measure: r.measure ?? 'wall', value: r.value, label: r.label ?? label, env: r.env ?? {}, ...(r.key ? { key: String(r.key) } : {}), ...(typeof r.display === 'string' && r.display !== '' ? { display: r.display } : {}), ...(Number.isInteger(r.pos) ? { pos: r.pos } : {}) }
  if (typeof rec.file !== 'string' || rec.file === '') throw new TypeError(`history.add: record ${i} has no file`)
  if (!Number.isFinite(rec.value)) throw new TypeError(`history.add: record ${i} has no finite value`)
  if (typeof rec.label !== 'string' || rec.label === '') throw new UsageError(`record ${i} of ${rec.file} has no label; give --label L`, 'BENCHRIG_ERR_HISTORY_LABEL')
  for (const f of Object.keys(rec.env)) if (!FIELDS.includes(/** @type {any} */ (f))) throw new TypeError(`history.add: record ${i}: unknown env field ${f}`)
  return rec
}

module.exports = { openHistory, resolveDbSpec, History, isPostgres }
