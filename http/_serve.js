'use strict'
// Shared by the http/ and http2/ suites: start a server on port 0 (no fixed
// port collides between runs), load it with bench.http, then close it.
const fs = require('node:fs')
const path = require('node:path')

/**
 * @param {object} bench the benchmark object
 * @param {import('node:net').Server} server an http, https or http2 server
 * @param {object} options bench.http options (port is filled in)
 */
function loadServer (bench, server, options) {
  server.listen(0, '127.0.0.1', () => {
    bench.http({ ...options, port: server.address().port }, () => {
      server.close()
      // Node 18's close() leaves idle keep-alive sockets open.
      if (typeof server.closeAllConnections === 'function') server.closeAllConnections()
    })
  })
}

/** The committed self-signed test certificate (CN=localhost, 127.0.0.1, ::1). */
function testCert () {
  const dir = path.join(__dirname, '_fixtures')
  return {
    key: fs.readFileSync(path.join(dir, 'test-key.pem')),
    cert: fs.readFileSync(path.join(dir, 'test-cert.pem'))
  }
}

module.exports = { loadServer, testCert }
