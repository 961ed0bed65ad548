'use strict'
// An HTTP benchmark whose every response is non-2xx measured an error page:
// the configuration fails with a message saying so, unless the file passes
// allowNon2xx. Real server, real built-in load generator.
const { test } = require('tap')
const path = require('node:path')
const { collectLoad } = require('./fixtures/helpers.js')
const { checkResponses } = require('../../lib/harness/bench-http.js')
const { freePort } = require('../helpers/loopback.js')

const FILE = path.join(__dirname, '..', 'fixtures', 'nodecore', 'misc', 'http-notfound.js')

test('all 404: a failed configuration; with allowNon2xx: a result', async (t) => {
  const env = { ...process.env, PORT: String(await freePort()) }
  const r = await collectLoad(t, FILE, { args: ['--test', 'allow=no'], env })
  t.equal(r.errors.length, 1, 'allow="no" failed')
  t.match(r.errors[0].message, /bench\.http: all \d+ responses to \/missing had a non-2xx status \(builtin\).*allowNon2xx: true/)
  t.same(r.reports, [], 'and reported no rate')
  const ok = await collectLoad(t, FILE, { args: ['--test', 'allow=yes'], env })
  t.same(ok.errors, [])
  t.same(ok.reports.map((x) => x.conf.allow), ['yes'], 'allow="yes" reported its rate')
  t.ok(ok.reports[0].rate > 0)
})

test('checkResponses: only when no response was 2xx', async (t) => {
  t.equal(checkResponses({ requests: 10, non2xx: 9, benchmarker: 'wrk' }), undefined, 'some 2xx')
  t.equal(checkResponses({ requests: 0, non2xx: 0, benchmarker: 'wrk' }), undefined, 'no response at all is another error')
  t.equal(checkResponses({ requests: 10, non2xx: 10, benchmarker: 'wrk' }, { allowNon2xx: true }), undefined)
  t.match(checkResponses({ requests: 10, non2xx: 10, benchmarker: 'wrk' }, { path: '/x' }), { code: 'BENCHRIG_ERR_NON2XX', message: /all 10 responses to \/x/ })
})
