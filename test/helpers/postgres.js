'use strict'
// A real PostgreSQL for the tests: scripts/postgres-local.sh starts one
// cluster on 127.0.0.1 (once, shared by the test files that run in
// parallel), and each test gets a database of its own, dropped in teardown.
// The cluster stops when the last test process that used it lets go: each
// user leaves a file named by its pid in the cluster's folder, and the last
// live one out stops it.
// Where PostgreSQL cannot be had the test is skipped, or fails under
// BENCHRIG_REQUIRE_TOOLS=1 (as needTool).
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'postgres-local.sh')
const DIR = process.env.BENCHRIG_PG_DIR ?? '/tmp/benchrig-pg'
const USERS = `${DIR}-users`

let base
let failure
let released = false

function script (cmd) {
  return spawnSync('bash', [SCRIPT, cmd], { encoding: 'utf8', env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` }, timeout: 600000 })
}

function alive (pid) {
  try { process.kill(pid, 0); return true } catch (err) { return err.code === 'EPERM' }
}

/** Lets go of the cluster; the last live user stops it. */
function release () {
  if (released || base === undefined) return
  released = true
  fs.rmSync(path.join(USERS, String(process.pid)), { force: true })
  const others = fs.existsSync(USERS) ? fs.readdirSync(USERS).map(Number).filter((pid) => pid !== process.pid) : []
  const live = others.filter((pid) => alive(pid) || (fs.rmSync(path.join(USERS, String(pid)), { force: true }), false))
  if (live.length === 0) script('stop')
}

/** The URL of the running cluster's "benchrig" database, starting it when needed. */
function clusterUrl () {
  if (base !== undefined) return base
  if (failure !== undefined) return failure
  fs.mkdirSync(USERS, { recursive: true })
  fs.writeFileSync(path.join(USERS, String(process.pid)), '')
  // a running cluster needs no start (nor its lock): its URL is enough
  const up = script('env')
  const r = up.status === 0 ? up : script('start')
  const m = /BENCHRIG_DB=(\S+)/.exec(r.stdout ?? '')
  if (r.status !== 0 || !m) {
    fs.rmSync(path.join(USERS, String(process.pid)), { force: true })
    failure = { error: `scripts/postgres-local.sh start failed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}` }
    return failure
  }
  base = m[1]
  process.on('exit', release)
  return base
}

/**
 * A fresh database on the local cluster for this test, or undefined (skipped).
 * @param {import('tap').Test} t
 * @returns {Promise<string|undefined>}
 */
async function needPostgres (t) {
  const url = clusterUrl()
  if (typeof url !== 'string') {
    if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail(`${url.error}; BENCHRIG_REQUIRE_TOOLS=1 requires PostgreSQL`)
    else t.skip(`PostgreSQL is not available (${url.error})`)
    return undefined
  }
  const { Client } = require('pg')
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
  const admin = new Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  t.teardown(async () => {
    const c = new Client({ connectionString: url })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await c.end()
  })
  return url.replace(/\/[^/]*$/, `/${name}`)
}

module.exports = { needPostgres, release }
