'use strict'
// The A/A of compare --cmd --runner mitata (refs-mitata.test.js says why apart).
require('./_refs-case.js').refsCase('mitata', { parts: ['aa'] })
