#!/usr/bin/env node
'use strict'
// The history store at Node-core size: --configs configurations (in files of
// 20, one category) x --labels labels x --measures measures, ~1.8M rows by
// default, built through the store's own add (one add per label), then timed:
//   changes for one benchmark file (20 configurations x the measures)
//   changes for the whole category
//   add of a 10,000-row compare CSV (new labels OLD..NEW, existing series)
// on SQLite (a file in a temporary folder) and/or PostgreSQL ($BENCHRIG_DB,
// or the cluster of scripts/postgres-local.sh, started if needed; a fresh
// database each run). The targets (issue 25): < 1 s, < 30 s, < 2 s.
//
// Usage: node bench/history-scale.js [--engine sqlite|postgres|both] [--configs N]
//          [--labels N] [--measures N] [--seed S] [--json]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parseArgs } = require('node:util')
const { spawnSync } = require('node:child_process')
const { openHistory } = require('../lib/history/index.js')
const { createRng } = require('../lib/prng.js')

const USAGE = 'usage: node bench/history-scale.js [--engine sqlite|postgres|both] [--configs N] [--labels N] [--measures N] [--seed S] [--json]'
const PER_FILE = 20
const MEASURES = ['wall', 'cpu', 'instructions']

const now = () => Number(process.hrtime.bigint()) / 1e9
// CPU seconds of this process: on a shared, loaded machine the wall time
// says how long a user waits, the CPU time what the work costs
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6 }

/** One label's records: every configuration and measure; every 40th series steps up 5% halfway. */
function labelRecords (o, i, rng) {
  const out = []
  for (let c = 0; c < o.configs; c++) {
    const file = `scale/f${String(Math.floor(c / PER_FILE)).padStart(3, '0')}.js`
    const configuration = `n=${c % PER_FILE} len=64`
    for (let m = 0; m < o.measures; m++) {
      const step = (c * o.measures + m) % 40 === 0 && i >= o.labels / 2 ? 1.05 : 1
      out.push({ file, configuration, measure: MEASURES[m], value: 1e6 * (1 + c / 1000) * step * Math.exp(0.01 * rng.normal()), label: `v1.${i}.0` })
    }
  }
  return out
}

/** A compare CSV of `rows` rows over existing series (the first configurations). */
function compareCsv (file, rows, o) {
  const lines = ['"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure"']
  for (let r = 0; r < rows; r++) {
    const c = Math.floor(r / 2) % o.configs
    const f = `scale/f${String(Math.floor(c / PER_FILE)).padStart(3, '0')}.js`
    lines.push(`"${r % 2 ? 'new' : 'old'}","${f}","n=${c % PER_FILE} len=64",${1e6 + r},1,"${Math.floor(r / 2)}","old-new","1",1,1,"1","wall"`)
  }
  fs.writeFileSync(file, lines.join('\n') + '\n')
}

/** A cluster of its own (scripts/postgres-local.sh in another folder), stopped at the end, unless $BENCHRIG_DB names a server. */
async function postgresUrl () {
  let base = process.env.BENCHRIG_DB
  let stopCluster = async () => {}
  if (!base || !base.startsWith('postgres')) {
    const script = path.join(__dirname, '..', 'scripts', 'postgres-local.sh')
    const env = { ...process.env, BENCHRIG_PG_DIR: path.join(os.tmpdir(), `benchrig-pg-scale-${process.pid}`) }
    const r = spawnSync('bash', [script, 'start'], { encoding: 'utf8', env })
    const m = /BENCHRIG_DB=(\S+)/.exec(r.stdout)
    if (!m) throw new Error(`scripts/postgres-local.sh start failed: ${r.stderr}`)
    base = m[1]
    stopCluster = async () => {
      spawnSync('bash', [script, 'stop'], { env })
      fs.rmSync(env.BENCHRIG_PG_DIR, { recursive: true, force: true })
      fs.rmSync(`${env.BENCHRIG_PG_DIR}.lock`, { force: true })
    }
  }
  const { Client } = require('pg')
  const name = `scale_${process.pid}`
  const c = new Client({ connectionString: base })
  await c.connect()
  await c.query(`DROP DATABASE IF EXISTS ${name}`)
  await c.query(`CREATE DATABASE ${name}`)
  await c.end()
  const url = base.replace(/\/[^/]*$/, `/${name}`)
  const drop = async () => {
    const d = new Client({ connectionString: base })
    await d.connect()
    await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await d.end()
    await stopCluster()
  }
  return { url, drop }
}

