#!/usr/bin/env Rscript
# benchrig bar.R: the PR figure from a compare CSV on stdin. A forest plot:
# per configuration (in the CSV's order, grouped by file) the change of the
# rate of new over old with its CI, on a log(new/old) axis labelled in %,
# coloured by the verdict of benchrig analyze, computed here the same way:
#   paired rows (a filled "pair" column; pairs keyed by seed and pair): the
#     Hodges-Lehmann estimate and CI of the Wilcoxon signed-rank test on
#     log(new/old) per pair; otherwise (Node core's CSV) Mann-Whitney on the
#     log rates;
#   q: Benjamini-Hochberg over the configurations;
#   "no change" when the CI lies inside +-threshold, "faster"/"slower" when
#   q < alpha and the CI excludes 0, "inconclusive" otherwise.
# Prints the plotted table (--format csv: as CSV, full precision).
#
#   Rscript bar.R --plot FILE [--meta FILE.ndjson] [--title TEXT]
#                 [--threshold PCT] [--alpha A] [--format table|csv] < compare.csv
suppressPackageStartupMessages(library(plyr))

usage <- "usage: Rscript bar.R --plot FILE [--meta FILE.ndjson] [--title TEXT] [--threshold PCT] [--alpha A] [--format table|csv] < compare.csv
  --plot FILE         the figure (png, pdf, svg by extension)
  --meta FILE.ndjson  the NDJSON compare --ndjson wrote: the binaries' versions title the figure
  --title TEXT        a title of your own instead
  --threshold PCT     a CI inside +-PCT% means \"no change\" (default 1, as benchrig analyze)
  --alpha A           significance level of the verdicts (default 0.05)
  --format csv        print the table as CSV (full precision) instead of text"
args <- commandArgs(trailingOnly = TRUE)
opts <- list(format = "table", threshold = "1", alpha = "0.05")
fail <- function(...) { message("bar.R: ", sprintf(...)); quit(status = 2) }
i <- 1
while (i <= length(args)) {
  a <- args[i]
  if (a == "--help" || a == "-h") { cat(usage, "\n"); quit(status = 0) }
  if (a %in% c("--plot", "--title", "--meta", "--threshold", "--alpha", "--format")) {
    if (i == length(args)) fail("%s needs a value\n%s", a, usage)
    opts[[sub("^--", "", a)]] <- args[i + 1]
    i <- i + 2
  } else {
    fail("bad argument %s\n%s", a, usage)
  }
}
if (is.null(opts$plot)) fail("--plot FILE is required\n%s", usage)
# The file name picks the format; check it before reading any data. SVG goes
# through grDevices::svg (cairo) when the svglite package is not installed.
if (!is.null(opts$plot) && !grepl("\\.(png|pdf|svg|jpe?g)$", opts$plot, ignore.case = TRUE)) {
  message(sprintf("%s: --plot %s: give a file name ending in .png, .pdf, .svg or .jpg (the extension picks the format)", "bar.R", opts$plot)); quit(status = 2)
}
plotDevice <- if (!is.null(opts$plot) && grepl("\\.svg$", opts$plot, ignore.case = TRUE) && !requireNamespace("svglite", quietly = TRUE)) grDevices::svg else NULL
threshold <- suppressWarnings(as.numeric(opts$threshold))
alpha <- suppressWarnings(as.numeric(opts$alpha))
if (is.na(threshold) || threshold <= 0) fail("--threshold %s: give a number > 0", opts$threshold)
if (is.na(alpha) || alpha <= 0 || alpha >= 1) fail("--alpha %s: give a number > 0 and < 1", opts$alpha)
if (!(opts$format %in% c("table", "csv"))) fail("--format %s: use table or csv", opts$format)

# The binaries' versions from the metadata record of compare's NDJSON (its
# first line); a regular expression is enough for that flat record and
# spares a JSON package.
versions <- NULL
if (!is.null(opts$meta)) {
  first <- tryCatch(readLines(opts$meta, n = 1, warn = FALSE), error = function(e) NULL, warning = function(w) NULL)
  if (is.null(first) || !grepl('"type":"meta"', first, fixed = TRUE)) {
    fail("--meta %s: cannot read a compare metadata record from its first line; give the file compare --ndjson wrote", opts$meta)
  }
  version <- function(which) {
    m <- regmatches(first, regexec(sprintf('"%s":\\{[^{}]*"version":"([^"]*)"', which), first))[[1]]
    if (length(m) == 2) m[2] else which
  }
  versions <- c(old = version("old"), new = version("new"))
}

