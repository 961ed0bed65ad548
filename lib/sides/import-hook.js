'use strict'
// The ESM half of a package-version side (require-hook.js does require):
// `import 'NAME'` and `import 'NAME/...'` resolve as if imported from the
// side's install prefix, so node's own resolution (exports, conditions,
// the package's type) finds that side's version. One function serves both
// hook APIs: node >= 22.15's in-thread module.registerHooks (synchronous
// nextResolve) and module.register's off-thread hooks (node 18.19 to 22.14,
// where it may return nextResolve's promise). require() calls are left to
// require-hook.js, which also covers node versions without either API.
// Runs inside the binary under test: Node 18 APIs only.
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const name = process.env.BENCHRIG_PKG_NAME
const prefix = process.env.BENCHRIG_PKG_PREFIX
// A file in the prefix as the importer: resolution climbs from there to
// prefix/node_modules/NAME.
const parentURL = name && prefix ? pathToFileURL(path.join(prefix, 'package.json')).href : undefined

/**
 * @param {string} specifier
 * @param {{conditions?: string[], parentURL?: string}} context
 * @param {(specifier: string, context?: object) => any} nextResolve
 */
function resolve (specifier, context, nextResolve) {
  const ours = parentURL !== undefined && (specifier === name || specifier.startsWith(name + '/'))
  if (!ours || (context.conditions && context.conditions.includes('require'))) return nextResolve(specifier, context)
  return nextResolve(specifier, { ...context, parentURL })
}

module.exports = { resolve }
