'use strict'
// compare --cmd --runner hyperfine with two git refs (test/runners/_refs-case.js).
// --measure cpu: hyperfine's user + system seconds, which waiting for a CPU
// does not inflate; 10 node processes a run: at most 14 pairs for the change.
require('./_refs-case.js').refsCase('hyperfine', { loop: 200000, measure: 'cpu', pairs: 14 })
