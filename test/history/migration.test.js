'use strict'
// Schema 3's fix of stores written by schema 2, on both engines: a store as
// the previous benchrig left it (compare's full commits with the node in the
// fingerprint, bisect's 12-character commits without it, a CSV's series
// without any fingerprint) opens as one series per benchmark; a series that
// could join two machines is left apart.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { openHistory } = require('../../lib/history/index.js')
const { MIGRATIONS, schemaVersion, LATEST } = require('../../lib/history/schema.js')
const { needPostgres } = require('../helpers/postgres.js')

const ENGINES = {
  sqlite: async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-migration-'))
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
    return path.join(dir, 'h.sqlite')
  },
  postgres: needPostgres
}

const open = (db) => (/^postgres/.test(db) ? require('../../lib/history/engine-postgres.js').openPostgres(db) : require('../../lib/history/engine-sqlite.js').openSqlite(db))

const C1 = 'a1'.repeat(20)
const C2 = 'b2'.repeat(20)

/** A store of schema 2 with the splits the previous benchrig made. */
async function schema2Store (db) {
  const e = await open(db)
  try {
    await e.exec('CREATE TABLE IF NOT EXISTS benchrig_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
    await e.tx(async () => {
      for (const m of MIGRATIONS.filter((x) => x.version <= 2)) for (const sql of m.up(e.dialect)) await e.run(sql)
      await e.run('INSERT INTO benchrig_meta (key, value) VALUES (?, ?)', ['schema_version', '2'])
      const env = async (hash, host, node, sha) => (await e.get('INSERT INTO envs (hash, cpu, kernel, governor, node_version, node_sha256, v8_flags, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
        [hash, host ? 'CPU' : '', host ? '6.1' : '', host ? 'performance' : '', node, sha, '', host])).id
      const withNode = await env('e1', 'box', 'v20.1.0', 'f'.repeat(64))
      const noNode = await env('e2', 'box', '', '')
      const none = await env('e3', '', '', '')
      const otherBox = await env('e4', 'box2', 'v20.1.0', 'f'.repeat(64))
      const label = async (name, seq) => (await e.get('INSERT INTO labels (name, seq) VALUES (?, ?) RETURNING id', [name, seq])).id
      const l1 = await label(C1, 1)
      const l2 = await label(C2, 2)
      const l2short = await label(C2.slice(0, 12), 3)
      const l1short = await label(C1.slice(0, 12), 4)
      const series = async (conf, envId) => (await e.get('INSERT INTO series (file, configuration, measure, env_id) VALUES (?, ?, ?, ?) RETURNING id', ['calls/spin.js', conf, 'wall', envId])).id
      const src = (await e.get("INSERT INTO sources (sha256, path, kind, added_at, rows_added) VALUES ('s', 'x', 'records', '2026-01-01', 0) RETURNING id")).id
      const point = (s, l, v) => e.run('INSERT INTO points (series_id, label_id, source_id, value) VALUES (?, ?, ?, ?)', [s, l, src, v])
      // n=1: compare (full commits, node kept), bisect (short commits, no node), a CSV (nothing)
      const compare = await series('n=1', withNode)
      await point(compare, l1, 100)
      await point(compare, l2, 50)
      const bisect = await series('n=1', noNode)
      await point(bisect, l1short, 101)
      await point(bisect, l2short, 51)
      const csv = await series('n=1', none)
      await point(csv, l2, 49)
      // n=2: measured on two machines; its CSV could join either: stays apart
      await point(await series('n=2', withNode), l1, 10)
      await point(await series('n=2', otherBox), l1, 11)
      await point(await series('n=2', none), l2, 5)
    })
  } finally {
    await e.close()
  }
}

for (const [engine, dbOf] of Object.entries(ENGINES)) {
  t.test(`${engine}: a schema-2 store opens as one series per benchmark`, async (t) => {
    const db = await dbOf(t)
    if (!db) return
    await schema2Store(db)
    const h = await openHistory(db)
    t.teardown(() => h.close())
    const one = await h.series({ file: 'calls/spin.js', configuration: 'n=1', order: 'added' })
    t.equal(one.length, 1, 'compare\'s, bisect\'s and the CSV\'s series are one')
    t.same(one[0].points.map((p) => [p.label, p.values.slice().sort((a, b) => a - b)]), [[C1, [100, 101]], [C2, [49, 50, 51]]], 'the short commits joined their full ids; no point lost')
    t.equal(one[0].key.env.nodeVersion, 'v20.1.0', 'the series that kept the node')
    const two = await h.series({ file: 'calls/spin.js', configuration: 'n=2', order: 'added' })
    t.equal(two.length, 3, 'a CSV series that could join two machines is left apart')
    t.same((await h.list()).labels, [C1, C2], 'the short labels are gone')
    const e = await open(db)
    t.equal(await schemaVersion(e), LATEST)
    await e.close()
  })
}
