/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/report/github.test.js > TAP > the comment body (snapshot) > github comment of paired.csv with its meta record 1`] = `
<!-- benchrig-report default -->
## benchrig: 2 slower, 1 faster, 0 no change, 2 inconclusive of 5 configurations

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
| buffers/a.js | n=1 len=16 | 30 | -0.74% | [-2.03%, +0.56%] | 0.3062 | inconclusive (needs ~185 more pairs) |
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

- old: v22.11.0 (\`/opt/node-main/bin/node\`, sha256 \`aaaaaaaaaaaa\`)
- new: v22.12.0 (\`/opt/node-pr/bin/node\`, sha256 \`bbbbbbbbbbbb\`)
- CPU: Example CPU @ 2.0GHz ×2, governor performance
- OS: linux 6.1.0 x64
- load average at the start: 0.5, 0.4, 0.3
- benchrig 0.1.0 on node v20.20.2
- host: Example CPU @ 2.0GHz x2; linux 6.1.0; node v20.20.2

</details>

`
