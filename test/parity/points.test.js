'use strict'
/* eslint-disable no-control-regex -- the terminal's colour sequences are what these checks read */
// Issue 23, section 1, points a-d and h-k, each run on the real autocannon
// and on benchrig's drop-in (require('benchrig').load) side by side: the same
// requests at the server, the same callback / promise / event outcomes, the
// same text by shape. The CLI points (e, f, g) are in cli.test.js.
const t = require('tap')
const { both, FAST, sink, shape, server, SIDES } = require('./_side-by-side.js')

const BASIC = `Basic ${Buffer.from('foo:bar').toString('base64')}`

t.test('a. credentials in the URL become a Basic Authorization header', async (t) => {
  const r = await both(t, (lib, srv) => lib({ url: `http://foo:bar@127.0.0.1:${srv.port}/401`, connections: 1, amount: 4, ...FAST }))
  for (const [name, { out, srv }] of Object.entries(r)) {
    t.equal(srv.seen.length, 4, `${name}: 4 requests`)
    t.ok(srv.seen.every((q) => q.headers.authorization === BASIC), `${name}: each with ${BASIC}`)
    t.equal(out['2xx'], 4, `${name}: the protected server answered 200`)
    t.equal(out.non2xx, 0, `${name}: no 401`)
    t.ok(srv.seen.every((q) => q.headers.host === `127.0.0.1:${srv.port}`), `${name}: Host without the credentials`)
  }
  // percent-encoded credentials are decoded first (user "a b", password "p@ss")
  const enc = await both(t, (lib, srv) => lib({ url: `http://a%20b:p%40ss@127.0.0.1:${srv.port}/`, connections: 1, amount: 2, ...FAST }))
  for (const [name, { srv }] of Object.entries(enc)) {
    t.equal(srv.seen[0].headers.authorization, `Basic ${Buffer.from('a b:p@ss').toString('base64')}`, `${name}: decoded`)
  }
})

t.test('b. a URL without a scheme is http://', async (t) => {
  const r = await both(t, (lib, srv) => lib({ url: `127.0.0.1:${srv.port}/plain?x=1`, connections: 1, amount: 3, ...FAST }))
  for (const [name, { out, srv }] of Object.entries(r)) {
    t.same(srv.seen.map((q) => q.url), ['/plain?x=1', '/plain?x=1', '/plain?x=1'], `${name}: path and query kept`)
    t.equal(out.url, `http://127.0.0.1:${srv.port}/plain?x=1`, `${name}: result.url has the scheme`)
  }
  const err = await both(t, (lib) => new Promise((resolve) => lib({ url: 'localhost', connections: 1, amount: 1, timeout: 1, ...FAST }, (e, res) => resolve({ e, res }))))
  for (const [name, { out }] of Object.entries(err)) t.notOk(out.e instanceof TypeError, `${name}: "localhost" is not refused as a URL`)
})

