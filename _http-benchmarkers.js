'use strict'
// The registry of HTTP load generators under the file name of Node core's
// benchmark/_http-benchmarkers.js: run, detect, list, register. The code is
// lib/adapters/registry.js; this is the same module object, so an adapter a
// user registers here is the one bench.http() finds.
module.exports = require('./lib/adapters/registry.js')
