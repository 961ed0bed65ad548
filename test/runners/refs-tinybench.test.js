'use strict'
// compare --cmd --runner tinybench with two git refs (test/runners/_refs-case.js).
require('./_refs-case.js').refsCase('tinybench')
