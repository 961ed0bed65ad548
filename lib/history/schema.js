'use strict'
// The history store's schema, one for both engines, as numbered migrations.
// A store records its version in benchrig_meta; opening it applies the
// migrations it lacks, in one transaction, and refuses a store written by a
// newer benchrig (its tables may mean something this version does not know).
//
// Tables: a source is one added file (or one batch of records), keyed by the
// sha256 of its bytes so the same file twice adds nothing; an env is a
// machine fingerprint; a label is a version, commit or ref with the order in
// which it was first added; a series is (file, configuration, measure, env);
// a point is one measured value of a series at a label, from a source.
const { BenchrigError } = require('../errors.js')

/** @type {{version: number, what: string, up: (d: {pk: string, real: string, bigint: string}) => string[], fix?: (engine: import('./engine-postgres.js').Engine) => Promise<void>}[]} */
const MIGRATIONS = [
  {
    version: 1,
    what: 'sources, envs, labels, series, points',
    up: (d) => [
      `CREATE TABLE sources (id ${d.pk}, sha256 TEXT NOT NULL UNIQUE, path TEXT NOT NULL, kind TEXT NOT NULL,
        added_at TEXT NOT NULL, rows_added INTEGER NOT NULL, meta TEXT)`,
      `CREATE TABLE envs (id ${d.pk}, hash TEXT NOT NULL UNIQUE, cpu TEXT NOT NULL, kernel TEXT NOT NULL,
        governor TEXT NOT NULL, node_version TEXT NOT NULL, node_sha256 TEXT NOT NULL, v8_flags TEXT NOT NULL,
        host TEXT NOT NULL)`,
      `CREATE TABLE labels (id ${d.pk}, name TEXT NOT NULL UNIQUE, seq INTEGER NOT NULL)`,
      `CREATE TABLE series (id ${d.pk}, file TEXT NOT NULL, configuration TEXT NOT NULL, measure TEXT NOT NULL,
        env_id INTEGER NOT NULL REFERENCES envs (id), UNIQUE (file, configuration, measure, env_id))`,
      `CREATE TABLE points (series_id INTEGER NOT NULL REFERENCES series (id), label_id INTEGER NOT NULL REFERENCES labels (id),
        source_id INTEGER NOT NULL REFERENCES sources (id), value ${d.real} NOT NULL)`,
      'CREATE INDEX points_by_series ON points (series_id)',
      'CREATE INDEX series_by_file ON series (file)'
    ]
  },
  {
    version: 2,
    // a compare CSV and its NDJSON sidecar hold the same measurements in two
    // files of different bytes: the measurement's identity (seed, pair,
    // side, file, configuration, measure, start) keeps the second add out
    what: 'measurements: the identity of each compare measurement stored',
    up: () => [
      'CREATE TABLE measurements (key TEXT PRIMARY KEY, source_id INTEGER NOT NULL REFERENCES sources (id))'
    ]
  },
  {
    version: 3,
    // a label is a stable id (a full commit, a version) with a display name
    // (the tag or `git describe` of a commit) and, for commits, its place in
    // the history (how many commits it reaches), so a series is in git order
    // from any folder; the fix joins what version 2 split (series-merge.js)
    what: 'labels: display name and git position; one series per benchmark',
    up: () => [
      'ALTER TABLE labels ADD COLUMN display TEXT',
      'ALTER TABLE labels ADD COLUMN pos INTEGER'
    ],
    fix: (engine) => require('./series-merge.js').mergeSplitSeries(engine) // lazy: only the schema-2 migration needs it
  }
]

const LATEST = MIGRATIONS[MIGRATIONS.length - 1].version

/**
 * Brings the store to LATEST; throws BENCHRIG_ERR_HISTORY_SCHEMA when it is newer.
 * @param {import('./engine-postgres.js').Engine} engine
 */
async function migrate (engine) {
  await engine.exec('CREATE TABLE IF NOT EXISTS benchrig_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  const current = await schemaVersion(engine)
  checkNotNewer(current, engine.where)
  if (current === LATEST) return
  await engine.tx(async () => {
    // Two processes opening a new store at once: the second waits here, then
    // finds the work done (Postgres: an advisory lock; SQLite: BEGIN IMMEDIATE).
    if (engine.kind === 'postgres') await engine.run('SELECT pg_advisory_xact_lock(?)', [0x62656e63])
    const now = await schemaVersion(engine)
    checkNotNewer(now, engine.where)
    for (const m of MIGRATIONS) {
      if (m.version <= now) continue
      for (const sql of m.up(engine.dialect)) await engine.run(sql)
      if (m.fix) await m.fix(engine)
    }
    await engine.run('DELETE FROM benchrig_meta WHERE key = ?', ['schema_version'])
    await engine.run('INSERT INTO benchrig_meta (key, value) VALUES (?, ?)', ['schema_version', String(LATEST)])
  })
}

async function schemaVersion (engine) {
  const row = await engine.get('SELECT value FROM benchrig_meta WHERE key = ?', ['schema_version'])
  return row ? Number(row.value) : 0
}

function checkNotNewer (version, where) {
  if (version > LATEST) {
    throw new BenchrigError('BENCHRIG_ERR_HISTORY_SCHEMA',
      `${where}: the history store has schema version ${version}, this benchrig reads versions up to ${LATEST}; upgrade benchrig (or give another --db)`,
      { exitCode: 2 })
  }
}

module.exports = { migrate, schemaVersion, MIGRATIONS, LATEST }
