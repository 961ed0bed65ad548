'use strict'
// compare --cmd --runner tinybench with two versions of escape-html
// (test/runners/_pkg-case.js).
// Took 24-27 s here, at loads of 1.3 to 6.7 (2 cores).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('tinybench', PKG_PROJECTS.tinybench)
