'use strict'
// Under a compare-style run the binary under test runs the benchmark (the
// server) and the load generator runs on the driver's node. Here the binary
// under test is a real node 18 and the driver's node is a wrapper script
// that logs every process started through it: the generator must show up in
// that log, and the node 18 child must report a result (bench.http works on
// Node 18).
const { test } = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const benchmarkers = require('../../_http-benchmarkers.js')
const { needNode } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, '..', '..')

function driverWrapper (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-driver-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const log = path.join(dir, 'driver.log')
  const wrapper = path.join(dir, 'driver-node')
  fs.writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 })
  return { wrapper, log }
}

function runBenchmark (file, args, execPath, driverNode) {
  return new Promise((resolve) => {
    const messages = []
    // tap's process-info loader, which tap adds to NODE_OPTIONS of every
    // process it sees spawned, does not load on node 18: `env -u` drops it
    // right before the benchmark starts (the IPC channel passes through).
    const child = spawn('env', ['-u', 'NODE_OPTIONS', execPath, path.join(ROOT, file), ...args], {
      env: { ...process.env, BENCHRIG_DRIVER_NODE: driverNode },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc']
    })
    let stderr = ''
    child.stderr.on('data', (c) => { stderr += c })
    child.on('message', (m) => messages.push(m))
    child.on('exit', (code) => resolve({ code, messages, stderr }))
  })
}

for (const name of ['autocannon', 'builtin']) {
  test(`${name} runs on the driver's node, not on the node under test`, async (t) => {
    const node18 = needNode(t, 18)
    if (!node18) return
    if (!benchmarkers.detect(name).present) {
      t.skip(`${name} is not available in this tree yet`)
      return
    }
    const { wrapper, log } = driverWrapper(t)
    let run = await runBenchmark('http/simple.js', ['--test', `benchmarker=${name}`], node18, wrapper)
    const failure = run.messages.find((m) => m.type === 'error')
    if (failure && /no request completed/.test(failure.message)) {
      // A saturated machine, not the adapters: retry once, visibly.
      t.comment(`retrying once: ${failure.message}`)
      fs.rmSync(log, { force: true })
      run = await runBenchmark('http/simple.js', ['--test', `benchmarker=${name}`], node18, wrapper)
    }
    const { code, messages, stderr } = run
    t.equal(code, 0, `the node 18 benchmark succeeded (${stderr.trim()} ${JSON.stringify(messages)})`)
    const report = messages.find((m) => m.type === 'report')
    t.ok(report, 'a report came back')
    t.equal(report.extra.benchmarker, name)
    t.ok(report.rate > 0)
    const started = fs.readFileSync(log, 'utf8').trim().split('\n')
    t.equal(started.length, 1, 'one process started through the driver node')
    t.match(started[0], name === 'builtin' ? /bin\/benchrig\.js load / : /autocannon\.js /, 'and it is the generator')
  })
}

test('without BENCHRIG_DRIVER_NODE the generator falls back to process.execPath', async (t) => {
  const { normalizeOptions } = require('../../lib/harness/bench-http.js')
  const saved = process.env.BENCHRIG_DRIVER_NODE
  t.teardown(() => { if (saved === undefined) delete process.env.BENCHRIG_DRIVER_NODE; else process.env.BENCHRIG_DRIVER_NODE = saved })
  delete process.env.BENCHRIG_DRIVER_NODE
  t.equal(normalizeOptions({}, {}).driverNode, process.execPath)
  process.env.BENCHRIG_DRIVER_NODE = '/opt/driver/node'
  t.equal(normalizeOptions({}, {}).driverNode, '/opt/driver/node')
})
