'use strict'
// Node core's kind: path.posix.join of a few segments.
const common = require('../common.js')
const path = require('node:path')
const bench = common.createBenchmark(main, { paths: ['/foo|bar||baz/asdf|quux/..', 'a|b'], n: [2e5] })

function main ({ paths, n }) {
  const args = paths.split('|')
  let s = 0
  bench.start()
  for (let i = 0; i < n; i++) s += path.posix.join(...args).length
  bench.end(n)
  if (s === 0) throw new Error('empty')
}
