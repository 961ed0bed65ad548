'use strict'
// An analysis as output: the one switch over --format (text, markdown, json,
// github) that analyze and compare --analyze print through, and the PR figure
// written as a standalone SVG file (--plot). Views only: the numbers come in
// finished (lib/stats/analyze.js).
const fs = require('node:fs')
const { UsageError } = require('../errors.js')
const { formatAnalysisText } = require('./analysis-text.js')
const { formatAnalysisMarkdown } = require('./markdown.js')
const { formatGithubComment } = require('./github.js')
const { forestModel } = require('./forest.js')
const { renderForestSvg } = require('./forest-svg.js')

/**
 * Renders an analysis in a format.
 * @param {object} a
 * @param {string} format
 * @param {{wide?: boolean}} [textOptions]
 * @param {Parameters<typeof formatGithubComment>[1]} [github] the rows and metadata the github format reads
 */
function render (a, format, textOptions = {}, github = { rows: [] }) {
  if (format === 'json') return JSON.stringify(a, null, 2) + '\n'
  if (format === 'github') return formatGithubComment(/** @type {any} */ (a), github)
  if (format === 'markdown') return formatAnalysisMarkdown(a)
  return formatAnalysisText(a, textOptions)
}

/**
 * Writes the PR figure of an analysis as SVG.
 * @param {ReturnType<typeof import('../stats/analyze.js').analyze>} a
 * @param {string} file
 * @param {{measure?: string}} [opts]
 */
function writePlot (a, file, opts = {}) {
  try {
    fs.writeFileSync(file, renderForestSvg(forestModel(a, opts)))
  } catch (err) {
    if (!err.code) throw err
    throw new UsageError(`--plot ${file}: cannot write it (${err.code}); give a file in a writable folder`)
  }
}

module.exports = { render, writePlot }
