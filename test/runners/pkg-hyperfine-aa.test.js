'use strict'
// The A/A of compare --cmd --runner hyperfine with --old-pkg/--new-pkg
// (pkg-hyperfine.test.js says why apart).
// 10 pairs. Took 47 s at a load of 7-9 (others' work), 59-79 s at 6.1-7.2
// with three to four busy loops beside it (2 cores).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('hyperfine', { ...PKG_PROJECTS.hyperfine, parts: ['aa'] })
