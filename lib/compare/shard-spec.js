'use strict'
// Which shard this process is: `--shard I/N` given by hand, or `--shard auto`
// read from the scheduler that started it. Shared by compare and load, so
// that one job array can run either with the same flags.
const { UsageError } = require('../errors.js')

/**
 * @typedef {{index: number, count: number, source: string}} Shard
 *   index: 0-based, below count; source: where it came from (for messages)
 */

function whole (raw) {
  return typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined
}

/**
 * Parses "I/N" (0 <= I < N).
 * @param {string} raw
 * @param {string} where the flag or variable, for the message
 * @returns {Shard}
 */
function parseIndexOfCount (raw, where) {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw)
  if (!m) throw new UsageError(`${where} ${raw}: expected I/N with 0 <= I < N (e.g. 0/4), or auto`)
  const index = Number(m[1])
  const count = Number(m[2])
  if (count < 1 || index >= count) throw new UsageError(`${where} ${raw}: the index is 0-based and must be below the count (0/${Math.max(count, 1)} to ${Math.max(count, 1) - 1}/${Math.max(count, 1)})`)
  return { index, count, source: where }
}

/**
 * The shard of this process from the scheduler's environment, in this order:
 * Slurm job arrays (SLURM_ARRAY_TASK_ID, less SLURM_ARRAY_TASK_MIN so that
 * --array=1-3 works too, and SLURM_ARRAY_TASK_COUNT); Kubernetes Indexed Jobs
 * (JOB_COMPLETION_INDEX, with the count from --shard-count or
 * BENCHRIG_SHARD_COUNT, since the pod is not told its job's completions);
 * BENCHRIG_SHARD=I/N (CI matrices, by hand).
 * @param {NodeJS.ProcessEnv} env
 * @param {number} [countFlag] --shard-count
 * @returns {Shard}
 */
function shardFromEnv (env, countFlag) {
  const task = whole(env.SLURM_ARRAY_TASK_ID)
  if (task !== undefined) {
    const count = whole(env.SLURM_ARRAY_TASK_COUNT)
    const min = whole(env.SLURM_ARRAY_TASK_MIN) ?? 0
    const step = whole(env.SLURM_ARRAY_TASK_STEP) ?? 1
    if (count === undefined) throw new UsageError('--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; submit with sbatch --array=0-(N-1)')
    const index = (task - min) / step
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw new UsageError(`--shard auto: Slurm task ${task} of an array of ${count} from ${min} step ${step} is not a shard; use a contiguous --array such as 0-${count - 1}`)
    }
    return { index, count, source: 'Slurm job array' }
  }
  const k8s = whole(env.JOB_COMPLETION_INDEX)
  if (k8s !== undefined) {
    const count = countFlag ?? whole(env.BENCHRIG_SHARD_COUNT)
    if (count === undefined) throw new UsageError('--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the count: pass --shard-count N or set BENCHRIG_SHARD_COUNT to the job\'s completions')
    return { ...parseIndexOfCount(`${k8s}/${count}`, 'JOB_COMPLETION_INDEX'), source: 'Kubernetes Indexed Job' }
  }
  if (env.BENCHRIG_SHARD !== undefined && env.BENCHRIG_SHARD !== '') return parseIndexOfCount(env.BENCHRIG_SHARD, 'BENCHRIG_SHARD')
  throw new UsageError('--shard auto: no scheduler found in the environment (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or BENCHRIG_SHARD=I/N); give --shard I/N')
}

/**
 * @param {string|undefined} raw the --shard value
 * @param {{env?: NodeJS.ProcessEnv, shardCount?: string}} [ctx] shardCount: the --shard-count value
 * @returns {Shard|undefined}
 */
function parseShard (raw, { env = process.env, shardCount } = {}) {
  let countFlag
  if (shardCount !== undefined) {
    countFlag = whole(shardCount)
    if (!(countFlag >= 1)) throw new UsageError(`--shard-count ${shardCount}: give a whole number >= 1`)
    if (raw !== 'auto') throw new UsageError('--shard-count goes with --shard auto (a Kubernetes Indexed Job\'s completions)')
  }
  if (raw === undefined) return undefined
  if (raw === 'auto') return shardFromEnv(env, countFlag)
  return parseIndexOfCount(raw, '--shard')
}

module.exports = { parseShard, shardFromEnv, parseIndexOfCount }
