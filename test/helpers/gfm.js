'use strict'
// The part of GitHub-flavoured Markdown a benchrig PR comment uses, rendered
// to HTML with GitHub's block rules where a comment can go wrong:
//  - an HTML block (<details>, <summary>, <!-- -->) runs to the next blank
//    line, and Markdown inside it is not rendered (a table right after
//    <summary> without a blank line shows as raw pipes on GitHub);
//  - a table is a header row, a delimiter row (---, :--, --:) and rows up to
//    a blank line; cells split on unescaped pipes ("\|" is a pipe in a cell),
//    a row with more cells than the header loses the extra ones (GitHub
//    drops them), one with fewer gets empty cells;
//  - lists ("- "), block quotes ("> "), ATX headings, paragraphs;
//  - inline: code spans, **strong**, _emphasis_, inline HTML passed through.
// Enough to check in a real browser that the comment's structure survives
// rendering; not a general Markdown implementation.

const escapeHtml = (s) => s.replace(/&(?![a-z]+;|#\d+;)/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Inline Markdown: code spans first (their content is literal), then strong and emphasis. */
function inline (text) {
  const parts = text.split(/(`[^`]*`)/)
  return parts.map((p, i) => {
    if (i % 2 === 1) return `<code>${escapeHtml(p.slice(1, -1))}</code>`
    return p
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[\s(])_([^_]+)_(?=$|[\s).,:;])/g, '$1<em>$2</em>')
  }).join('')
}

/** Cells of a table row: split on pipes that are not escaped (also inside code spans, as GFM does). */
function cells (line) {
  let s = line.trim()
  if (s.startsWith('|')) s = s.slice(1)
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1)
  const out = []
  let cur = ''
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '|') { cur += '|'; i++; continue }
    if (s[i] === '|') { out.push(cur.trim()); cur = ''; continue }
    cur += s[i]
  }
  out.push(cur.trim())
  return out
}

const isDelimiter = (line) => /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line.trim())
const startsHtml = (line) => /^\s{0,3}<(\/?(details|summary|div|p|table|br)\b|!--)/i.test(line)

/**
 * @param {string} md
 * @returns {string} HTML of the body
 */
function renderGfm (md) {
  const lines = md.split('\n')
  const out = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (line.trim() === '') { i++; continue }
    if (startsHtml(line)) {
      // an HTML block: raw up to the next blank line
      while (i < lines.length && lines[i].trim() !== '') out.push(lines[i++])
      continue
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line)
    if (h) { out.push(`<h${h[1].length}>${inline(h[2])}</h${h[1].length}>`); i++; continue }
    if (line.includes('|') && i + 1 < lines.length && isDelimiter(lines[i + 1])) {
      const head = cells(line)
      const align = cells(lines[i + 1]).map((c) => (c.endsWith(':') ? (c.startsWith(':') ? 'center' : 'right') : c.startsWith(':') ? 'left' : ''))
      i += 2
      const rows = []
      while (i < lines.length && lines[i].trim() !== '' && !startsHtml(lines[i])) rows.push(cells(lines[i++]))
      const td = (tag, c, k) => `<${tag}${align[k] ? ` align="${align[k]}"` : ''}>${inline(c)}</${tag}>`
      out.push('<table><thead><tr>' + head.map((c, k) => td('th', c, k)).join('') + '</tr></thead><tbody>')
      for (const r of rows) out.push('<tr>' + head.map((_, k) => td('td', r[k] ?? '', k)).join('') + '</tr>')
      out.push('</tbody></table>')
      continue
    }
    if (/^\s*- /.test(line)) {
      out.push('<ul>')
      while (i < lines.length && /^\s*- /.test(lines[i])) out.push(`<li>${inline(lines[i++].replace(/^\s*- /, ''))}</li>`)
      out.push('</ul>')
      continue
    }
    if (line.startsWith('>')) {
      const q = []
      while (i < lines.length && lines[i].startsWith('>')) q.push(lines[i++].replace(/^>\s?/, ''))
      out.push(`<blockquote><p>${inline(q.join(' '))}</p></blockquote>`)
      continue
    }
    const p = []
    while (i < lines.length && lines[i].trim() !== '' && !startsHtml(lines[i]) && !/^#{1,6}\s/.test(lines[i]) && !(lines[i].includes('|') && i + 1 < lines.length && isDelimiter(lines[i + 1]))) p.push(lines[i++])
    out.push(`<p>${inline(p.join('\n'))}</p>`)
  }
  return out.join('\n')
}

module.exports = { renderGfm, cells }