# An empty or unreadable stdin (a forgotten "< file.csv") is a usage error
# with a hint, not read.table's traceback.
dat <- tryCatch(read.csv(file("stdin"), colClasses = "character", check.names = FALSE), error = function(e) {
  fail("cannot read a CSV on stdin (%s); pipe a file made by compare.js: Rscript bar.R --plot bars.png < out.csv", conditionMessage(e))
})
if (!all(c("binary", "filename", "configuration", "rate") %in% names(dat))) {
  fail("the CSV needs the columns binary, filename, configuration, rate (a compare.js CSV)")
}
dat$rate <- suppressWarnings(as.numeric(dat$rate))
dat <- dat[!is.na(dat$rate) & dat$rate > 0 & dat$binary %in% c("old", "new"), ]
if (nrow(dat) == 0) fail("no old/new rows with a rate in the CSV")
dat$name <- ifelse(dat$configuration == "", dat$filename, paste(dat$filename, dat$configuration))
# Declaration order: the order in which configurations first appear.
names.ordered <- unique(dat$name)
dat$key <- if ("seed" %in% names(dat)) paste(dat$seed, dat$pair) else dat$pair
has.pairs <- "pair" %in% names(dat)

pct <- function(x) (exp(x) - 1) * 100
stats <- ddply(dat, "name", function(sub) {
  out <- data.frame(filename = sub$filename[1], configuration = sub$configuration[1],
                    n = NA, change = NA, lower = NA, upper = NA, level = NA, p = NA)
  paired <- has.pairs && all(sub$pair != "") && !any(duplicated(sub[, c("binary", "key")]))
  if (paired) {
    m <- merge(sub[sub$binary == "old", c("key", "rate")], sub[sub$binary == "new", c("key", "rate")],
               by = "key", suffixes = c(".old", ".new"))
    paired <- nrow(m) >= 2
  }
  w <- NULL
  if (paired) {
    out$n <- nrow(m)
    w <- suppressWarnings(wilcox.test(log(m$rate.new / m$rate.old), conf.int = TRUE))
  } else {
    old <- sub$rate[sub$binary == "old"]
    new <- sub$rate[sub$binary == "new"]
    out$n <- min(length(old), length(new))
    if (length(old) > 0 && length(new) > 0) {
      w <- tryCatch(suppressWarnings(wilcox.test(log(new), log(old), conf.int = TRUE)), error = function(e) NULL)
    }
  }
  if (!is.null(w)) {
    out$change <- pct(unname(w$estimate))
    out$lower <- pct(w$conf.int[1])
    out$upper <- pct(w$conf.int[2])
    out$level <- attr(w$conf.int, "conf.level")
    out$p <- w$p.value
  }
  out
})
stats <- stats[match(names.ordered, stats$name), ]
stats$q <- p.adjust(stats$p, "BH")
stats$verdict <- with(stats, ifelse(is.na(lower) | is.na(upper), "inconclusive",
  ifelse(lower > -threshold & upper < threshold, "no change",
  ifelse(!is.na(q) & q < alpha & (lower > 0 | upper < 0), ifelse(change > 0, "faster", "slower"), "inconclusive"))))
# The colours of benchrig analyze --plot (lib/report/forest.js); a test holds them equal.
colours <- c("faster" = "#1b9e77", "slower" = "#d95f02", "no change" = "#7570b3", "inconclusive" = "#8c8c8c")
stats$colour <- unname(colours[stats$verdict])

suppressPackageStartupMessages(library(ggplot2)) # slow to load: after the checks
L <- function(p) log1p(p / 100)
# The shown range: every estimate and CI bound, except that an interval far
# wider than the rest is cut at the panel's edge instead of squashing them.
bounds <- L(c(stats$lower, stats$upper)); bounds <- bounds[is.finite(bounds)]
est <- L(stats$change); est <- est[is.finite(est)]
cap <- max(3 * if (length(bounds)) quantile(abs(bounds), 0.9, names = FALSE, type = 1) else 0, 2 * L(threshold), abs(est))
lim <- range(c(-L(threshold), L(threshold), est, pmin(pmax(bounds, -cap), cap)))
lim <- lim + c(-1, 1) * 0.04 * diff(lim)
# Ticks in %: the coarse-to-fine ladders of the SVG figure, the widest spread that fits.
ladders <- list(c(-99, -90, -50, 0, 100, 1000), c(-90, -75, -50, -20, 0, 25, 100, 300, 900),
                c(-50, -20, -10, -5, -1, 0, 1, 5, 10, 25, 100), c(-20, -10, -5, -2, -1, 0, 1, 2, 5, 10, 25),
                c(-5, -2, -1, -0.5, -0.2, 0, 0.2, 0.5, 1, 2, 5), c(-1, -0.5, -0.2, -0.1, 0, 0.1, 0.2, 0.5, 1))
ticks <- 0; span <- 0
for (ladder in ladders) {
  inside <- ladder[L(ladder) >= lim[1] & L(ladder) <= lim[2]]
  if (length(inside) > 9) next
  s <- if (length(inside) < 2) 0 else diff(L(range(inside)))
  if (s > span * 1.25 || (s >= span / 1.25 && length(inside) > length(ticks))) { ticks <- inside; span <- max(s, span) }
}
# Walking out from 0, drop a tick closer than 6% of the axis to the last kept one.
thin <- function(side) {
  kept <- c(); last <- 0
  for (t in side) if (abs(L(t) - last) >= 0.06 * diff(lim)) { kept <- c(kept, t); last <- L(t) }
  kept
}
ticks <- sort(c(if (0 %in% ticks) 0, thin(ticks[ticks > 0]), thin(rev(ticks[ticks < 0]))))

