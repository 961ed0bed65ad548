'use strict'
// The CPU probe's child (lib/harness/cpu-probe.js): waits for "spin N" on
// IPC, runs the fixed loop N times on whatever CPU the driver pinned it to
// (taskset -p), and answers with the wall time each took; it ends when the
// driver disconnects (nothing else keeps it alive).
const { spin, LOOP } = require('./cpu-probe-loop.js')

spin(LOOP) // the loop is compiled before the first measurement
process.on('message', (/** @type {any} */ m) => {
  if (!m || m.type !== 'spin') return
  const ns = []
  // one more than asked: the first after a move to another CPU runs on cold caches
  for (let i = 0; i <= m.reps; i++) {
    const t0 = process.hrtime.bigint()
    spin(m.iterations)
    if (i > 0) ns.push(Number(process.hrtime.bigint() - t0))
  }
  process.send({ type: 'spun', ns })
})
