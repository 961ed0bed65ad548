'use strict'
// compare --cmd --runner mitata with two git refs (test/runners/_refs-case.js).
require('./_refs-case.js').refsCase('mitata')
