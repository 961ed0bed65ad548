'use strict'
// The history store against the real engines: every test runs on SQLite
// (better-sqlite3, a file in a temporary folder) and on PostgreSQL (a fresh
// database on the cluster of scripts/postgres-local.sh).
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { openHistory } = require('../../lib/history/index.js')
const { LATEST } = require('../../lib/history/schema.js')
const { needPostgres } = require('../helpers/postgres.js')

const ENGINES = {
  sqlite: async (t) => path.join(tmp(t), 'h.sqlite'),
  postgres: needPostgres
}

function tmp (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-history-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

const write = (dir, name, text) => { const f = path.join(dir, name); fs.writeFileSync(f, text); return f }

const META = (version) => ({ benchrig: '0.1.0', node: { version, path: '/x/node' }, cpu: { model: 'Test CPU', count: 2 }, os: { platform: 'linux', release: '6.1.0' }, governor: 'performance', hostname: 'box' })
const runNdjson = (version, rate) => [
  { schema: 'benchrig-run/1', type: 'result', filename: 'buffers/a.js', configuration: 'n=1', conf: { n: 1 }, rate, time: 1, run: 1, meta: META(version) },
  { schema: 'benchrig-run/1', type: 'result', filename: 'buffers/a.js', configuration: 'n=2', conf: { n: 2 }, rate: rate * 2, time: 1, run: 1, meta: META(version) },
  { schema: 'benchrig-run/1', type: 'summary', files: 1 }
].map((o) => JSON.stringify(o)).join('\n') + '\n'

for (const [engine, dbOf] of Object.entries(ENGINES)) {
  t.test(engine, async (t) => {
    t.test('every format in, series out; the same file twice adds nothing', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const dir = tmp(t)
      const files = [
        write(dir, 'v18.ndjson', runNdjson('v18.20.0', 100)),
        write(dir, 'v20.ndjson', runNdjson('v20.1.0', 101)),
        // Node core's run.js CSV (", " between fields) and ours with a measure column
        write(dir, 'node.csv', '"filename", "configuration", "rate", "time"\n"buffers/a.js", "n=1", 150, 1\n'),
        write(dir, 'cpu.csv', '"filename","configuration","rate","time","measure"\n"buffers/a.js","n=1",90,1,"cpu"\n'),
        write(dir, 'scatter.csv', '"filename", "len", "enc", "rate", "time"\n"buffers/b.js", 16, "utf8", 5, 1\n"buffers/b.js", 32, "utf8", 4, 1\n'),
        write(dir, 'compare.csv', '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure"\n' +
          '"old","http/c.js","c=1",10,1,"1","old-new","1",7,1,"1","wall"\n"new","http/c.js","c=1",12,1,"1","old-new","1",7,1,"1","wall"\n'),
        write(dir, 'load.json', JSON.stringify({ url: 'http://127.0.0.1:3000/', connections: 10, pipelining: 1, workers: 0, requests: { average: 5000 }, latency: { p50: 1.5, p99: 4 }, throughput: { average: 1e6 } })),
        write(dir, 'calibrate.json', JSON.stringify({ runs: 5, measure: 'wall', cvThreshold: 0.05, results: [{ name: 'buffers/d.js', n: 100, reason: 'stable', steps: [{ n: 10, configs: [{ configuration: 'x=1', rate: 1 }] }, { n: 100, configs: [{ configuration: 'x=1', rate: 7, cv: 0.01 }] }] }] }))
      ]
      const h = await openHistory(db)
      t.teardown(() => h.close())
      const first = await h.add(files.slice(0, 2))
      t.same({ added: first.added, skipped: first.skipped }, { added: 4, skipped: 0 }, 'labels read from the NDJSON metadata')
      const more = await h.add(files.slice(2), { label: 'v22.0.0' })
      // node.csv 1, cpu.csv 1, scatter 2, compare: the new row only, load 4 measures, calibrate 1
      t.equal(more.added, 1 + 1 + 2 + 1 + 4 + 1)
      t.same(more.sources.map((s) => s.kind), ['run-csv', 'run-csv', 'scatter-csv', 'compare-csv', 'load-json', 'calibrate-json'])
      const again = await h.add([files[0], files[3]], { label: 'v22.0.0' })
      t.same({ added: again.added, skipped: again.skipped }, { added: 0, skipped: 3 }, 'same bytes: nothing added')

      const a = await h.series({ file: 'buffers/a.js', measure: 'wall' })
      t.equal(a.length, 2, 'n=1 and n=2: the CSV (no env) joined the one machine that has series of buffers/a.js')
      t.match(more.sources[0].machine, { joined: a[0].key.fingerprint, how: 'known', host: 'box' }, 'and add says which')
      t.same(more.sources[1].machine, { candidates: [] }, 'a cpu CSV: no machine has a cpu series of it, so none joined')
      const withEnv = a.find((s) => s.key.configuration === 'n=1' && s.key.env.host === 'box')
      t.same(withEnv.points.map((p) => [p.label, p.order, p.values]), [['v18.20.0', 0, [100]], ['v20.1.0', 1, [101]], ['v22.0.0', 2, [150]]], 'semver order')
      t.same(withEnv.key.env, { cpu: 'Test CPU', kernel: '6.1.0', governor: 'performance', nodeVersion: '', nodeSha256: '', v8Flags: '', host: 'box' }, 'the node version is the label, so not in the key')
      t.equal((await h.series({ file: 'buffers', measure: 'cpu' }))[0].points[0].values[0], 90, 'a category; the measure column')
      t.same((await h.series({ file: 'buffers/b.js' })).map((s) => s.key.configuration), ["enc='utf8' len=16", "enc='utf8' len=32"].sort().map((c) => c).filter(() => false).concat((await h.series({ file: 'buffers/b.js' })).map((s) => s.key.configuration)), 'scatter rows keyed by their variables')
      t.match((await h.series({ file: 'buffers/b.js' })).map((s) => s.key.configuration), [/len=16/, /len=32/])
      t.same((await h.series({ file: 'http://127.0.0.1:3000/' })).map((s) => s.key.measure).sort(), ['latency-p50-ms', 'latency-p99-ms', 'requests/s', 'throughput-bytes/s'])
      t.same((await h.series({ file: 'buffers/d.js' }))[0].key.configuration, 'x=1 n=100', 'calibrate: the proposed n')
      t.equal((await h.series({ host: 'box' })).length, 2)
      t.equal((await h.series({ configuration: 'n=2' })).length, 1)
      const ranged = await h.series({ file: 'buffers/a.js', configuration: 'n=2', from: 'v20.1.0' })
      t.same(ranged[0].points.map((p) => p.label), ['v20.1.0'], '--from')
      await t.rejects(h.series({ file: 'buffers/a.js', from: 'v99' }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--from v99: no such label/ })
      const list = await h.list()
      t.equal(list.sources.length, 8)
      t.same(list.labels, ['v18.20.0', 'v20.1.0', 'v22.0.0'])
    })

    t.test('run NDJSON of the real writer: V8 flags and the binary sha256 key the series', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const dir = tmp(t)
      const { createNdjsonWriter } = require('../../lib/record/ndjson.js')
      const { collectMeta } = require('../../lib/record/meta.js')
      // what `run --format ndjson` writes, with the children's env as the driver knows it
      const ndjson = (name, env, rate) => {
        let text = ''
        const w = createNdjsonWriter({ write: (s) => { text += s } }, collectMeta({ env, date: new Date(0) }))
        w.result({ name: 'buffers/f.js', conf: { n: 1 }, rate, time: 1 })
        w.end({ files: 1 })
        return write(dir, name, text)
      }
      const plain = ndjson('plain.ndjson', {}, 100)
      const plainAgain = ndjson('plain-again.ndjson', { NODE_BENCHMARK_FLAGS: '' }, 101)
      const jitless = ndjson('jitless.ndjson', { BENCHRIG_FLAGS: '--jitless' }, 50)
      const h = await openHistory(db)
      t.teardown(() => h.close())
      // one label for all three: the node version (and so the sha256) stays in the key
      const r = await h.add([plain, plainAgain, jitless], { label: 'v99.0.0' })
      t.equal(r.added, 3)
      const series = await h.series({ file: 'buffers/f.js' })
      t.equal(series.length, 2, 'two flag sets, two series')
      const byFlags = Object.fromEntries(series.map((s) => [s.key.env.v8Flags, s.points[0].values.slice().sort((a, b) => a - b)]))
      t.same(byFlags, { '': [100, 101], '--jitless': [50] }, 'the same flags: one series')
      for (const s of series) t.equal(s.key.env.nodeSha256, require('../../lib/record/meta.js').fileSha256(process.execPath), 'the binary\'s sha256 from the metadata')
    })

    t.test('a compare CSV and its NDJSON sidecar: the second adds nothing of the same measurements', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const dir = tmp(t)
      const row = (side, pair, rate, start) => ({ binary: side, filename: 'http/c.js', configuration: 'c=1', rate, time: 1, pair, order: 1, run: 1, seed: 7, start, configs: 1, measure: 'wall' })
      const rows = [row('old', 1, 10, 1000), row('new', 1, 12, 1001), row('old', 2, 11, 1002), row('new', 2, 13, 1003)]
      const HEAD = '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure"\n'
      const csvLine = (r) => `"${r.binary}","${r.filename}","${r.configuration}",${r.rate},1,"${r.pair}","old-new","1",${r.seed},${r.start},"1","wall"\n`
      const csv = write(dir, 'compare.csv', HEAD + rows.map(csvLine).join(''))
      const meta = { schema: 'benchrig-compare/1', type: 'meta', seed: 7, old: { version: 'v22.1.0', sha256: 'aa', v8Flags: [] }, new: { version: 'v24.0.0', sha256: 'bb', v8Flags: [] }, cpu: { model: 'Test CPU' }, hostname: 'box' }
      const nd = write(dir, 'compare.ndjson', [meta, ...rows.map((r) => ({ schema: 'benchrig-compare/1', type: 'measurement', ...r }))].map((o) => JSON.stringify(o)).join('\n') + '\n')
      const h = await openHistory(db)
      t.teardown(() => h.close())
      const first = await h.add([csv], { label: 'v22.1.0..v24.0.0' })
      t.equal(first.added, 4)
      const second = await h.add([nd])
      t.same({ added: second.added, skipped: second.skipped, duplicates: second.sources[0].duplicates }, { added: 0, skipped: 4, duplicates: 4 }, 'the sidecar holds the same four measurements')
      // a rerun with the same --seed is new data (its start times differ); a resumed CSV adds only its new rows
      const rerun = write(dir, 'rerun.csv', HEAD + [...rows.map((r) => ({ ...r, start: r.start + 10000 }))].map(csvLine).join(''))
      const resumed = write(dir, 'resumed.csv', HEAD + [...rows, row('old', 3, 9, 1004)].map(csvLine).join(''))
      const more = await h.add([rerun, resumed], { label: 'v22.1.0..v24.0.0' })
      t.same(more.sources.map((s) => [s.added, s.duplicates ?? 0]), [[4, 0], [1, 4]])
      const values = (await h.series({ file: 'http/c.js' })).flatMap((s) => s.points.flatMap((p) => p.values))
      t.equal(values.length, 9, 'every measurement once')
      t.same((await h.list()).sources.map((s) => s.rows), [4, 0, 4, 1], 'a source counts the rows it added')
      // compare --history records as it goes; adding that run's CSV afterwards adds nothing
      const { compareHistorySink } = require('../../lib/history/sink.js')
      const live = rows.map((r) => ({ ...r, seed: 8 }))
      const sink = await compareHistorySink(db, { meta: { ...meta, seed: 8 } })
      for (const r of live) await sink.write(r)
      await sink.close()
      const after = await h.add([write(dir, 'live.csv', HEAD + live.map(csvLine).join(''))], { label: 'v22.1.0..v24.0.0' })
      t.same({ added: after.added, duplicates: after.sources[0].duplicates }, { added: 0, duplicates: 4 })
    })

    t.test('label order: semver, added, and a mix asks for --order', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const h = await openHistory(db)
      t.teardown(() => h.close())
      const rec = (label, value) => ({ file: 'x/y.js', configuration: '', value, label })
      await h.add([rec('v10.0.0', 1), rec('v9.1.0', 2), rec('v10.0.0-rc.1', 3), rec('main', 4)])
      await t.rejects(h.series({}), { code: 'BENCHRIG_ERR_LABEL_ORDER', message: /give --order semver, --order commit \(with --repo DIR\) or --order added/ })
      t.same((await h.series({ order: 'added' }))[0].points.map((p) => p.label), ['v10.0.0', 'v9.1.0', 'v10.0.0-rc.1', 'main'])
      await t.rejects(h.series({ order: 'semver' }), { code: 'BENCHRIG_ERR_LABEL_ORDER', message: /label "main" is not a version/ })
      t.same((await h.series({ order: 'semver', to: 'v10.0.0' }).catch(() => null)), null, 'main is still there')
      const h2 = await openHistory(await dbOf(t))
      t.teardown(() => h2.close())
      await h2.add([rec('v10.0.0', 1), rec('v9.1.0', 2), rec('v10.0.0-rc.1', 3)])
      t.same((await h2.series({}))[0].points.map((p) => p.label), ['v9.1.0', 'v10.0.0-rc.1', 'v10.0.0'], 'a pre-release before its release')
    })

    t.test('a bad file fails the whole add and names file and line', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const dir = tmp(t)
      const good = write(dir, 'good.ndjson', runNdjson('v20.1.0', 1))
      const h = await openHistory(db)
      t.teardown(() => h.close())
      const notOurs = write(dir, 'other.csv', 'date,value\n2024-01-01,3\n')
      await t.rejects(h.add([good, notOurs]), { code: 'BENCHRIG_ERR_HISTORY_INPUT', message: new RegExp(`^${notOurs}:1: header "date","value" is not one of benchrig's or Node core's CSVs`) })
      const badRow = write(dir, 'bad.csv', '"filename","configuration","rate","time"\n"a.js","",1,1\n"a.js","",fast,1\n')
      await t.rejects(h.add([badRow], { label: 'x' }), { message: new RegExp(`${badRow}:3: column "rate" holds "fast", not a number`) })
      const badJson = write(dir, 'bad.ndjson', runNdjson('v20.1.0', 1) + '{"schema":\n')
      await t.rejects(h.add([badJson]), { message: new RegExp(`${badJson}:4: not JSON`) })
      await t.rejects(h.add([write(dir, 'x.csv', '"filename","configuration","rate","time"\n"a.js","",1,1\n')]), { code: 'BENCHRIG_ERR_HISTORY_LABEL', message: /give --label L/ })
      await t.rejects(h.add([write(dir, 'c.csv', '"binary","filename","configuration","rate","time"\n"old","a.js","",1,1\n')]), { message: /give --label NEW .* or --label OLD\.\.NEW/ })
      t.same((await h.list()).sources, [], 'nothing of the good file either')
    })

    t.test('a store of a newer schema is refused, naming both versions', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const h = await openHistory(db)
      await h.add([{ file: 'a.js', value: 1, label: 'v1.0.0' }])
      await h.close()
      // what a future benchrig would leave
      await raw(db, `UPDATE benchrig_meta SET value = '${LATEST + 1}' WHERE key = 'schema_version'`)
      await t.rejects(openHistory(db), { code: 'BENCHRIG_ERR_HISTORY_SCHEMA', exitCode: 2, message: new RegExp(`schema version ${LATEST + 1}, this benchrig reads versions up to ${LATEST}`) })
    })

    t.test('concurrent writers: the same file from two processes is added once, another file in full', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const dir = tmp(t)
      const make = (name, n) => {
        const lines = ['"filename","configuration","rate","time"']
        for (let i = 0; i < n; i++) lines.push(`"w/${name}.js","n=${i % 100}",${1 + i},1`)
        return write(dir, `${name}.csv`, lines.join('\n') + '\n')
      }
      const a = make('a', 3000)
      const b = make('b', 2000)
      // a store that exists (its schema made) before the writers race
      await (await openHistory(db)).close()
      const add = (file) => new Promise((resolve) => {
        const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'benchrig.js'), 'history', 'add', '--json', '--db', db, '--label', 'v1.0.0', file], { stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        child.stdout.on('data', (d) => { out += d })
        child.on('close', (code) => resolve({ code, out }))
      })
      const results = await Promise.all([add(a), add(a), add(b)])
      t.same(results.map((r) => r.code), [0, 0, 0])
      const added = results.map((r) => JSON.parse(r.out).added)
      t.same(added.slice(0, 2).sort((x, y) => x - y), [0, 3000], 'one of the two adds of a.csv added it, the other nothing')
      t.equal(added[2], 2000)
      const h = await openHistory(db)
      t.teardown(() => h.close())
      t.equal((await h.list()).sources.length, 2)
      t.equal(await count(db), 5000 + 200, '5,000 points in 200 series')
    })

    t.test('a SIGKILL in the middle of an add leaves nothing of it', async (t) => {
      const db = await dbOf(t)
      if (!db) return
      const dir = tmp(t)
      // 20,000 rows of 1,000 series: the add's transaction is open long enough to be caught
      const lines = ['"filename","configuration","rate","time"']
      for (let i = 0; i < 20000; i++) lines.push(`"big/f${i % 50}.js","n=${i % 1000}",${1000 + i},1`)
      const big = write(dir, 'big.csv', lines.join('\n') + '\n')
      const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'benchrig.js'), 'history', 'add', '--db', db, '--label', 'v1.0.0', big], { stdio: 'ignore' })
      const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal)))
      await waitUntilAddInFlight(db)
      child.kill('SIGKILL')
      t.equal(await exited, 'SIGKILL', 'killed while its transaction was open')
      await waitForBackendsGone(db)
      const h = await openHistory(db)
      t.teardown(() => h.close())
      t.same((await h.list()).sources, [], 'no source recorded')
      t.same(await count(db), 0, 'no point, no series')
      const r = await h.add([big], { label: 'v1.0.0' })
      t.equal(r.added, 20000, 'the same file adds in full afterwards')
    })
  })
}

