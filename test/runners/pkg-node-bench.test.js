'use strict'
// compare --cmd --runner node-bench (node 26, --node) with two versions of
// escape-html (test/runners/_pkg-case.js).
// Took 30-39 s here, at loads of 2.4 to 6.4 (2 cores).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('node-bench', PKG_PROJECTS['node-bench'])
