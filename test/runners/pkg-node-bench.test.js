'use strict'
// compare --cmd --runner node-bench (node 26, --node) with two versions of
// escape-html (test/runners/_pkg-case.js).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('node-bench', PKG_PROJECTS['node-bench'])
