'use strict'
// Preloaded (node --require) on a package-version side: require(NAME) and
// require('NAME/...') resolve from that side's install prefix
// (BENCHRIG_PKG_NAME, BENCHRIG_PKG_PREFIX), before any node_modules folder
// of the benchmark's own project, which may hold a third version. The
// benchmark's children inherit the preload through their execArgv.
// An ESM `import` of NAME is redirected by import-hook.js, registered here
// (node 18.19 and later; older binaries redirect require only).
// Runs inside the binary under test: Node 18 APIs only.
/** @type {any} */
const Module = require('node:module')

const name = process.env.BENCHRIG_PKG_NAME
const prefix = process.env.BENCHRIG_PKG_PREFIX

if (name && prefix) {
  const resolve = Module._resolveFilename
  Module._resolveFilename = function (request, parent, isMain, options) {
    if (request === name || (typeof request === 'string' && request.startsWith(name + '/'))) {
      return resolve.call(this, request, parent, isMain, { ...options, paths: [prefix] })
    }
    return resolve.call(this, request, parent, isMain, options)
  }
  // in-thread hooks where node has them (no hooks thread, nothing async);
  // else the off-thread ones, which load import-hook.js as a module of their own
  if (typeof Module.registerHooks === 'function') {
    Module.registerHooks({ resolve: require('./import-hook.js').resolve })
  } else if (typeof Module.register === 'function') {
    Module.register(require('node:url').pathToFileURL(require.resolve('./import-hook.js')).href)
  }
}
