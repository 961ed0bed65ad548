'use strict'
// The `benchrig load` flags of data feeds (--feed FILE): rows that fill
// {{column}} in the URL's path, the headers and the body, a row per
// iteration (lib/engine/options/feed-options.js checks them).
const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

const FEEDS = 'Data feeds'

/** @type {import('./help.js').OptionSpec[]} */
const FEED_OPTIONS = [
  { name: 'feed', type: 'string', value: 'FILE', group: FEEDS, describe: 'rows of data (CSV with a header, a JSON array of objects, NDJSON) for {{column}} in the URL path, -H values and the body, a row per request (per pass of a sequence); hooks get it as context.row' },
  { name: 'feed-mode', type: 'string', value: 'MODE', group: FEEDS, default: 'sequential', describe: 'sequential (in file order, one cursor shared by all connections and workers), random (seeded) or unique (connection i of c takes rows i, i+c, ...)' },
  { name: 'feed-seed', type: 'string', value: 'N', group: FEEDS, describe: 'with --feed-mode random: the seed (default 1)' },
  { name: 'feed-end', type: 'string', value: 'WHAT', group: FEEDS, default: 'wrap', describe: 'when the rows are used up: wrap (start again) or stop (sequential: the run sends one request per row; unique: each connection stops after its rows)' },
  { name: 'feed-format', type: 'string', value: 'FMT', group: FEEDS, describe: 'csv, json or ndjson when the file\'s extension does not say' }
]

/** Load options from the parsed flags (a default is passed only when the flag was given: the engine applies it). */
function feedOptions (args, argv) {
  const typed = (flag) => argv.some((a) => a === flag || a.startsWith(`${flag}=`))
  return {
    feed: last(args.feed),
    feedMode: typed('--feed-mode') ? last(args.feedMode) : undefined,
    feedSeed: last(args.feedSeed),
    feedEnd: typed('--feed-end') ? last(args.feedEnd) : undefined,
    feedFormat: last(args.feedFormat)
  }
}

module.exports = { FEED_OPTIONS, FEED_GROUP: FEEDS, feedOptions }
