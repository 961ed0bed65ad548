'use strict'
// Preloaded (node --require) by the wrapper binaries of bench/noise.js and
// the measure tests: BENCHRIG_EXTRA_WORK (a fraction, e.g. 0.02) more work per
// reported operation in bench/noise-suite/loop/work.js.
globalThis.__benchrigExtraWork = Number(process.env.BENCHRIG_EXTRA_WORK) || 0
