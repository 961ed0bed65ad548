'use strict'
// A small seeded PRNG (xoshiro128** over four 32-bit words, seeded through
// splitmix32) for the compare schedule and for the statistics simulations.
// Same seed, same sequence, on every Node version.

function splitmix32 (state) {
  let s = state >>> 0
  return () => {
    s = (s + 0x9e3779b9) >>> 0
    let z = s
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
}

function rotl (x, k) {
  return ((x << k) | (x >>> (32 - k))) >>> 0
}

/**
 * @param {number} seed any integer (only the low 32 bits are used)
 * @returns {{next: () => number, uniform: () => number, normal: () => number, int: (n: number) => number, shuffle: <T>(a: T[]) => T[]}}
 */
function createRng (seed) {
  const init = splitmix32(Number(seed) >>> 0)
  const s = new Uint32Array([init(), init(), init(), init()])
  function next () {
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0
    const t = (s[1] << 9) >>> 0
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 11)
    return result
  }
  // 53 random bits in [0, 1).
  function uniform () {
    return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992
  }
  let spare
  // Box-Muller; keeps the second value of each pair.
  function normal () {
    if (spare !== undefined) {
      const v = spare
      spare = undefined
      return v
    }
    let u = 0
    while (u === 0) u = uniform()
    const v = uniform()
    const r = Math.sqrt(-2 * Math.log(u))
    spare = r * Math.sin(2 * Math.PI * v)
    return r * Math.cos(2 * Math.PI * v)
  }
  function int (n) {
    return Math.floor(uniform() * n)
  }
  // Fisher-Yates, in place.
  function shuffle (a) {
    for (let i = a.length - 1; i > 0; i--) {
      const j = int(i + 1)
      const tmp = a[i]
      a[i] = a[j]
      a[j] = tmp
    }
    return a
  }
  return { next, uniform, normal, int, shuffle }
}

/** A fresh random seed (when the user gives none). */
function randomSeed () {
  return Math.floor(Math.random() * 0x7fffffff) + 1
}

module.exports = { createRng, randomSeed }
