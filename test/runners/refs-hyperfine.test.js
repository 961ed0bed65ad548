'use strict'
// compare --cmd --runner hyperfine with two git refs (test/runners/_refs-case.js).
// --measure cpu: hyperfine's user + system seconds, which waiting for a CPU
// does not inflate. 10 node processes a run (3-5 s here): at most 14 pairs
// for the change, and the A/A in a file of its own (refs-hyperfine-aa.test.js):
// both parts took 202 s at a load of 14, near tap's 240 s.
require('./_refs-case.js').refsCase('hyperfine', { loop: 200000, measure: 'cpu', pairs: 14, parts: ['change'] })
