'use strict'
// compare --cmd --runner benchmarkjs (through benchrig/benchmarkjs-reporter)
// with two versions of escape-html (test/runners/_pkg-case.js).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('benchmarkjs', PKG_PROJECTS.benchmarkjs)
