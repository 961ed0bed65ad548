'use strict'
// The A/A of compare --cmd --runner mitata with --old-pkg/--new-pkg
// (pkg-mitata.test.js says why apart). 8 pairs (a seq call can come from the
// 7th): 16 runs of 3-8 s within tap's 240 s.
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('mitata', { ...PKG_PROJECTS.mitata, parts: ['aa'], aaPairs: 8 })
