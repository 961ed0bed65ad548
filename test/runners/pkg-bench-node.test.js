'use strict'
// compare --cmd --runner bench-node with two versions of escape-html
// (test/runners/_pkg-case.js).
// Took 26 s at a load of 2.5, 45-57 s at 6.5-7.3 (2 cores).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('bench-node', PKG_PROJECTS['bench-node'])
