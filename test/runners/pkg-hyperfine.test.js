'use strict'
// compare --cmd --runner hyperfine with two versions of escape-html
// (test/runners/_pkg-case.js): the configurations are two commands. 10 node
// processes a run: at most 14 pairs for the change, and the A/A in a file of
// its own (pkg-hyperfine-aa.test.js).
// Took 48 s at a load of 7-9 (others' work), 81-99 s at 5.1-6.9 with
// three to four busy loops beside it (2 cores).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('hyperfine', { ...PKG_PROJECTS.hyperfine, parts: ['change'], pairs: 14 })
