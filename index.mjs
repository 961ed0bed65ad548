// The package's ESM entry: `import { createBenchmark } from 'benchrig'`.
// Node gives a CommonJS module's named exports to `import` by reading each
// of them once the module has run, which would load every lazy part of
// index.js (the engine, the statistics, the server: about 10 MB more RSS in
// every benchmark child). These functions load their part on first call, as
// index.js does; the default export is index.js's own object, so require()
// and import share one instance.
import api from './index.js'

export default api

export function createBenchmark (main, configs, options) { return api.createBenchmark(main, configs, options) }
export function track (...args) { return api.track(...args) }
export function printResult (...args) { return api.printResult(...args) }
export function aggregateResult (...args) { return api.aggregateResult(...args) }
export function parseArguments (...args) { return api.parseArguments(...args) }
export function start (...args) { return api.start(...args) }
export function merge (...args) { return api.merge(...args) }
export function analyze (...args) { return api.analyze(...args) }
export function serve (...args) { return api.serve(...args) }
// autocannon's shape: load(opts, cb) with load.track, load.printResult, ...
export function load (...args) { return api.load(...args) }
Object.assign(load, { track, printResult, aggregateResult, parseArguments, start })