t.test('c. forever with a callback: an error through the callback at once, nothing sent', async (t) => {
  const r = await both(t, async (lib, srv) => {
    let done = 0
    const got = await new Promise((resolve) => {
      const instance = lib({ url: srv.url, forever: true, connections: 1, amount: 5, ...FAST }, (err, result) => resolve({ err, result }))
      instance.on('done', () => done++)
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    return { ...got, done }
  })
  for (const [name, { out, srv }] of Object.entries(r)) {
    t.ok(out.err instanceof Error, `${name}: cb(err)`)
    t.match(out.err.message, /callback/, `${name}: the message names the callback`)
    t.match(out.err.message, /forever/, `${name}: and forever`)
    t.match(out.err.message, /done/, `${name}: and says to use 'done'`)
    t.equal(out.result, undefined, `${name}: no result`)
    t.equal(srv.seen.length, 0, `${name}: nothing sent`)
    t.equal(out.done, 0, `${name}: no round ran`)
  }
})

t.test('d. a repeated response header reaches onResponse as an array', async (t) => {
  const r = await both(t, async (lib, srv) => {
    const got = []
    await lib({ url: `${srv.url}/cookies`, connections: 1, amount: 2, ...FAST, requests: [{ onResponse: (status, body, context, headers) => got.push(headers) }] })
    return got
  })
  for (const [name, { out }] of Object.entries(r)) {
    t.equal(out.length, 2, `${name}: onResponse per response`)
    // autocannon keeps the server's spelling (Set-Cookie); benchrig's names are
    // lowercase and read in any case: the same code finds the array on both
    t.same(out[0]['Set-Cookie'], ['a=1', 'b=2', 'c=3'], `${name}: headers['Set-Cookie'] is the array`)
    t.equal(out[0]['x-token'], 'tok-1', `${name}: a single header is a string`)
  }
  t.same(r.benchrig.out[0]['set-cookie'], ['a=1', 'b=2', 'c=3'], 'benchrig: also under the lowercase name')
})

t.test('h. printResult: null opts, a result of the other side, outputStream and colour, sent requests, status codes', async (t) => {
  const r = await both(t, (lib, srv) => lib({ url: [`${srv.url}/`, `${srv.url}/404`], connections: 2, amount: 20, ...FAST }))
  const results = { autocannon: r.autocannon.out, benchrig: r.benchrig.out }
  for (const [name, lib] of SIDES) {
    for (const [of, result] of Object.entries(results)) {
      const text = lib.printResult(result, null)
      t.type(text, 'string', `${name}.printResult(${of}'s result, null)`)
      t.notMatch(text, /undefined|NaN/, `${name} on ${of}'s result: no undefined or NaN`)
      t.match(text, /^\n┌/, `${name} on ${of}'s result: a blank line, then the tables`)
      t.match(text, new RegExp(`\\n${result.requests.sent} requests in [\\d.]+s, `), `${name} on ${of}'s result: "N requests in" counts the sent ones (${result.requests.sent})`)
      t.match(text, /\n10 2xx responses, 10 non 2xx responses\n/, `${name} on ${of}'s result: the non-2xx line`)
      t.notMatch(text, /\x1b\[/, `${name} on ${of}'s result: no colour on a stream that is not a TTY (stderr under tap)`)
    }
    const plain = lib.printResult(results[name], { outputStream: sink(false) })
    t.notMatch(plain, /\x1b\[/, `${name}: no colour on a non-TTY outputStream`)
    const env = { ...process.env }
    process.env.TERM = 'xterm-256color'
    delete process.env.NO_COLOR
    delete process.env.FORCE_COLOR
    delete process.env.CI
    let colored
    try {
      colored = lib.printResult(results[name], { outputStream: sink(true) })
    } finally {
      for (const k of ['TERM', 'NO_COLOR', 'FORCE_COLOR', 'CI']) { if (env[k] === undefined) delete process.env[k]; else process.env[k] = env[k] }
    }
    t.match(colored, /\x1b\[36mStat/, `${name}: cyan headings on a colour TTY outputStream`)
    t.match(colored, /\x1b\[1mLatency\x1b\[22m/, `${name}: bold row names`)
    t.same(shape(colored), shape(plain), `${name}: the same text once the colour is taken out`)
    // the status codes: their own table after the Req/Sec one, before the sample line
    const codes = shape(lib.printResult(results[name], { renderStatusCodes: true, outputStream: sink(false) }))
    const at = codes.indexOf('│Code│Count│')
    t.ok(at > codes.indexOf('│Bytes/Sec│#│#│#│#│#│#│#│'), `${name}: the status-code table after the Req/Bytes table`)
    t.ok(at < codes.indexOf('Req/Bytes counts sampled every # seconds.'), `${name}: and before the sample line`)
    t.same(codes.slice(at - 1, at + 7), ['┌top┐', '│Code│Count│', '├rule┤', '│#│#│', '├rule┤', '│#│#│', '└bottom┘', ''], `${name}: a rule between its rows`)
  }
  t.same(shape(SIDES[1][1].printResult(results.autocannon, { renderStatusCodes: true, outputStream: sink(false) })),
    shape(SIDES[0][1].printResult(results.autocannon, { renderStatusCodes: true, outputStream: sink(false) })), 'on the same result, the same shape as autocannon\'s')
})

t.test('i. more workers than connections run', async (t) => {
  const r = await both(t, (lib, srv) => lib({ url: srv.url, connections: 1, workers: 2, amount: 10, ...FAST }).then((res) => ({ res }), (err) => ({ err })))
  for (const [name, { out, srv }] of Object.entries(r)) {
    t.equal(out.err, undefined, `${name}: not refused`)
    t.ok(out.res.requests.total >= 10, `${name}: the run ended with its requests (${out.res.requests.total})`)
    t.ok(srv.seen.length >= 10, `${name}: the server got them`)
  }
})

t.test('j. invalid options without a callback: a rejected promise, never a throw', async (t) => {
  for (const [name, lib] of SIDES) {
    const bad = [{ url: 'http://127.0.0.1:9/', connections: 0 }, { url: 'http://127.0.0.1:9/', amount: 0 }, {}]
    for (const opts of bad) {
      let instance
      t.doesNotThrow(() => { instance = lib(opts) }, `${name}: ${JSON.stringify(opts)} does not throw`)
      t.type(instance.on, 'function', `${name}: an EventEmitter`)
      const caught = await instance.catch((e) => e)
      t.ok(caught instanceof Error, `${name}: ${JSON.stringify(opts)}: .catch() gets the error (${caught?.message})`)
    }
    const viaCb = await new Promise((resolve) => lib({ url: 'http://127.0.0.1:9/', connections: 0 }, (err) => resolve(err)))
    t.ok(viaCb instanceof Error, `${name}: with a callback, cb(err)`)
    // a forever instance is no promise: autocannon emits 'error'
    const forever = lib({ url: 'http://127.0.0.1:9/', connections: 0, forever: true })
    const emitted = await new Promise((resolve) => { forever.on('error', resolve); setTimeout(() => resolve(null), 3000).unref() })
    t.ok(emitted instanceof Error, `${name}: forever without a callback: the 'error' event`)
  }
})

t.test('k. parseArguments and start, with autocannon\'s shapes', async (t) => {
  for (const [name, lib] of SIDES) {
    const mod = name === 'autocannon' ? lib : require('../../index.js')
    t.type(mod.parseArguments, 'function', `${name}: parseArguments exported`)
    t.type(mod.start, 'function', `${name}: start exported`)
    const a = mod.parseArguments(['-c', '3', '-p', '2', '-a', '7', '-m', 'POST', '-H', 'x-a=1', '-H', 'x-b: 2', '-b', 'hi', '-T', 'tt', '-j', 'http://127.0.0.1:9/p'])
    t.match(a, {
      url: 'http://127.0.0.1:9/p', connections: 3, pipelining: 2, amount: 7, method: 'POST', body: 'hi', title: 'tt', json: true
    }, `${name}: autocannon's keys, numbers as numbers, one URL as a string`)
    t.equal(a.headers['x-a'], '1', `${name}: headers as an object (k=v)`)
    t.match(a.headers['x-b'], /^ ?2$/, `${name}: and (k: v)`)
    const two = mod.parseArguments(['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'])
    t.same(two.url, ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'], `${name}: several URLs as an array`)
    t.equal(two.connections, 10, `${name}: defaults filled in`)
    const err = console.error
    console.error = () => {}
    try {
      t.equal(mod.parseArguments([]), undefined, `${name}: no URL: undefined (the help is printed)`)
    } finally {
      console.error = err
    }
    t.equal(mod.start(undefined), undefined, `${name}: start(undefined) does nothing`)
  }
  // start runs what parseArguments made: the server sees the flags' requests.
  // One side after the other: each catches console.log, where -j prints
  for (const [name, lib] of SIDES) {
    const srv = await server(t)
    const mod = name === 'autocannon' ? lib : require('../../index.js')
    const argv = mod.parseArguments(['-c', '1', '-a', '3', '-L', '50', '-m', 'PUT', '-H', 'x-k=v', '-b', 'data', '-j', `${srv.url}/echo`])
    const log = console.log
    const lines = []
    console.log = (s) => lines.push(s)
    try {
      mod.start(argv)
      for (let i = 0; i < 250 && lines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    } finally {
      console.log = log
    }
    t.same(srv.seen.map((q) => `${q.method} ${q.url} ${q.headers['x-k']} ${q.body}`), ['PUT /echo v data', 'PUT /echo v data', 'PUT /echo v data'], `${name}: start sent the requests`)
    t.equal(JSON.parse(lines[0] ?? '{}').requests?.total, 3, `${name}: -j prints the result`)
  }
})
