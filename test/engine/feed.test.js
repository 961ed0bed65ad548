'use strict'
// --feed (issue 27, part 2): rows from CSV, JSON and NDJSON fill {{column}}
// in the path, headers and body; sequential rows go out once each across
// worker threads (one cursor in shared memory), unique rows never meet on
// two connections, random rows follow their seed; hooks read context.row;
// a bad file is refused before any traffic, naming its line.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const http2 = require('node:http2')
const { spawnSync } = require('node:child_process')
const { load } = require('../../lib/engine/index.js')
const { normalizeOptions } = require('../../lib/engine/options/options.js')
const { UsageError } = require('../../lib/errors.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

function tmp (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-feed-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return (name, text) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, text)
    return file
  }
}

/** A server that keeps what each request carried (path, x-user, body) and on which socket. */
async function recorder (t) {
  const seen = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      seen.push({ url: req.url, user: req.headers['x-user'], body, port: req.socket.remotePort })
      res.end('ok')
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
  return { url: `http://127.0.0.1:${server.address().port}`, seen }
}

const counts = (xs) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map())
const csv100 = 'id,name\n' + Array.from({ length: 100 }, (_, i) => `${i},"user ${i}"`).join('\n') + '\n'

t.test('sequential, in shared memory: each row once across workers with --feed-end stop; wrap goes round', async (t) => {
  const file = tmp(t)('users.csv', csv100)
  const opts = normalizeOptions({ url: 'http://127.0.0.1:1/u/{{id}}', feed: file })
  t.ok(opts.hooks.feed.data instanceof SharedArrayBuffer, 'the rows are in a SharedArrayBuffer')
  t.ok(opts.hooks.feed.cursor.buffer instanceof SharedArrayBuffer, 'and so is the cursor')
  const srv = await recorder(t)
  const r = await load({ url: srv.url + '/u/{{id}}?n={{name}}', connections: 4, workers: 2, feed: file, feedEnd: 'stop', duration: 20, headers: ['x-user: {{name}}'] })
  t.equal(r.requests.total, 100, 'one request per row')
  const ids = counts(srv.seen.map((s) => s.url))
  t.equal(ids.size, 100)
  t.ok([...ids.values()].every((n) => n === 1), 'every row exactly once')
  t.ok(srv.seen.every((s) => s.url === `/u/${s.user.slice(5)}?n=${encodeURIComponent(s.user)}`), 'path (percent-encoded) and header from the same row')
  srv.seen.length = 0
  const w = await load({ url: srv.url + '/u/{{id}}', connections: 2, amount: 250, feed: file })
  const c = counts(srv.seen.map((s) => Number(s.url.slice(3))))
  t.equal(w.requests.total, 250)
  t.same([...c.entries()].filter(([id, n]) => n !== (id < 50 ? 3 : 2)), [], 'rows 0-49 three times, the rest twice')
})

t.test('unique: no row on two connections; stop ends each after its rows', async (t) => {
  const file = tmp(t)('u.ndjson', Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: i, v: `x${i}` })).join('\n') + '\n')
  const srv = await recorder(t)
  const r = await load({ url: srv.url + '/{{id}}', connections: 3, feed: file, feedMode: 'unique', feedEnd: 'stop', duration: 20, method: 'POST', body: '{"v":"{{v}}"}' })
  t.equal(r.requests.total, 10)
  const bySocket = new Map()
  for (const s of srv.seen) bySocket.set(s.port, [...(bySocket.get(s.port) ?? []), Number(s.url.slice(1))])
  t.equal(bySocket.size, 3)
  for (const ids of bySocket.values()) t.equal(new Set(ids.map((i) => i % 3)).size, 1, `one connection's rows: ${ids}`)
  t.ok(srv.seen.every((s) => s.body === `{"v":"x${s.url.slice(1)}"}`), 'the body filled from the row')
  t.equal(r.stoppedBy, 'max-connection-requests', 'each connection retired after its rows')
})

t.test('random: the seed decides the rows; JSON arrays; hooks read context.row', async (t) => {
  const file = tmp(t)('r.json', JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i, ok: i % 2 === 0, none: null })), null, 2))
  const srv = await recorder(t)
  const run = async (seed) => {
    srv.seen.length = 0
    await load({ url: srv.url + '/{{id}}', connections: 1, amount: 30, feed: file, feedMode: 'random', feedSeed: seed })
    return srv.seen.map((s) => s.url).join(' ')
  }
  const a = await run(7)
  t.equal(await run(7), a, 'the same seed, the same rows')
  t.not(await run(8), a)
  srv.seen.length = 0
  const rows = []
  await load({
    url: srv.url + '/{{id}}',
    connections: 1,
    amount: 5,
    feed: file,
    requests: [{
      setupRequest: (req, ctx) => {
        rows.push(ctx.row)
        return { ...req, headers: { ...req.headers, 'x-user': `${ctx.row.ok}/${ctx.row.none}` } }
      }
    }]
  })
  t.same(rows[0], { id: '0', ok: 'true', none: '' }, 'fields as strings, null as empty')
  t.same(srv.seen.map((s) => [s.url, s.user]), [['/0', 'true/'], ['/1', 'false/'], ['/2', 'true/'], ['/3', 'false/'], ['/4', 'true/']])
})

