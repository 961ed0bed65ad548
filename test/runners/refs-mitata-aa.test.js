'use strict'
// The A/A of compare --cmd --runner mitata (refs-mitata.test.js says why apart).
// 8 pairs (a seq call can come from the 7th): 16 runs of 3-8 s within tap's 240 s
require('./_refs-case.js').refsCase('mitata', { parts: ['aa'], aaPairs: 8 })
