'use strict'
// Port of wrk's addr example: resolve the URL's host once, keep the
// addresses that accept a connection, and give each thread one of them at
// random (thread.addr; the Host header stays the URL's). setup() may be
// async: it is awaited before the run starts.
//   benchrig load -c 4 -w 2 -d 5 --script examples/wrk-scripts/addr.js http://localhost:3000/
const dns = require('node:dns/promises')
const net = require('node:net')

let addrs = null

function accepts (host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port })
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', () => resolve(false))
  })
}

module.exports = {
  async setup (thread) {
    const { host, port } = thread.addr // the URL's, before any change
    if (addrs === null) {
      const all = await dns.lookup(host, { all: true })
      addrs = []
      for (const a of all) if (await accepts(a.address, port)) addrs.push({ host: a.address, port })
      if (addrs.length === 0) throw new Error(`no address of ${host} accepts connections on port ${port}`)
    }
    thread.addr = addrs[Math.floor(Math.random() * addrs.length)]
  },
  init (args, thread) {
    process.stderr.write(`thread addr: ${thread.addr.host}:${thread.addr.port}\n`)
  }
}
