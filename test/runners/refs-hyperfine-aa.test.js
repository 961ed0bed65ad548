'use strict'
// The A/A of compare --cmd --runner hyperfine (refs-hyperfine.test.js says why apart).
require('./_refs-case.js').refsCase('hyperfine', { loop: 200000, measure: 'cpu', parts: ['aa'] })
