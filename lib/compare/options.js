'use strict'
// The options of one comparison, as a type only: lib/cli/compare.js builds
// them from the command line (parseCompareArgs), lib/compare/session.js and
// the pieces it hands them to (rules, sinks, pin, plan) read them. Checked by
// tsc (tsconfig.check.json); nothing here runs.

/**
 * What analyze and compare --analyze do with the rows: lib/stats/analyze.js's
 * options plus how the result is shown (lib/cli/analysis-flags.js parses them).
 * @typedef {object} AnalysisOptions
 * @property {string} format --format: text (the default), markdown, json or github
 * @property {string} [marker] --marker: the name in the github comment's hidden marker
 * @property {string} [plot] --plot: the .svg file of the PR figure
 * @property {number} threshold ±% inside which a CI means "no change" (default 1)
 * @property {number} alpha significance level of q and the verdicts (default 0.05)
 * @property {number} [maxRegression] --max-regression: % slowdown that fails the gate (exit 1)
 * @property {number} [minEffect] --min-effect: % below which no change is called faster or slower
 * @property {false} [paired] false with --unpaired (ignore the pair column)
 * @property {boolean} wide --wide: one line per configuration however long
 */

/**
 * @typedef {object} CompareOptions
 * @property {import('../sides/index.js').SideSource} sideSource which sides the flags ask for (binaries, refs, packages; cmd: --cmd)
 * @property {import('./sides.js').Sides} [sides] the two built sides (set by main() once buildSides has made them)
 * @property {string} [profile] --profile: the folder of the .cpuprofile files of the configurations found slower
 * @property {string} root the benchmark folder (--root; with --cmd the folder the command runs in)
 * @property {string[]} categories the categories (or "all") to run
 * @property {string[]} filter --filter: only files whose name matches one
 * @property {string[]} exclude --exclude: files to skip
 * @property {string[]} args unscoped --set key=value, passed to every file
 * @property {import('./scoped-set.js').ScopedSet[]} [scopedSets] --set SCOPE:key=value, resolved per file in the session
 * @property {Map<string, string[]>} [fileArgs] each file's own arguments when a --set is scoped (the session sets it for the plan)
 * @property {{file: string} & Record<string, any>} [question] --question: the file (absolute) and its normalised content
 * @property {string} [cpuset] --cpuset (or --set CPUSET=): the CPUs every run is pinned to
 * @property {number} [timeout] --timeout in seconds (0: no limit; undefined: the default)
 * @property {boolean} strict --strict: an undeclared --set key fails the file
 * @property {boolean} csv --csv: with --analyze the CSV still goes to stdout, the analysis to stderr
 * @property {number} [scale] --scale N: round rates to multiples of 1/N before analysing
 * @property {number} [seed] --seed (or the round plan's): the seed of the run order; undefined: random
 * @property {number} [runs] --runs N: pairs per file (undefined with auto, seq or --plan)
 * @property {{pilot: number, target: number, maxPairs: number, timeBudgetMs?: number}} [auto] --runs auto: pilot pairs, wanted CI half-width, pair cap, time budget
 * @property {{alpha: number, threshold: number, maxPairs: number}} [seq] --runs seq: the sequential rule's level, equivalence margin and pair cap
 * @property {number} warmup --warmup: unmeasured runs of each file with each binary first
 * @property {import('../record/measures.js').MeasureName} measure --measure: what the rate counts
 * @property {string} [output] --output (or --resume) FILE: the CSV written row by row
 * @property {boolean} resume --resume: continue the file named by output
 * @property {boolean} resumeUnverified --resume-unverified: continue a file that records no sides
 * @property {string} [ndjson] --ndjson FILE: metadata, then one record per row
 * @property {{db: string, labels?: ReturnType<typeof import('../history/ingest.js').sideLabels>}} [history] --history DB and --history-label
 * @property {boolean} analyze --analyze: print the analysis instead of CSV
 * @property {AnalysisOptions} analysis the analysis flags, as for benchrig analyze
 * @property {boolean} progress false with --no-progress
 * @property {import('./shard-spec.js').Shard} [shard] --shard I/N|auto: this shard of the seeded plan
 * @property {import('./plan-file.js').RoundPlan} [plan] --plan FILE: the round to run
 * @property {{line: string, name: string, runner: import('../runners/index.js').Runner}} [command] --cmd and --runner: a runner's command instead of benchmark files
 * @property {boolean} [float] --float: serial runs float between the CPUs instead of one CPU per pair
 * @property {'serial'|'duet'} [executor] how the runs of a pair go (default serial; duet with --duet)
 * @property {{sets: [string, string]}} [duet] --duet: the two CPU sets (--cpuset-old, --cpuset-new or an even split)
 * @property {string[]} [warnings] what parsing warns of (printed before any run)
 * @property {boolean} [probe] false: no CPU probe before each pair
 */

module.exports = {}
