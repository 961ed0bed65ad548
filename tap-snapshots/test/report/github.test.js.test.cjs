/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/report/github.test.js > TAP > compare --profile: the self-time table of each slower configuration, collapsed (snapshot of a real run) > github comment with the profile table of calls/two.js n=300 1`] = `
<!-- benchrig-report default -->
## benchrig: 1 slower, 0 faster, 0 no change, 0 inconclusive of 1 configuration

**Compared:** old node v20.20.2 (sha256 \`6295488653f0\`) → new node v20.20.2 (sha256 \`85d8e466b4d2\`)

> measure: cpu (rate = operations per CPU-second, user + system)

### :small_red_triangle_down: Slower (1)

| benchmark | configuration | change | 95% CI | q |
|---|---|--:|---|--:|
| calls/two.js | n=300 | **-50.02%** | [-52.31%, -49.06%] | 0.0313 * |

### Where the time went (compare --profile)

<details><summary><code>calls/two.js n=300</code>: <code>hashItems</code> +16.4 points of self time</summary>

| function | location | old self | new self | change (points) |
|---|---|--:|--:|--:|
| \`hashItems\` | \`calls/two.js:14:20\` | 42.3% | 58.7% | +16.4 |
| \`main\` | \`calls/two.js:23:15\` | 0.0% | 2.5% | +2.5 |
| \`_runMain\` | \`../../../lib/harness/bench.js:223:12\` | 0.0% | 0.8% | +0.8 |
| \`(anonymous)\` | \`node:internal/perf/observe:1:1\` | 0.0% | 0.8% | +0.8 |
| \`(anonymous)\` | \`../../../lib/harness/url-data.js:1:1\` | 0.0% | 0.8% | +0.8 |
| \`(anonymous)\` | \`node:internal/crypto/keys:1:1\` | 0.0% | 0.8% | +0.8 |
| \`(anonymous)\` | \`node:crypto:1:1\` | 0.0% | 0.8% | +0.8 |
| \`createBenchmark\` | \`../../../lib/harness/common-api.js:36:26\` | 0.0% | 0.8% | +0.8 |
| \`Duplex\` | \`node:internal/streams/duplex:65:16\` | 0.0% | 0.8% | +0.8 |
| \`end\` | \`../../../lib/harness/bench.js:126:7\` | 0.0% | 0.8% | +0.8 |

Self time as a share of each profile. Profiles for Chrome DevTools: \`profiles/calls_two.js-n=300.old.cpuprofile\`, \`profiles/calls_two.js-n=300.new.cpuprofile\`

</details>

<details><summary>All 1 configurations</summary>

| benchmark | configuration | pairs | change | 95% CI | q | verdict |
|---|---|--:|--:|---|--:|---|
| calls/two.js | n=300 | 6 | -50.02% | [-52.31%, -49.06%] | 0.0313 * | **slower** |
| **geomean** | 1 configurations | 6 | -50.02% | [-52.31%, -49.06%] | | |

</details>

<details><summary>Design</summary>

- stopping rule: fixed 6; pairs: 6 per file
- executor: serial
- measure: cpu; seed: 2; plan d158a71a3cc7490a
- test: Wilcoxon signed-rank on the pairs' log ratios, Hodges-Lehmann estimate; 95% CIs; q: Benjamini-Hochberg over 1; "no change" = the CI inside ±1%

</details>

<details><summary>Environment</summary>

- CPU: AMD EPYC ×2
- OS: linux 6.18.44-fc-v595 x64
- load average at the start: 3.65, 5.81, 11.75
- benchrig 0.1.0 on node v20.20.2
- host: AMD EPYC x2; linux 6.18.44-fc-v595; node v20.20.2

</details>

<details><summary>Warnings (1, 1 kind)</summary>

- **too-few-runs** (1): Too few pairs for narrow intervals: run compare with more pairs (--runs 30, or --runs seq to stop when each configuration is decided). \`calls/two.js n=300\`.

</details>

`

exports[`test/report/github.test.js > TAP > the comment body (snapshot) > github comment of paired.csv with its meta record 1`] = `
<!-- benchrig-report default -->
## benchrig: 2 slower, 1 faster, 0 no change, 2 inconclusive of 5 configurations

**Compared:** old node v22.11.0 (sha256 \`aaaaaaaaaaaa\`) → new node v22.12.0 (sha256 \`bbbbbbbbbbbb\`)

:x: **1 configuration shown to be slower than -5%** (the gate fails).

### :small_red_triangle_down: Slower (2)

| benchmark | configuration | change | 95% CI | q |
|---|---|--:|---|--:|
| buffers/b.js | type="slow" | **-10.83%** | [-11.53%, -9.83%] | 9.3e-9 *** |
| buffers/a.js | n=1 len="x,y" | **-3.45%** | [-4.55%, -2.41%] | 5.1e-7 *** |

### :small_red_triangle: Faster (1)

| benchmark | configuration | change | 95% CI | q |
|---|---|--:|---|--:|
| buffers/a.js | n=1 len=1024 | **+3.12%** | [+2.02%, +4.21%] | 6.3e-6 *** |

<details><summary>All 5 configurations</summary>

| benchmark | configuration | pairs | change | 95% CI | q | verdict |
|---|---|--:|--:|---|--:|---|
| buffers/a.js | n=1 len=16 | 30 | -0.74% | [-2.03%, +0.56%] | 0.3062 | inconclusive (within this machine's noise: deciding it would take ~6x the 30 pairs) |
| buffers/a.js | n=1 len=1024 | 30 | +3.12% | [+2.02%, +4.21%] | 6.3e-6 *** | **faster** |
| buffers/a.js | n=1 len="x,y" | 30 | -3.45% | [-4.55%, -2.41%] | 5.1e-7 *** | **slower** |
| buffers/b.js | type="fast" | 30 | -0.45% | [-1.44%, +0.64%] | 0.4045 | inconclusive (needs ~103 more pairs) |
| buffers/b.js | type="slow" | 30 | -10.83% | [-11.53%, -9.83%] | 9.3e-9 *** | **slower** |
| **geomean** | 5 configurations | 30 | -2.49% | [-2.99%, -2.07%] | | |

</details>

<details><summary>Design</summary>

- stopping rule: fixed 30; pairs: 30 per file
- executor: serial
- measure: wall; seed: 42
- test: Wilcoxon signed-rank on the pairs' log ratios, Hodges-Lehmann estimate; 95% CIs; q: Benjamini-Hochberg over 5; "no change" = the CI inside ±1%

</details>

<details><summary>Environment</summary>

- CPU: Example CPU @ 2.0GHz ×2, governor performance
- OS: linux 6.1.0 x64
- load average at the start: 0.5, 0.4, 0.3
- benchrig 0.1.0 on node v20.20.2
- host: Example CPU @ 2.0GHz x2; linux 6.1.0; node v20.20.2

</details>

`
