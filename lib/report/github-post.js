'use strict'
// Posts a PR comment body (analyze --format github) as one sticky comment:
// the comment of the pull request whose body starts with the same hidden
// marker is edited, else one is created. Used by the repository's composite
// action (action.yml). Without a token (a pull request from a fork, whose
// workflow gets none that may write; or a dry run) the body and where it
// would go are written to a file instead, for the second workflow of the
// two-workflow pattern (examples/github-actions/) to post.
//
//   node lib/report/github-post.js BODY.md
//   env: GITHUB_TOKEN, GITHUB_API_URL (default https://api.github.com),
//        GITHUB_REPOSITORY (owner/name), PR_NUMBER (or the event's),
//        GITHUB_EVENT_PATH, BENCHRIG_COMMENT_OUT (the file without a token)
const fs = require('node:fs')
const { MARKER_PREFIX } = require('./github.js')

/**
 * The pull request's number: PR_NUMBER, else the event's.
 * @param {NodeJS.ProcessEnv} env
 */
function prNumber (env) {
  if (env.PR_NUMBER) return Number(env.PR_NUMBER)
  if (!env.GITHUB_EVENT_PATH) return undefined
  const event = JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8'))
  return event.pull_request?.number ?? event.issue?.number ?? event.number
}

/**
 * @param {string} body the comment (its first line is the marker)
 * @param {{env?: NodeJS.ProcessEnv, fetch?: typeof fetch, log?: (m: string) => void}} [o]
 * @returns {Promise<{action: 'created'|'updated'|'written', id?: number, file?: string}>}
 */
async function postSticky (body, o = {}) {
  const env = o.env ?? process.env
  const log = o.log ?? (() => {})
  const marker = body.split('\n', 1)[0]
  if (!marker.startsWith(MARKER_PREFIX)) throw new Error(`the comment does not start with benchrig's marker (${MARKER_PREFIX} ... -->): give the output of analyze --format github`)
  const number = prNumber(env)
  if (!env.GITHUB_TOKEN) {
    const file = env.BENCHRIG_COMMENT_OUT || 'benchrig-comment.json'
    fs.writeFileSync(file, JSON.stringify({ repository: env.GITHUB_REPOSITORY ?? null, pr: number ?? null, marker, body }) + '\n')
    log(`no GITHUB_TOKEN: the comment for pull request ${number ?? '(unknown)'} was written to ${file}`)
    return { action: 'written', file }
  }
  if (!number || !env.GITHUB_REPOSITORY) throw new Error('posting needs GITHUB_REPOSITORY and the pull request\'s number (PR_NUMBER or a pull_request event)')
  const doFetch = o.fetch ?? fetch
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, '')
  const headers = { authorization: `Bearer ${env.GITHUB_TOKEN}`, accept: 'application/vnd.github+json', 'content-type': 'application/json', 'user-agent': 'benchrig' }
  const call = async (method, url, payload) => {
    const res = await doFetch(url, { method, headers, body: payload ? JSON.stringify(payload) : undefined })
    if (!res.ok) throw new Error(`${method} ${url.replace(api, '')}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`)
    return res.json()
  }
  const base = `${api}/repos/${env.GITHUB_REPOSITORY}/issues`
  let found
  for (let page = 1; page <= 50 && !found; page++) {
    const list = await call('GET', `${base}/${number}/comments?per_page=100&page=${page}`)
    found = list.find((c) => typeof c.body === 'string' && c.body.split('\n', 1)[0] === marker)
    if (list.length < 100) break
  }
  if (found) {
    await call('PATCH', `${base}/comments/${found.id}`, { body })
    log(`updated comment ${found.id} on pull request ${number}`)
    return { action: 'updated', id: found.id }
  }
  const made = await call('POST', `${base}/${number}/comments`, { body })
  log(`created comment ${made.id} on pull request ${number}`)
  return { action: 'created', id: made.id }
}

if (require.main === module) {
  const file = process.argv[2]
  if (!file) {
    process.stderr.write('usage: node lib/report/github-post.js BODY.md\n')
    process.exitCode = 2
  } else {
    postSticky(fs.readFileSync(file, 'utf8'), { log: (m) => process.stdout.write(`benchrig: ${m}\n`) })
      .catch((err) => { process.stderr.write(`benchrig: posting the comment failed: ${err.message}\n`); process.exitCode = 1 })
  }
}

module.exports = { postSticky, prNumber }
