'use strict'
// The one help system of every command: options declared once as specs (name,
// alias, value placeholder, group, text), rendered in groups with the common
// flags first, placeholders instead of types, wrapped to the terminal, and
// examples last (the layout of autocannon's and hyperfine's help). yargs
// commands register the same specs, so help and parsing cannot drift apart.

/**
 * @typedef {object} OptionSpec
 * @property {string} name kebab-case long name (camelCase is accepted too)
 * @property {string} [alias] one-letter short flag
 * @property {'string'|'boolean'} type
 * @property {string} [value] placeholder shown after the flag, e.g. N, FILE, RPS
 * @property {string} describe
 * @property {string|boolean} [default] shown as "(default X)" (a true boolean as "on") and passed to yargs
 * @property {string} group title of the group it is listed under
 * @property {boolean} [hidden] parsed but not listed (an old spelling)
 *
 * @typedef {object} HelpSpec
 * @property {string} usage the "Usage:" line(s), without the word
 * @property {string} [summary] a paragraph under the usage
 * @property {string[]} groups group titles in the order they are printed
 * @property {OptionSpec[]} options
 * @property {[string, string][]} [examples] [command, what it does]
 * @property {string} [footer]
 */

const DEFAULT_WIDTH = 100

/** Wraps words to lines of at most `width` characters (a long word stays whole). */
function wrap (text, width) {
  const lines = []
  for (const paragraph of String(text).split('\n')) {
    let line = ''
    for (const word of paragraph.split(/ +/)) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line)
        line = word
      } else {
        line = line === '' ? word : `${line} ${word}`
      }
    }
    lines.push(line)
  }
  return lines
}

/** `-c, --connections N` for one spec. */
function flagColumn (o) {
  const dashes = o.name.length === 1 ? '-' : '--'
  const long = `${dashes}${o.name}${o.value ? ` ${o.value}` : ''}`
  return o.alias ? `-${o.alias}, ${long}` : `    ${long}`
}

function describeWithDefault (o) {
  if (o.default === undefined || o.default === false) return o.describe
  return `${o.describe} (default ${o.default === true ? 'on' : o.default})`
}

/**
 * Renders a command's help.
 * @param {HelpSpec} spec
 * @param {{width?: number}} [opts] the terminal width (default 100, at least 60)
 * @returns {string}
 */
function renderHelp (spec, { width = DEFAULT_WIDTH } = {}) {
  width = Math.max(60, Math.min(width, 120))
  const out = [`Usage: ${spec.usage}`]
  if (spec.summary) out.push('', ...wrap(spec.summary, width))
  const shown = spec.options.filter((o) => !o.hidden)
  const flagWidth = Math.min(32, Math.max(...shown.map((o) => flagColumn(o).length)) + 2)
  const textWidth = width - flagWidth - 2
  for (const group of spec.groups) {
    const members = shown.filter((o) => o.group === group)
    if (members.length === 0) continue
    out.push('', `${group}:`)
    for (const o of members) {
      const flag = `  ${flagColumn(o)}`
      const text = wrap(describeWithDefault(o), textWidth)
      if (flag.length + 2 > flagWidth + 2) {
        out.push(flag)
        for (const t of text) out.push(`${' '.repeat(flagWidth + 2)}${t}`)
      } else {
        out.push(`${flag.padEnd(flagWidth + 2)}${text[0]}`)
        for (const t of text.slice(1)) out.push(`${' '.repeat(flagWidth + 2)}${t}`)
      }
    }
  }
  const orphans = shown.filter((o) => !spec.groups.includes(o.group))
  if (orphans.length > 0) throw new Error(`help: options without a listed group: ${orphans.map((o) => o.name).join(', ')}`)
  if (spec.examples?.length) {
    out.push('', 'Examples:')
    for (const [cmd, what] of spec.examples) {
      out.push(`  ${cmd}`)
      for (const t of wrap(what, width - 6)) out.push(`      ${t}`)
    }
  }
  if (spec.footer) out.push('', ...wrap(spec.footer, width))
  return out.join('\n')
}

/**
 * Registers specs as yargs options (kebab-case names: yargs also accepts and
 * sets the camelCase form, so autocannon's spellings keep working).
 * @param {import('yargs').Argv} y
 * @param {OptionSpec[]} specs
 */
function registerOptions (y, specs) {
  for (const o of specs) {
    /** @type {Record<string, any>} */
    const def = { type: o.type }
    if (o.alias) def.alias = o.alias
    if (o.default !== undefined) def.default = o.default
    y.option(o.name, def)
  }
  return y
}

/** The terminal's width for help text, or the default when not a TTY. */
function terminalWidth (stream = process.stdout) {
  return stream.isTTY && stream.columns ? stream.columns : DEFAULT_WIDTH
}

module.exports = { renderHelp, registerOptions, terminalWidth, wrap, DEFAULT_WIDTH }
