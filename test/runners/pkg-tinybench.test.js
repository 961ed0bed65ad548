'use strict'
// compare --cmd --runner tinybench with two versions of escape-html
// (test/runners/_pkg-case.js).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('tinybench', PKG_PROJECTS.tinybench)