t.test('a sequence takes one row per pass; --h2 fills the same way', async (t) => {
  const file = tmp(t)('s.csv', 'user\nann\nbob\n')
  const srv = await recorder(t)
  await load({ url: srv.url, connections: 1, amount: 4, feed: file, requests: [{ path: '/login/{{user}}' }, { path: '/home/{{user}}' }] })
  t.same(srv.seen.map((s) => s.url), ['/login/ann', '/home/ann', '/login/bob', '/home/bob'])
  const paths = []
  const h2 = http2.createServer((req, res) => { paths.push(req.url); res.end('ok') })
  await new Promise((resolve) => h2.listen(0, '127.0.0.1', resolve))
  t.teardown(() => h2.close())
  const r = await load({ url: `http://127.0.0.1:${h2.address().port}/p/{{user}}`, h2: true, connections: 1, feed: file, feedEnd: 'stop', duration: 10 })
  t.equal(r.requests.total, 2)
  t.same(paths.sort(), ['/p/ann', '/p/bob'])
})

t.test('bad input: one clear error naming the flag, the file and the line', async (t) => {
  const f = tmp(t)
  const good = f('good.csv', 'id,name\n1,a\n')
  const cases = [
    [{ feed: f('short.csv', 'id,name\n1,a\n2\n3,c\n') }, /short\.csv" line 3: 1 fields where the header has 2 \(id, name\)/],
    [{ feed: f('q.csv', 'id,name\n1,"a\nb",x\n') }, /q\.csv" line 2: 3 fields/],
    [{ feed: f('bad.ndjson', '{"id":1}\n{"id":2\n') }, /bad\.ndjson" line 2 is not JSON/],
    [{ feed: f('cols.ndjson', '{"id":1}\n\n{"di":2}\n') }, /cols\.ndjson" line 3: columns di where the first row has id/],
    [{ feed: f('arr.json', '[\n  {"id": 1},\n  {"id": 2},\n  3\n]') }, /arr\.json" line 4: a row must be an object/],
    [{ feed: f('nest.json', '[{"id": {"a": 1}}]') }, /nest\.json" line 1: "id" is an object/],
    [{ feed: f('notarr.json', '{"id": 1}') }, /give a JSON array of objects/],
    [{ feed: f('broken.json', '[{') }, /broken\.json" is not JSON/],
    [{ feed: f('empty.csv', '') }, /empty\.csv" is empty/],
    [{ feed: f('head.csv', 'id\n') }, /head\.csv" has no rows/],
    [{ feed: f('dup.csv', 'id,id\n1,2\n') }, /column "id" appears twice/],
    [{ feed: f('sp.csv', 'my id\n1\n') }, /column name "my id" cannot be used/],
    [{ feed: f('data.txt', 'id\n1\n') }, /say its format with --feed-format/],
    [{ feed: '/nonexistent/feed.csv' }, /cannot read --feed "\/nonexistent\/feed\.csv": ENOENT/],
    [{ feed: good, url: 'http://127.0.0.1:1/{{nope}}' }, /\{\{nope\}\} in the URL: --feed ".*good\.csv" has no column "nope" \(its columns: id, name\)/],
    [{ feed: good, headers: ['x: {{nme}}'] }, /\{\{nme\}\} in header x/],
    [{ feed: f('crlf.csv', 'id,name\n1,"a\r\nb"\n'), headers: ['x: {{name}}'] }, /crlf\.csv" line 2: "name" holds a CR, LF or NUL/],
    [{ feed: good, feedMode: 'shuffled' }, /invalid --feed-mode "shuffled"/],
    [{ feed: good, feedEnd: 'never' }, /invalid --feed-end "never"/],
    [{ feed: good, feedMode: 'random', feedEnd: 'stop' }, /random rows never run out/],
    [{ feed: good, feedSeed: 3 }, /--feed-seed seeds --feed-mode random/],
    [{ feed: good, feedMode: 'random', feedSeed: -1 }, /invalid --feed-seed "-1"/],
    [{ feed: good, feedMode: 'unique', connections: 2 }, /has 1 rows for 2 connections/],
    [{ feedMode: 'random' }, /--feed-mode applies to a data feed: add --feed FILE/],
    [{ feed: good, url: 'ws://127.0.0.1:1/' }, /--feed does not apply to a WebSocket run/]
  ]
  for (const [opts, re] of cases) {
    t.throws(() => load({ url: 'http://127.0.0.1:1/', connections: 1, ...opts }), { constructor: UsageError, message: re }, re.source)
  }
  const cli = spawnSync(process.execPath, [BIN, 'load', '-d', '1', '--feed', f('cli.csv', 'a,b\n1\n'), 'http://127.0.0.1:1/{{a}}'], { encoding: 'utf8' })
  t.equal(cli.status, 2)
  t.match(cli.stderr, /^benchrig load: --feed ".*cli\.csv" line 2: 1 fields where the header has 2/)
})
