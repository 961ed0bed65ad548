'use strict'
// compare --cmd --runner bench-node with two versions of escape-html
// (test/runners/_pkg-case.js).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('bench-node', PKG_PROJECTS['bench-node'])
