'use strict'
// compare --cmd --runner benchmarkjs (through benchrig/benchmarkjs-reporter)
// with two versions of escape-html (test/runners/_pkg-case.js).
// Took 47 s at a load of 2.5, 61-70 s at 5.7-7.3 (2 cores).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('benchmarkjs', PKG_PROJECTS.benchmarkjs)
