'use strict'
// Ctrl-C in `benchrig load`: the run stops, the result measured so far is
// printed, a line says it was cut short, and the exit code is 130 (what a
// shell expects of an interrupted command), with -j and with the tables.
const t = require('tap')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { startServe, request } = require('../helpers/serve.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

/** Waits until the server has answered at least `n` requests (no fixed sleep). */
async function untilRequests (url, n) {
  for (;;) {
    const stats = JSON.parse((await request(url + '/stats')).body.toString())
    if (stats.requests >= n) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function startLoad (args) {
  const child = spawn(process.execPath, [BIN, 'load', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => { stdout += d })
  child.stderr.on('data', (d) => { stderr += d })
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, exited }
}

for (const json of [true, false]) {
  t.test(`SIGINT mid-run${json ? ' with -j' : ''}: result printed, cut short, exit 130`, async (t) => {
    const target = await startServe(t)
    const { child, exited } = startLoad(['-c', '2', '-d', '60', ...(json ? ['-j'] : []), target.url + '/'])
    t.teardown(() => child.kill('SIGKILL'))
    await untilRequests(target.url, 50)
    child.kill('SIGINT')
    const r = await exited
    t.equal(r.code, 130, r.stderr)
    t.match(r.stderr, /benchrig load: cut short by Ctrl-C after \d+\.\d s; the result covers that span\n/)
    t.notMatch(r.stderr, /\n\s+at /, 'no stack trace')
    if (json) {
      const result = JSON.parse(r.stdout)
      t.ok(result.requests.total >= 50, 'the requests measured before the signal are in the result')
      t.ok(result.duration < 60, 'the run ended early')
    } else {
      t.match(r.stderr, /requests in \d/, 'the tables are printed (on stderr, as autocannon)')
    }
  })
}
