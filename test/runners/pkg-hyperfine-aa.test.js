'use strict'
// The A/A of compare --cmd --runner hyperfine with --old-pkg/--new-pkg
// (pkg-hyperfine.test.js says why apart).
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('hyperfine', { ...PKG_PROJECTS.hyperfine, parts: ['aa'] })
