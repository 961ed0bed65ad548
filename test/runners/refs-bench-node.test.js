'use strict'
// compare --cmd --runner bench-node with two git refs (test/runners/_refs-case.js).
require('./_refs-case.js').refsCase('bench-node', { measure: 'cpu' })
