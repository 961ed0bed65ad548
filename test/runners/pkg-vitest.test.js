'use strict'
// compare --cmd --runner vitest with two versions of escape-html
// (test/runners/_pkg-case.js). A vitest run starts vite first (1.5 to 4 s
// here): at most 14 pairs for the change.
// Took 82 s at a load of 2.4-6.8, 111-130 s at 5.3-7.2 (2 cores).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('vitest', { ...PKG_PROJECTS.vitest, pairs: 14 })