stats$file <- factor(stats$filename, levels = unique(stats$filename))
# First configuration at the top: ggplot draws the first level at the bottom.
stats$row <- factor(stats$name, levels = rev(stats$name))
labels <- setNames(ifelse(stats$configuration == "", basename(stats$filename), stats$configuration), stats$name)
stats$verdict <- factor(stats$verdict, levels = names(colours))

categories <- unique(ifelse(grepl("/", stats$filename), sub("/.*", "", stats$filename), stats$filename))
paired.all <- all(!is.na(stats$n)) && has.pairs && all(dat$pair != "")
n.range <- range(stats$n, na.rm = TRUE)
subtitle <- paste(c(
  sprintf("%s %s", if (length(categories) == 1) "category" else "categories", paste(categories, collapse = ", ")),
  sprintf("%d configurations", nrow(stats)),
  sprintf("%s %s", if (n.range[1] == n.range[2]) n.range[1] else paste0(n.range[1], "-", n.range[2]),
          if (paired.all) "pairs" else "runs per binary (unpaired)"),
  if ("seed" %in% names(dat) && length(unique(dat$seed)) == 1 && dat$seed[1] != "") sprintf("seed %s", dat$seed[1])
), collapse = " \u00b7 ")
title <- if (!is.null(opts$title)) opts$title else if (!is.null(versions)) sprintf("%s vs %s", versions[["new"]], versions[["old"]]) else "new vs old"
if (opts$format == "csv") {
  write.csv(stats[, c("filename", "configuration", "n", "change", "lower", "upper", "level", "p", "q", "verdict", "colour")],
            stdout(), row.names = FALSE)
} else {
  options(width = 250)
  shown <- data.frame(name = stats$name, n = stats$n, change = round(stats$change, 2),
                      lower = round(stats$lower, 2), upper = round(stats$upper, 2),
                      level = round(stats$level, 3), q = signif(stats$q, 3), verdict = stats$verdict)
  print(shown, row.names = FALSE)
}

measure <- if ("measure" %in% names(dat)) unique(dat$measure[dat$measure != ""]) else character(0)
quantity <- if (length(measure) == 0 || measure[1] == "wall") "ops/sec" else if (measure[1] == "cpu") "operations per CPU-second" else if (measure[1] == "instructions") "operations per 10^9 instructions" else sprintf("rate (%s)", measure[1])
levels.pct <- unique(round(stats$level[!is.na(stats$level)] * 100, 1))
ci.text <- if (length(levels.pct) <= 1) sprintf("%s%% CI", if (length(levels.pct)) levels.pct else 95) else sprintf("CI at %s-%s%%", min(levels.pct), max(levels.pct))
counts <- table(stats$verdict)
legend.labels <- sprintf("%s (%d)", names(colours), as.integer(counts[names(colours)]))

p <- ggplot(stats, aes(y = row, colour = verdict)) +
  annotate("rect", xmin = -L(threshold), xmax = L(threshold), ymin = -Inf, ymax = Inf, fill = "grey88") +
  geom_vline(xintercept = 0, colour = "grey25", linewidth = 0.3) +
  geom_segment(aes(x = L(lower), xend = L(upper), yend = row), linewidth = 0.9, na.rm = TRUE) +
  geom_point(aes(x = L(change)), size = 1.8, na.rm = TRUE) +
  scale_colour_manual(values = colours, labels = legend.labels, drop = FALSE, name = NULL) +
  scale_x_continuous(breaks = L(ticks), labels = ifelse(ticks > 0, paste0("+", ticks, "%"), paste0(ticks, "%")),
                     sec.axis = dup_axis(name = NULL)) +
  scale_y_discrete(labels = labels) +
  coord_cartesian(xlim = lim) +
  facet_grid(file ~ ., scales = "free_y", space = "free_y") +
  labs(title = title, subtitle = paste0(subtitle, sprintf("\nshaded: the no-change band \u00b1%s%%", threshold)),
       x = sprintf("change of %s, new vs old (log scale; %s; positive = new is faster)", quantity, ci.text), y = NULL) +
  theme_bw(base_size = 10) +
  theme(legend.position = "top", legend.justification = "left", strip.text.y = element_text(angle = 0, hjust = 0),
        panel.grid.minor = element_blank(), panel.grid.major.y = element_blank(), plot.margin = margin(8, 12, 8, 8))
width <- 7 + min(5, max(nchar(labels)) * 0.06)
height <- 1.8 + 0.17 * nrow(stats) + 0.3 * nlevels(stats$file)
ggsave(opts$plot, p, device = plotDevice, width = width, height = height, dpi = 100, limitsize = FALSE)
message(sprintf("bar.R: wrote %s: %s\n%s", opts$plot, title, subtitle))
