'use strict'
// Node core's kind: EventEmitter#emit to one and to ten listeners.
const common = require('../common.js')
const { EventEmitter } = require('node:events')
const bench = common.createBenchmark(main, { listeners: [1, 10], n: [2e5] })

function main ({ listeners, n }) {
  const ee = new EventEmitter()
  let s = 0
  for (let i = 0; i < listeners; i++) ee.on('e', (x) => { s += x })
  bench.start()
  for (let i = 0; i < n; i++) ee.emit('e', 1)
  bench.end(n)
  if (s === 0) throw new Error('empty')
}
