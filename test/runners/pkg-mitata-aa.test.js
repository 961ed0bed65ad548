'use strict'
// The A/A of compare --cmd --runner mitata with --old-pkg/--new-pkg
// (pkg-mitata.test.js says why apart). 9 pairs, the first at which a call
// of one task can come (_pkg-case.js): 18 runs of ~7 s within tap's 240 s.
// At 8 pairs it took 120 s at a load of 4.3, 133-134 s at 5.4-6.2; at 9,
// 143-158 s at 5.6-5.7 (2 cores, three busy loops beside it).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('mitata', { ...PKG_PROJECTS.mitata, parts: ['aa'], aaPairs: 9 })
