'use strict'
// A benchmark directory of its own for bench/noise.js and the measure tests.
module.exports = require('../../common.js')
