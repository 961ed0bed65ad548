'use strict'
// The common.js helpers of Node core's url/ and querystring/ files: Node's
// names and shapes, our own data; and a file of Node's shape that uses them.
const { test } = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const common = require('../../common.js')

test('urls, searchParams, urlDataTypes, bakeUrlData, binding, buildType', async (t) => {
  t.same(common.urlDataTypes, [...Object.keys(common.urls), 'wpt'])
  for (const [name, u] of Object.entries(common.urls)) t.type(new URL(u), URL, `urls.${name} parses`)
  for (const [name, q] of Object.entries(common.searchParams)) t.type(q, 'string', `searchParams.${name}`)
  t.same(Object.keys(common.searchParams).sort(), ['altspaces', 'encodefake', 'encodelast', 'encodemany', 'manyblankpairs', 'manypairs', 'multicharsep', 'multivalue', 'multivaluemany', 'noencode'])
  t.equal(common.bakeUrlData('short').length, 200)
  t.equal(common.bakeUrlData('short', 2).length, 800, 'e doubles the data e times')
  t.same(common.bakeUrlData('auth', 0, true)[0], [common.urls.auth, 'about:blank'])
  const wpt = common.bakeUrlData('wpt', 0, true)
  t.ok(wpt.length >= 300 && wpt.every((p) => Array.isArray(p) && p.length === 2), 'wpt: [input, base] pairs')
  t.ok(common.bakeUrlData('wpt').every((b) => typeof b === 'string' && b !== 'about:blank'), 'wpt without base: the bases')
  const asUrl = common.bakeUrlData('wpt', 0, true, true)
  t.ok(asUrl.length > 0 && asUrl.every((u) => u instanceof URL), 'asUrl: URL objects')
  t.throws(() => common.bakeUrlData('nope'), { message: 'Unknown url data type nope' })
  t.throws(() => common.bakeUrlData('short', 'x'), { message: 'e must be a number, received x' })
  t.equal(common.buildType, process.features.debug ? 'Debug' : 'Release')
  t.type(common.binding('buffer'), 'object', 'a binding of this node')
})

test('a url/ file of Node\'s shape runs with the helpers', async (t) => {
  const file = path.join(__dirname, '..', 'fixtures', 'nodecore', 'url', 'whatwg-parse.js')
  const r = spawnSync(process.execPath, [file, 'type=wpt', 'withBase=true'], { encoding: 'utf8' })
  t.equal(r.status, 0, r.stderr)
  t.match(r.stdout, /^url\/whatwg-parse\.js e=1 withBase="true" type="wpt": [\d,]+(\.\d+)?\n$/)
})