async function bench (engine, o) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-scale-'))
  const pg = engine === 'postgres' ? await postgresUrl() : undefined
  const db = pg ? pg.url : path.join(dir, 'h.sqlite')
  const rng = createRng(o.seed)
  try {
    let h = await openHistory(db)
    let t0 = now()
    for (let i = 0; i < o.labels; i++) await h.add(labelRecords(o, i, rng), { source: `label ${i}` })
    const fill = now() - t0
    const rows = o.configs * o.labels * o.measures
    await h.close()
    h = await openHistory(db) // a cold handle, as a new command would have
    t0 = now()
    let c0 = cpu()
    const one = await h.changes({ file: 'scale/f000.js' })
    const tOne = now() - t0
    const cOne = cpu() - c0
    t0 = now()
    c0 = cpu()
    const all = await h.changes({ file: 'scale' })
    const tAll = now() - t0
    const cAll = cpu() - c0
    const csv = path.join(dir, 'compare.csv')
    compareCsv(csv, 10000, o)
    t0 = now()
    c0 = cpu()
    const added = await h.add([csv], { label: `v1.${o.labels}.0..v1.${o.labels + 1}.0` })
    const tAdd = now() - t0
    const cAdd = cpu() - c0
    await h.close()
    const found = (list) => list.reduce((a, s) => a + s.changes.length, 0)
    return {
      engine,
      rows,
      fillSeconds: fill,
      oneFile: { series: one.length, changes: found(one), seconds: tOne, cpuSeconds: cOne },
      category: { series: all.length, changes: found(all), seconds: tAll, cpuSeconds: cAll },
      add10k: { rows: added.added, seconds: tAdd, cpuSeconds: cAdd }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
    if (pg) await pg.drop()
  }
}

function whole (v, flag, min) {
  const n = Number(v)
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag} ${v}: give a whole number >= ${min}`)
  return n
}

async function main (argv) {
  let o
  try {
    const { values: v } = parseArgs({ args: argv, options: { engine: { type: 'string' }, configs: { type: 'string' }, labels: { type: 'string' }, measures: { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } })
    if (v.help) { console.log(USAGE); return 0 }
    const engine = v.engine ?? 'both'
    if (!['sqlite', 'postgres', 'both'].includes(engine)) throw new Error(`--engine ${engine}: use sqlite, postgres or both`)
    o = {
      engines: engine === 'both' ? ['sqlite', 'postgres'] : [engine],
      configs: whole(v.configs ?? 2000, '--configs', PER_FILE),
      labels: whole(v.labels ?? 300, '--labels', 6),
      measures: whole(v.measures ?? 3, '--measures', 1),
      seed: whole(v.seed ?? 1, '--seed', 0),
      json: Boolean(v.json)
    }
    if (o.measures > MEASURES.length) throw new Error(`--measures ${o.measures}: at most ${MEASURES.length}`)
  } catch (err) {
    console.error(`${err.message}\n${USAGE}`)
    return 2
  }
  const results = []
  for (const engine of o.engines) {
    const r = await bench(engine, o)
    results.push(r)
    if (!o.json) {
      console.log(`${engine}: ${r.rows.toLocaleString('en')} rows (${o.configs} configurations x ${o.labels} labels x ${o.measures} measures), filled in ${r.fillSeconds.toFixed(1)} s`)
      console.log(`  changes, one file:    ${r.oneFile.seconds.toFixed(3)} s wall, ${r.oneFile.cpuSeconds.toFixed(3)} s CPU (${r.oneFile.series} series, ${r.oneFile.changes} change points; target < 1 s)`)
      console.log(`  changes, category:    ${r.category.seconds.toFixed(2)} s wall, ${r.category.cpuSeconds.toFixed(2)} s CPU (${r.category.series} series, ${r.category.changes} change points; target < 30 s)`)
      console.log(`  add 10,000-row CSV:   ${r.add10k.seconds.toFixed(3)} s wall, ${r.add10k.cpuSeconds.toFixed(3)} s CPU (${r.add10k.rows} rows; target < 2 s)`)
      console.log(`  (load average while it ran: ${require('node:os').loadavg().map((l) => l.toFixed(1)).join(' ')})`)
    }
  }
  if (o.json) console.log(JSON.stringify({ ...o, results }))
  return 0
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code }, (err) => { console.error(err); process.exitCode = 1 })
