#!/usr/bin/env node
'use strict'
// The engine's own per-response work, without the kernel: a real Runner and
// Connection (scanner, ring of send times, histogram, counters, refill) fed
// with the bytes nginx answers, through a socket stand-in whose write() does
// nothing. What a change adds to the hot path shows here at full resolution,
// where a whole load run (bench/engine-vs-peers.js) drowns it in the kernel's
// TCP work and the machine's noise.
//
//   node bench/hot-path-micro.js [--also LABEL=PATH/OF/OTHER/CHECKOUT] [--blocks 40] [--responses 200000] [--urls N]
//
// --urls N (N > 1): N URLs sent in turn, each an endpoint with its own
// results, through the recording chain (measure/recorder.js) in every
// checkout, so the ratio is the cost of the per-endpoint stage.
//
// The checkouts alternate in short blocks in one process, so both see the
// same machine; the figure is the median over blocks of ns per response, and
// the ratio the median of the per-block-pair ratios. lib/engine/runner.js kept
// its path when the engine moved into sub-folders, so --also works against
// checkouts from before and after that move.
const path = require('node:path')
const { performance } = require('node:perf_hooks')

function arg (name, def) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : def
}

// what nginx's `return 200 "ok"` sends back, byte for byte in shape
const RESPONSE = 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Sun, 22 Nov 2026 21:00:00 GMT\r\n' +
  'Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok'

const FAKE_SOCKET = {
  setNoDelay () {},
  once () {},
  on () {},
  write () { return true },
  destroy () {}
}

/** A connection of the engine under `root`, ready, with `depth` requests in flight. */
function connectionOf (root, depth, urls) {
  const { Runner } = require(path.join(root, 'lib', 'engine', 'runner.js'))
  const runner = new Runner({
    requests: Array.from({ length: urls }, (_, i) => ({ method: 'GET', path: i === 0 ? '/' : `/${i}`, host: '127.0.0.1:8080', headers: {}, body: undefined })),
    endpointCount: urls,
    target: { protocol: 'http:', hostname: '127.0.0.1', port: 8080 },
    connections: 1,
    pipelining: depth,
    refill: 'window',
    durationMs: 0,
    amount: Number.MAX_SAFE_INTEGER,
    timeoutMs: 10000,
    bailout: 0,
    t0: Date.now(),
    idOffset: 0
  })
  runner.transport = { readyEvent: 'connect', connect: () => FAKE_SOCKET }
  if (urls > 1) runner.response = require(path.join(root, 'lib', 'engine', 'measure', 'recorder.js')).chainFor(runner)
  const conn = runner.connections[0]
  conn.open()
  conn.ready()
  return conn
}

function block (conn, chunk, depth, responses) {
  const reads = Math.ceil(responses / depth)
  const t = performance.now()
  for (let i = 0; i < reads; i++) conn.read(chunk.length, chunk)
  return (performance.now() - t) * 1e6 / (reads * depth)
}

const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

function main () {
  const blocks = Number(arg('blocks', '40'))
  const urls = Number(arg('urls', '1'))
  const responses = Number(arg('responses', '200000'))
  const roots = [{ label: 'this checkout', root: path.join(__dirname, '..') }]
  const also = arg('also')
  if (also) {
    const [label, root] = also.split('=')
    roots.push({ label, root: path.resolve(root) })
  }
  console.log(`ns per response of the engine's own work (median of ${blocks} blocks of ${responses}${urls > 1 ? `, ${urls} URLs` : ''}), ${process.version}`)
  for (const depth of [1, 10]) {
    const chunk = Buffer.from(RESPONSE.repeat(depth), 'latin1')
    const conns = roots.map((r) => connectionOf(r.root, depth, urls))
    const times = roots.map(() => [])
    // warm up every checkout's code to its optimized tier first
    for (let w = 0; w < 3; w++) conns.forEach((c) => block(c, chunk, depth, responses))
    for (let b = 0; b < blocks; b++) {
      // alternate which goes first, so neither always follows the other
      const order = b % 2 ? [...roots.keys()].reverse() : [...roots.keys()]
      for (const i of order) times[i].push(block(conns[i], chunk, depth, responses))
    }
    const cells = roots.map((r, i) => `${r.label} ${median(times[i]).toFixed(1)}`)
    let ratio = ''
    if (roots.length > 1) ratio = `   ratio ${median(times[0].map((x, b) => x / times[1][b])).toFixed(3)}`
    console.log(`  p=${String(depth).padEnd(3)} ${cells.join('   ')}${ratio}`)
  }
}

main()
