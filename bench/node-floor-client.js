#!/usr/bin/env node
'use strict'
// The cheapest HTTP/1.1 load client node can run: the floor under any
// engine written in JavaScript on node's `net`, for bench/engine-vs-peers.
// It does none of the work a real load tester must do: no response parsing
// (it learns the length of the first response and then counts bytes, so it
// only works against a server whose responses all have one length, such as
// the bench nginx), no latency, no histogram, no timeouts. What it keeps is
// what every node client pays: one read callback per chunk (`onread` into a
// shared buffer, as the engine does) and one socket.write per batch.
//
//   node bench/node-floor-client.js URL [-c 50] [-d 5 | -a N] [-p 1]
// prints {"requests":{"total":N}} (the shape engine-vs-peers parses).
// -a N: stop once N responses are in (bench/instructions-per-request.js
// counts instructions at two N; N a multiple of -c x -p is exact)
const net = require('node:net')

function arg (name, def) {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : def
}

const url = new URL(process.argv.find((a) => a.startsWith('http://')))
const connections = arg('-c', 50)
const durationMs = arg('-d', 5) * 1000
const depth = arg('-p', 1)
const amount = arg('-a', 0)
const request = Buffer.from(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`)
const batch = Buffer.concat(Array.from({ length: depth }, () => request))
const readBuffer = Buffer.allocUnsafe(64 * 1024)

/** One request on its own connection: the length of a whole response. */
function probeLength () {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0)
    const s = net.connect(Number(url.port), url.hostname, () => s.write(request))
    s.on('error', reject)
    s.on('data', (b) => {
      got = Buffer.concat([got, b])
      const end = got.indexOf('\r\n\r\n')
      const m = /\r\ncontent-length: *(\d+)/i.exec(got.toString('latin1'))
      if (end >= 0 && m && got.length >= end + 4 + Number(m[1])) {
        s.destroy()
        resolve(end + 4 + Number(m[1]))
      }
    })
  })
}

async function main () {
  const responseBytes = await probeLength()
  const batchBytes = responseBytes * depth
  let completed = 0
  let running = true
  const sockets = []
  for (let i = 0; i < connections; i++) {
    let pending = 0
    const socket = net.connect({
      port: Number(url.port),
      host: url.hostname,
      onread: {
        buffer: readBuffer,
        callback (n) {
          pending += n
          if (pending < batchBytes) return
          pending -= batchBytes
          completed += depth
          if (amount > 0 && completed >= amount) finish()
          else if (running) this.write(batch)
        }
      }
    })
    socket.setNoDelay(true)
    socket.once('connect', () => socket.write(batch))
    socket.on('error', () => {})
    sockets.push(socket)
  }
  const timer = amount > 0 ? null : setTimeout(finish, durationMs)
  function finish () {
    if (!running) return
    running = false
    if (timer !== null) clearTimeout(timer)
    for (const s of sockets) s.destroy()
    process.stdout.write(JSON.stringify({ requests: { total: completed } }) + '\n')
  }
}

main().catch((err) => {
  console.error(`node-floor-client: ${err.message}`)
  process.exitCode = 1
})
