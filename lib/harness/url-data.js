'use strict'
// The data helpers Node core's url/ and querystring/ benchmark files take
// from common.js, with the same names and shapes: `urls` and `searchParams`
// (name -> string), `urlDataTypes` (the names of `urls` plus 'wpt') and
// `bakeUrlData(type, e, withBase, asUrl)`. The strings are our own; 'wpt'
// stands for Node's web-platform-test URL list and is here a generated list
// of ~400 (input, base) pairs of many shapes (Node reads its copy of WPT,
// which a benchmark folder outside Node's tree does not have).
// Runs inside benchmark processes: Node 18 APIs only.

const urls = {
  long: 'https://bench.example.org:8443/a/very/long/path/segment/0123456789/abcdef/' +
        'ghijkl/mnopqr/stuvwx/index.html?alpha=1&beta=two&gamma=3.14159&delta=false' +
        '&epsilon=%20spaced%20&zeta=9876543210&eta=x&theta=y#section-42',
  short: 'https://example.com/docs/',
  idn: 'http://bücher.example.测试',
  auth: 'https://alice:s3cret@login.example.net/home?tab=2',
  file: 'file:///srv/data/report.csv',
  ws: 'ws://127.0.0.1:9000/socket/8c0e2b5e-1f7a-4b8e-9d3a-2f6c1e0a7b44',
  javascript: 'javascript:void(console.log("benchrig"));',
  percent: 'https://%E6%B5%8B%E8%AF%95/path%20with%20spaces',
  dot: 'https://example.net/./x/../y/./z'
}

const searchParams = {
  noencode: 'alpha=one&beta=two&gamma=three',
  multicharsep: 'alpha=one&&&&&&&&beta=two&&&&&&&&gamma=three',
  encodefake: 'alpha=%zzone&beta=%G1two&gamma=%©three',
  encodemany: '%61%6C%70%68%61=one&%62%65%74%61=two&gamma=%74%68%72%65%65',
  encodelast: 'alpha=one&beta=two&gamma=thre%65',
  multivalue: 'k=1&k=2&k=3&other=4',
  multivaluemany: 'k=1&k=2&k=3&other=4&k=5&k=6&k=7&k=8&k=9&k=10&k=11&k=12',
  manypairs: 'a&b&c&d&e&f&g&h&i&j&k&l&m&n&o&p&q&r&s&t&u&v&w&x&y&z',
  manyblankpairs: '&&&&&&&&&&&&&&&&&&&&&&&&',
  altspaces: 'first+name=ada+lovelace&last+name=byron+king&x=y+z'
}

const BASES = [
  'http://example.org/foo/bar', 'https://example.com:8080/a/b/c?x=1#y', 'file:///home/user/doc.txt',
  'http://[::1]:3000/api/', 'https://user:pw@host.example/path/', 'ws://socket.example/chat',
  'http://192.168.0.1/', 'https://example.org/%7Euser/', 'http://example.org/a/b/c/d/e/f/', 'about:blank'
]
const INPUTS = [
  '', '.', '..', '/', '//other.example/x', 'baz', './baz', '../baz', '../../up', '?q=1', '#frag',
  'http://absolute.example/p', 'https://x.example:443/', 'HTTP://UPPER.EXAMPLE/PATH', '  trimmed  ',
  'a b c', '%41%42', 'mailto:someone@example.org', 'data:text/plain,hello', 'http://ü.example/',
  'http://example.org:65535/', 'http://1.2.3.4:80/', '/path/../other/./x', 'file:../y', 'sub/dir/',
  'http://example.org/?a=b&c=d', '\\\\backslash', 'http://[2001:db8::1]/', 'x?y#z', 'blob:https://example.org/uuid',
  'http://example.org/%2e%2e/a', 'http://a.example/b?c#d', 'tel:+123456', 'urn:isbn:0000', 'http://example.org:/x',
  'ftp://files.example/readme', 'https://example.org/#', 'http://example.org/?', 'javascript:1', 'http://ex ample.org/'
]

let generated
/** ~400 [input, base] pairs (40 inputs x 10 bases); every pair parses or throws the same way every time. */
function generatedUrlData () {
  if (!generated) {
    generated = []
    for (const base of BASES) for (const input of INPUTS) generated.push([input, base])
  }
  return generated
}

/**
 * The data of a URL benchmark, repeated 2 ** e times.
 * @param {string} type 'wpt' or a key of `urls`
 * @param {number} [e] the repetition, as an exponent of 2
 * @param {boolean} [withBase] [input, base] pairs instead of strings
 * @param {boolean} [asUrl] URL objects instead of strings (entries that do not parse are left out)
 * @returns {Array<string|string[]|URL>}
 */
function bakeUrlData (type, e = 0, withBase = false, asUrl = false) {
  let result
  if (type === 'wpt') {
    // As Node does with WPT: with a base, the pairs; without, the bases (not about:blank).
    result = withBase ? generatedUrlData().slice() : generatedUrlData().map(([, base]) => base).filter((b) => b !== 'about:blank')
  } else if (Object.prototype.hasOwnProperty.call(urls, type)) {
    result = new Array(200).fill(withBase ? [urls[type], 'about:blank'] : urls[type])
  } else {
    throw new Error(`Unknown url data type ${type}`)
  }
  if (typeof e !== 'number') throw new Error(`e must be a number, received ${e}`)
  for (let i = 0; i < e; i++) result = result.concat(result)
  if (asUrl) {
    const out = []
    for (const item of result) {
      try {
        out.push(withBase ? new URL(item[0], item[1]) : new URL(item))
      } catch {}
    }
    result = out
  }
  return result
}

/**
 * Node's internal bindings, for files run with --expose-internals (Node core's
 * own benchmarks of internals); process.binding elsewhere.
 * @param {string} name
 */
function binding (name) {
  try {
    // @ts-expect-error a module of node's own, there only under --expose-internals
    const { internalBinding } = require('internal/test/binding') // lazy: Node's own module, there only under --expose-internals
    return internalBinding(name)
  } catch {
    // Node core's own fallback when internals are not exposed.
    // eslint-disable-next-line n/no-deprecated-api
    return /** @type {NodeJS.Process & {binding: (name: string) => object}} */ (process).binding(name)
  }
}

module.exports = {
  urls,
  searchParams,
  urlDataTypes: Object.keys(urls).concat(['wpt']),
  bakeUrlData,
  binding,
  buildType: process.features && process.features.debug ? 'Debug' : 'Release'
}