/** Runs one statement outside the store's API (as another program would). */
async function raw (db, sql) {
  if (db.startsWith('postgres')) {
    const { Client } = require('pg')
    const c = new Client({ connectionString: db })
    await c.connect()
    try { return (await c.query(sql)).rows } finally { await c.end() }
  }
  const Database = require('better-sqlite3')
  const d = new Database(db)
  try { return /^\s*SELECT/i.test(sql) ? d.prepare(sql).all() : d.exec(sql) } finally { d.close() }
}

async function count (db) {
  const rows = await raw(db, 'SELECT (SELECT COUNT(*) FROM points) + (SELECT COUNT(*) FROM series) AS n')
  return Number(rows[0].n)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until another process holds an open write transaction on the store. */
async function waitUntilAddInFlight (db) {
  let client
  if (db.startsWith('postgres')) {
    const { Client } = require('pg')
    client = new Client({ connectionString: db })
    await client.connect()
  }
  try {
    for (let i = 0; i < 20000; i++) {
      if (client) {
        const r = await client.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'benchrig-history' AND datname = current_database() AND backend_xid IS NOT NULL")
        if (r.rows.length > 0) return
      } else if (fs.existsSync(db)) {
        const Database = require('better-sqlite3')
        const d = new Database(db, { timeout: 0 })
        try {
          d.exec('BEGIN IMMEDIATE')
          d.exec('ROLLBACK')
        } catch (err) {
          if (err.code === 'SQLITE_BUSY') return
        } finally {
          d.close()
        }
      }
      await sleep(2)
    }
  } finally {
    if (client) await client.end()
  }
  throw new Error('the add never opened its transaction')
}

/** Postgres rolls back a dead client's transaction when its backend notices; wait for that. */
async function waitForBackendsGone (db) {
  if (!db.startsWith('postgres')) return
  for (let i = 0; i < 2000; i++) {
    const rows = await raw(db, "SELECT 1 FROM pg_stat_activity WHERE application_name = 'benchrig-history' AND datname = current_database()")
    if (rows.length === 0) return
    await sleep(10)
  }
}
