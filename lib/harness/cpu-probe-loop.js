'use strict'
// The probe's fixed work: integer arithmetic on a xorshift state, no memory
// traffic and no allocation, so its time on a CPU is the CPU's own speed as
// a pinned process gets it (frequency, steal, other work on that CPU).
const LOOP = 200000 // ~0.5 ms on a 3 GHz core; a probe runs it several times

/**
 * @param {number} n iterations
 * @returns {number} a checksum (so the loop cannot be optimised away)
 */
function spin (n) {
  let x = 0x2545f491
  let acc = 0
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    acc = (acc + (x & 0xffff) * 7) | 0
  }
  return acc
}

module.exports = { spin, LOOP }
