'use strict'
// An HTTP benchmark: under --measure cpu|instructions bench.http refuses to
// run (the rate would come from the load generator, not from the measure).
const http = require('node:http')
const common = require('../common.js')
const bench = common.createBenchmark(main, { len: [16] })

function main ({ len }) {
  const server = http.createServer((req, res) => res.end('x'.repeat(len)))
  server.listen(0, '127.0.0.1', () => {
    bench.http({ port: server.address().port, path: '/', duration: 1, benchmarker: 'builtin' }, () => server.close())
  })
}
