'use strict'
// Loopback targets for tests: a port nothing listens on yet, and a small
// server whose paths give each kind of outcome a load run counts.
const http = require('node:http')
const net = require('node:net')

/** A port on 127.0.0.1 that was free a moment ago (for a child that binds it itself). */
function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    }).on('error', reject)
  })
}

/**
 * A server that answers 200 on /, 404 on /missing, and drops the connection
 * on /drop; closed in the test's teardown.
 * @returns {Promise<string>} its origin, http://127.0.0.1:PORT
 */
async function statusTarget (t) {
  const s = http.createServer((req, res) => {
    if (req.url === '/drop') return req.socket.destroy()
    res.statusCode = req.url === '/missing' ? 404 : 200
    res.end('ok')
  })
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
  return `http://127.0.0.1:${s.address().port}`
}

module.exports = { freePort, statusTarget }
