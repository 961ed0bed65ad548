'use strict'
// A paced run with an amount, through the API, on the real autocannon and on
// benchrig's drop-in side by side: N requests at R req/s (overallRate, then
// connectionRate) end after N/R seconds in N/R whole samples. autocannon sends
// each second's share at the start of the second and ends, as all its runs,
// at the end of the sample in progress; benchrig spaces the requests evenly
// from t=0 and, under the API, also ends at the end of the sample in
// progress (`benchrig load` ends at the last response:
// test/engine/pacing-clock.test.js has both ends on an injected clock).
// The checks are counts and a lower bound on the duration, which a loaded
// machine can only lengthen.
const t = require('tap')
const { both, server } = require('./_side-by-side.js')
const { load, startRun } = require('../../lib/engine/autocannon/api.js')

const ROWS = [
  { name: 'overallRate: 10, amount: 20 over 2 connections', opts: { connections: 2, overallRate: 10, amount: 20 }, seconds: 2 },
  { name: 'connectionRate: 10, amount: 20 over 2 connections', opts: { connections: 2, connectionRate: 10, amount: 20 }, seconds: 1 }
]

for (const row of ROWS) {
  t.test(row.name, async (t) => {
    const out = await both(t, (lib, srv) => lib({ url: srv.url, sampleInt: 1000, ...row.opts }))
    for (const [name, { out: r, srv }] of Object.entries(out)) {
      const n = `${name}: ${row.name}`
      t.equal(srv.seen.length, 20, `${n}: the server got the amount`)
      t.equal(r.requests.total, 20, `${n}: all answered`)
      t.equal(r.samples, row.seconds, `${n}: ${row.seconds} whole samples of 1 s`)
      t.ok(r.duration >= row.seconds, `${n}: it lasted N/R = ${row.seconds} s or more (${r.duration} s)`)
      t.equal(r.errors, 0, `${n}: no errors`)
    }
  })
}

t.test('only the API ends on a sample: benchrig load (startRun) ends at its last response', async (t) => {
  const srv = await server(t)
  const opts = { url: srv.url, connections: 1, overallRate: 1000, amount: 5 }
  const api = load(opts)
  const cli = startRun(opts)
  t.equal(api.opts.endAtSample, true, 'load() sets it')
  t.equal(cli.opts.endAtSample, false, 'the CLI\'s startRun does not')
  const [a, c] = await Promise.all([api, cli])
  t.equal(a.requests.total + c.requests.total, 10, 'both ran their amount')
  t.equal(a.samples, 1, 'the API run: one whole sample')
})
