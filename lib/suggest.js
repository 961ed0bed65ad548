'use strict'
// "Did you mean": the known flag nearest to an unknown one, so a typo gets one
// line that names the fix instead of a list of every option.

/** Optimal string alignment distance (Levenshtein plus swapped neighbours). */
function editDistance (a, b) {
  const rows = a.length + 1
  const cols = b.length + 1
  const d = Array.from({ length: rows }, (_, i) => { const r = new Array(cols).fill(0); r[0] = i; return r })
  for (let j = 0; j < cols; j++) d[0][j] = j
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}

/** camelCase and kebab-case spell the same flag: compare them in one form. */
const fold = (name) => name.replace(/^-+/, '').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

/**
 * The known name nearest to `name`, or undefined when none is close (more than
 * a third of the letters would change).
 * @param {string} name what the user typed, with or without dashes
 * @param {Iterable<string>} known known names, without dashes
 * @returns {string|undefined}
 */
function nearest (name, known) {
  const typed = fold(name)
  let best
  let bestDistance = Infinity
  for (const k of known) {
    const dist = editDistance(typed, fold(k))
    if (dist < bestDistance) { best = k; bestDistance = dist }
  }
  if (best === undefined || typed === '') return undefined
  return bestDistance <= Math.max(1, Math.floor(typed.length / 3)) ? best : undefined
}

/**
 * The sentence to add to an "unknown option" error, or '' when no flag is near.
 * @param {string} name
 * @param {Iterable<string>} known long flag names without dashes
 */
function didYouMean (name, known) {
  const hit = nearest(name, known)
  if (hit === undefined) return ''
  return ` (did you mean --${hit}?)`
}

module.exports = { nearest, didYouMean, editDistance }
