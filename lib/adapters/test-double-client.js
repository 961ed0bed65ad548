'use strict'
// The client behind the test-double-http/-https/-http2 benchmarkers: one
// request at a time for `duration` seconds (at least one request), then one
// JSON line {"throughput": N, ...}, N the responses received, as Node core's
// test double prints. It exists so that test runs of HTTP benchmarks need no
// external tool and finish in a moment.
//
//   node test-double-client.js TYPE URL DURATION
//
// TYPE is http, https or http2. Without URL and DURATION it reads Node's
// environment variables test_url and duration. Runs on the driver's node.
const [type, urlArg, durationArg] = process.argv.slice(2)
const TYPES = ['http', 'https', 'http2']
const url = urlArg || process.env.test_url
const duration = Number(durationArg ?? process.env.duration ?? 0)

/** The usage problem with this argv, or undefined. */
function usageProblem () {
  if (!TYPES.includes(type)) return `TYPE must be one of ${TYPES.join(', ')}, got "${type}"`
  if (!url || !Number.isFinite(duration) || duration < 0) return 'give a URL and a duration in seconds >= 0 (or the environment variables test_url and duration)'
  return undefined
}

const start = process.hrtime.bigint()
const counts = { throughput: 0, errors: 0, non2xx: 0 }
const elapsed = () => Number(process.hrtime.bigint() - start) / 1e9

function finish (session) {
  if (session) session.close()
  process.stdout.write(JSON.stringify({ ...counts, requests: counts.throughput, duration: elapsed() }) + '\n')
}

function onResponse (status, session) {
  if (status >= 200 && status < 300) counts.throughput++
  else counts.non2xx++
  if (elapsed() < duration) next(session)
  else finish(session)
}

function onError (err, session) {
  counts.errors++
  // A refused or reset connection will not get better: stop after a few.
  if (counts.errors >= 3 || elapsed() >= duration) {
    process.stderr.write(`test-double-client: ${err.message}\n`)
    finish(session)
  } else {
    setTimeout(() => next(session), 10)
  }
}

function next (session) {
  if (type === 'http2') {
    const req = session.request({ ':path': new URL(url).pathname + new URL(url).search })
    let status = 0
    req.on('response', (headers) => { status = headers[':status'] })
    req.on('error', (err) => onError(err, session))
    req.on('end', () => onResponse(status, session))
    req.resume()
    req.end()
    return
  }
  const mod = require(type === 'https' ? 'node:https' : 'node:http')
  const req = mod.get(url, type === 'https' ? { rejectUnauthorized: false } : {}, (res) => {
    res.resume()
    res.on('end', () => onResponse(res.statusCode, undefined))
  })
  req.on('error', (err) => onError(err, undefined))
}

function main () {
  const problem = usageProblem()
  if (problem) {
    process.stderr.write(`test-double-client: ${problem}\n`)
    process.exitCode = 2
    return
  }
  if (type !== 'http2') {
    next(undefined)
    return
  }
  const session = require('node:http2').connect(url, { rejectUnauthorized: false }) // lazy: only the HTTP/2 test double uses it
  session.on('error', (err) => {
    process.stderr.write(`test-double-client: ${err.message}\n`)
    process.exitCode = 1
  })
  next(session)
}

main()
