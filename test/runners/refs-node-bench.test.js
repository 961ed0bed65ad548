'use strict'
// compare --cmd --runner node-bench with two git refs (test/runners/_refs-case.js).
require('./_refs-case.js').refsCase('node-bench')
