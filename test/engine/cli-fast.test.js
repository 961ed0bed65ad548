'use strict'
// `benchrig load`'s parse without yargs for the plain form the builtin adapter
// passes (every HTTP configuration of a suite starts one): the same engine
// options as yargs gives, yargs left unloaded, anything else left to yargs.
const { test } = require('tap')
const path = require('node:path')
const http = require('node:http')
const { execFile, execFileSync } = require('node:child_process')
const { parseFast, parseYargs, loadOptions } = require('../../lib/cli/load.js')
const builtin = require('../../lib/adapters/builtin.js')

const ROOT = path.join(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')
const URL = 'http://127.0.0.1:3000/'

const viaBoth = (argv) => {
  const fast = parseFast(argv)
  const slow = parseYargs(argv)
  const urls = slow.args._.map(String)
  return { fast: fast && loadOptions(fast, argv, undefined, urls), slow: loadOptions(slow.args, argv, slow.warmup, urls) }
}

test('the plain form gives the same engine options as yargs', async (t) => {
  const adapterArgv = (o) => builtin.args({ connections: 10, duration: 5, method: 'GET', pipelining: 1, headers: {}, url: URL, ...o }).slice(2)
  const forms = [
    ['-j', URL],
    ['-c', '50', '-d', '3', '-p', '10', '-j', URL],
    ['-c', '4', '-d', '2', '-m', 'POST', '-p', '1', '-t', '5', '-w', '2', '-H', 'content-type=application/json', '-H', 'x-a=b', '-b', '{"a":1}', '-j', URL],
    ['--h2', '--max-streams', '10', '-c', '3', '-d', '1', '-j', URL],
    ['-j', URL, 'http://127.0.0.1:3000/other'],
    adapterArgv({}),
    adapterArgv({ pipelining: 10, timeout: 3, workers: 2, headers: { 'x-y': 'z' }, body: 'hello' }),
    adapterArgv({ protocol: 'h2', clients: 4, streams: 8 })
  ]
  for (const argv of forms) {
    const { fast, slow } = viaBoth(argv)
    t.ok(fast, `${argv.join(' ')}: the fast form`)
    t.same(fast, slow, `${argv.join(' ')}: the same options as yargs`)
  }
})

test('anything else is left to yargs', async (t) => {
  for (const argv of [
    ['-c', '10', URL], // no -j: text output, progress
    ['-a', '5', '-j', URL], // a flag outside the plain form
    ['-c', '1', '-c', '2', '-j', URL], // repeated
    ['--refill', 'half', '-j', URL], // a flag outside the plain form, even at its default
    ['-j', '-c', '-5', URL], // a value yargs must judge
    ['-j', '-c'],
    ['--help'],
    ['-j'],
    ['-j', '--', 'node', 'server.js']
  ]) t.equal(parseFast(argv), null, argv.join(' '))
})

test('the plain form does not load yargs; other forms do', async (t) => {
  const loaded = (argv) => execFileSync(process.execPath, ['-e',
    `require(${JSON.stringify(path.join(ROOT, 'lib', 'cli', 'load.js'))}).parse(${JSON.stringify(argv)});` +
    "process.stdout.write(String(Object.keys(require.cache).some((k) => k.includes('/node_modules/yargs/'))))"], { encoding: 'utf8' })
  t.equal(loaded(['-c', '2', '-d', '1', '-j', URL]), 'false')
  t.equal(loaded(['-a', '2', '-j', URL]), 'true')
})

test('a plain-form run end to end', async (t) => {
  const server = http.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const url = `http://127.0.0.1:${server.address().port}/`
  const out = await new Promise((resolve) => execFile(process.execPath, [BIN, 'load', '-c', '2', '-d', '0.3', '-p', '4', '-j', url],
    (err, stdout, stderr) => resolve({ err, stdout, stderr })))
  t.error(out.err, out.stderr)
  const r = JSON.parse(out.stdout)
  t.ok(r.requests.total > 0, `${r.requests.total} requests`)
  t.equal(r.connections, 2)
  t.equal(r.pipelining, 4)
})
