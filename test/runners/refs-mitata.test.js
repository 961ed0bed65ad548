'use strict'
// compare --cmd --runner mitata with two git refs (test/runners/_refs-case.js).
// mitata has no time setting (each process measures four empty functions,
// then at least 0.64 s of CPU per benchmark: ~3-8 s a run here), so its A/A
// is a file of its own: refs-mitata-aa.test.js.
require('./_refs-case.js').refsCase('mitata', { parts: ['change'], pairs: 12 })
