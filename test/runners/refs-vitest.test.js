'use strict'
// compare --cmd --runner vitest with two git refs (test/runners/_refs-case.js).
// A vitest run starts vite first (1.5 to 4 s here): at most 14 pairs for the change.
require('./_refs-case.js').refsCase('vitest', { pairs: 14 })
