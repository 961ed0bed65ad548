'use strict'
// compare --cmd --runner mitata with two versions of escape-html
// (test/runners/_pkg-case.js). mitata has no time setting (each process
// measures four empty functions, then at least 0.64 s of CPU per benchmark:
// ~3-8 s a run here), so its A/A is a file of its own: pkg-mitata-aa.test.js.
// At most 10 pairs (20 runs): escape was called at the 9th pair in every
// run here (the first at which one task can be called: _pkg-case.js),
// control's futility stop came at the 10th.
// Took 147 s at a load of 4-7, 165-168 s at 6.1-6.6 (2 cores): mitata's
// loops run to a wall-clock total, so load stretches a run little.
const { pkgCase } = require('./_pkg-case.js')
const { PKG_PROJECTS } = require('./_pkg-projects.js')
pkgCase('mitata', { ...PKG_PROJECTS.mitata, parts: ['change'], pairs: 10 })
