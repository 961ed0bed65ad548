'use strict'
// The held set of bench/time-to-verdict.js: a benchmark directory of its own.
module.exports = require('../../common.js')
