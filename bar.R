#!/usr/bin/env Rscript
# benchrig bar.R: reads a compare CSV on stdin and draws one bar per
# configuration: the change of the rate of new over old in %, with its 95%
# CI as error bars. With a filled "pair" column (compare.js output) these are
# the numbers of benchrig analyze: the Hodges-Lehmann estimate and CI of the
# Wilcoxon signed-rank test on log(new/old) per pair. Without pairs (Node
# core's CSV) they are compare.R's: the change of the means and the Welch
# interval. Prints the plotted table.
#
#   Rscript bar.R --plot FILE [--title TEXT] < compare.csv
suppressPackageStartupMessages(library(plyr))

usage <- "usage: Rscript bar.R --plot FILE [--title TEXT] < compare.csv"
args <- commandArgs(trailingOnly = TRUE)
opts <- list(title = "new vs old")
i <- 1
while (i <= length(args)) {
  a <- args[i]
  if (a == "--help" || a == "-h") { cat(usage, "\n"); quit(status = 0) }
  if (a %in% c("--plot", "--title") && i < length(args)) {
    opts[[sub("^--", "", a)]] <- args[i + 1]
    i <- i + 2
  } else {
    message(sprintf("bar.R: bad argument %s\n%s", a, usage)); quit(status = 2)
  }
}
if (is.null(opts$plot)) { message(sprintf("bar.R: --plot FILE is required\n%s", usage)); quit(status = 2) }
# The file name picks the format; check it before reading any data. SVG goes
# through grDevices::svg (cairo) when the svglite package is not installed.
if (!is.null(opts$plot) && !grepl("\\.(png|pdf|svg|jpe?g)$", opts$plot, ignore.case = TRUE)) {
  message(sprintf("%s: --plot %s: give a file name ending in .png, .pdf, .svg or .jpg (the extension picks the format)", "bar.R", opts$plot)); quit(status = 2)
}
plotDevice <- if (!is.null(opts$plot) && grepl("\\.svg$", opts$plot, ignore.case = TRUE) && !requireNamespace("svglite", quietly = TRUE)) grDevices::svg else NULL


# An empty or unreadable stdin (a forgotten "< file.csv") is a usage error
# with a hint, not read.table's traceback.
dat <- tryCatch(read.csv(file("stdin"), colClasses = "character", check.names = FALSE), error = function(e) {
  message(sprintf("bar.R: cannot read a CSV on stdin (%s); pipe a file made by compare.js: Rscript bar.R --plot bars.png < out.csv", conditionMessage(e)))
  quit(status = 2)
})
if (!all(c("binary", "filename", "configuration", "rate") %in% names(dat))) {
  message("bar.R: the CSV needs the columns binary, filename, configuration, rate (a compare.js CSV)")
  quit(status = 2)
}
dat$rate <- as.numeric(dat$rate)
dat$name <- ifelse(dat$configuration == "", dat$filename, paste(dat$filename, dat$configuration))

paired <- "pair" %in% names(dat) && all(dat$pair != "")
stats <- ddply(dat, "name", function(sub) {
  if (paired) {
    old <- sub[sub$binary == "old", c("pair", "rate")]
    new <- sub[sub$binary == "new", c("pair", "rate")]
    m <- merge(old, new, by = "pair", suffixes = c(".old", ".new"))
    d <- log(m$rate.new / m$rate.old)
    if (length(d) < 2) return(data.frame(change = NA, lower = NA, upper = NA))
    w <- suppressWarnings(wilcox.test(d, conf.int = TRUE))
    pct <- function(x) (exp(x) - 1) * 100
    return(data.frame(change = pct(unname(w$estimate)), lower = pct(w$conf.int[1]), upper = pct(w$conf.int[2])))
  }
  old <- sub$rate[sub$binary == "old"]
  new <- sub$rate[sub$binary == "new"]
  old.mu <- mean(old)
  change <- (mean(new) - old.mu) / old.mu * 100
  half <- NA
  if (length(old) > 1 && length(new) > 1) {
    se <- sqrt(var(old) / length(old) + var(new) / length(new))
    w <- t.test(new, old)
    half <- qt(0.975, w$parameter) * se / old.mu * 100
  }
  data.frame(change = change, lower = change - half, upper = change + half)
})
options(width = 200)
print(stats, row.names = FALSE)

suppressPackageStartupMessages(library(ggplot2)) # slow to load: after the checks
# Colour by where the (unadjusted) 95% CI lies; verdicts, which also adjust
# for multiple comparisons, come from benchrig analyze.
stats$ci <- ifelse(stats$lower > 0, "above 0", ifelse(stats$upper < 0, "below 0", "spans 0"))
p <- ggplot(stats, aes(x = name, y = change, fill = ci)) +
  geom_col() +
  geom_errorbar(aes(ymin = lower, ymax = upper), width = 0.3) +
  geom_hline(yintercept = 0) +
  scale_fill_manual(values = c("above 0" = "#1b9e77", "below 0" = "#d95f02", "spans 0" = "#9e9e9e"), name = "95% CI") +
  coord_flip() +
  ylab(if (paired) "change, % (Hodges-Lehmann, 95% CI on pairs; positive = new is faster)"
       else "change of the mean rate, % (Welch 95% CI; positive = new is faster)") +
  xlab(NULL) +
  ggtitle(opts$title)
ggsave(opts$plot, p, device = plotDevice, width = 11, height = max(3, 0.3 * nrow(stats) + 1.5), dpi = 110)
