'use strict'
// require('benchrig').serve starts the same server as `benchrig serve`, and
// the package's load() measures it: the two public APIs together.
const t = require('tap')
const path = require('node:path')
const api = require(path.join(__dirname, '..', '..', 'index.js'))

t.test('the package exports serve, and load() measures it', async (t) => {
  const target = await api.serve({ port: 0 })
  t.teardown(() => target.close())
  t.match(target.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  const r = await api.load({ url: target.url + '/', connections: 2, amount: 100 })
  t.equal(r.requests.total, 100)
  t.equal(r['2xx'], 100)
  const stats = await api.load({ url: target.url + '/bytes/1k', connections: 1, amount: 10 })
  t.equal(stats.throughput.total > 10 * 1024, true, 'the /bytes/SIZE route answered its size')
})
