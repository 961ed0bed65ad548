'use strict'
// compare --cmd --runner hyperfine with two git refs (test/runners/_refs-case.js).
require('./_refs-case.js').refsCase('hyperfine', { loop: 200000, measure: 'cpu' })
