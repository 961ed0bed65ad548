#!/usr/bin/env Rscript
# benchrig scatter.R: reads a scatter CSV on stdin ("filename", one column per
# variable, "rate", "time") and prints, per --xaxis value (and --category
# value), the mean rate with its 95% t interval and the median; other
# variables are averaged over and named. --plot draws lines with error bars.
#
#   Rscript scatter.R --xaxis V [--category V] [--log] [--plot FILE] < scatter.csv
# ggplot2 takes seconds to load: only when a plot is asked for.
suppressPackageStartupMessages(library(plyr))

usage <- "usage: Rscript scatter.R --xaxis V [--category V] [--log] [--plot FILE] < scatter.csv
  --xaxis V      the variable on the x axis
  --category V   one line per value of V
  --log          logarithmic x and y axes
  --plot FILE    save the plot (png, pdf, svg, jpg by extension)"

args <- commandArgs(trailingOnly = TRUE)
opts <- list(log = FALSE)
i <- 1
while (i <= length(args)) {
  a <- args[i]
  if (a == "--help" || a == "-h") { cat(usage, "\n"); quit(status = 0) }
  if (a == "--log") { opts$log <- TRUE; i <- i + 1; next }
  if (a %in% c("--xaxis", "--category", "--plot")) {
    if (i == length(args)) { message(sprintf("scatter.R: %s needs a value\n%s", a, usage)); quit(status = 2) }
    opts[[sub("^--", "", a)]] <- args[i + 1]
    i <- i + 2
  } else {
    message(sprintf("scatter.R: unknown argument %s\n%s", a, usage)); quit(status = 2)
  }
}
if (is.null(opts$xaxis)) { message(sprintf("scatter.R: --xaxis is required\n%s", usage)); quit(status = 2) }
# The file name picks the format; check it before reading any data. SVG goes
# through grDevices::svg (cairo) when the svglite package is not installed.
if (!is.null(opts$plot) && !grepl("\\.(png|pdf|svg|jpe?g)$", opts$plot, ignore.case = TRUE)) {
  message(sprintf("%s: --plot %s: give a file name ending in .png, .pdf, .svg or .jpg (the extension picks the format)", "scatter.R", opts$plot)); quit(status = 2)
}
plotDevice <- if (!is.null(opts$plot) && grepl("\\.svg$", opts$plot, ignore.case = TRUE) && !requireNamespace("svglite", quietly = TRUE)) grDevices::svg else NULL


# An empty or unreadable stdin (a forgotten "< file.csv") is a usage error
# with a hint, not read.table's traceback.
dat <- tryCatch(read.csv(file("stdin"), check.names = FALSE, stringsAsFactors = FALSE), error = function(e) {
  message(sprintf("scatter.R: cannot read a CSV on stdin (%s); pipe a file made by scatter.js: Rscript scatter.R --xaxis V < out.csv", conditionMessage(e)))
  quit(status = 2)
})
for (v in c(opts$xaxis, opts$category, "rate")) {
  if (!(v %in% names(dat))) {
    message(sprintf("scatter.R: no column \"%s\" in the CSV; its columns: %s", v, paste(names(dat), collapse = ", ")))
    quit(status = 2)
  }
}
variables <- setdiff(names(dat), c("filename", "rate", "time"))
averaged <- Filter(function(v) v != opts$xaxis && (is.null(opts$category) || v != opts$category) &&
                     length(unique(dat[[v]])) > 1, variables)

groupby <- c(opts$category, opts$xaxis)
# The sample count is "n", unless a grouping variable is itself named "n"
# (Node's files often have one): ddply would then overwrite that variable
# with the count, and --xaxis n would plot every point at x = the count.
count <- if ("n" %in% groupby) "runs" else "n"
stats <- ddply(dat, groupby, function(sub) {
  k <- nrow(sub)
  m <- mean(sub$rate)
  half <- if (k > 1) qt(0.975, k - 1) * sd(sub$rate) / sqrt(k) else NA
  out <- data.frame(k, mean = m, lower = m - half, upper = m + half, median = median(sub$rate))
  names(out)[1] <- count
  out
})

options(width = 200)
print(stats, row.names = FALSE)
if (length(averaged) > 0) {
  cat(sprintf("\nAveraged over: %s\n", paste(averaged, collapse = ", ")))
} else {
  cat("\nAveraged over: nothing\n")
}

if (!is.null(opts$plot)) {
  suppressPackageStartupMessages(library(ggplot2))
  stats$x <- stats[[opts$xaxis]]
  if (is.null(opts$category)) {
    p <- ggplot(stats, aes(x = x, y = mean, ymin = lower, ymax = upper, group = 1))
  } else {
    stats$category <- as.factor(stats[[opts$category]])
    p <- ggplot(stats, aes(x = x, y = mean, ymin = lower, ymax = upper, colour = category, group = category)) +
      labs(colour = opts$category)
  }
  p <- p + geom_line() + geom_point() + geom_errorbar(width = 0.1) +
    xlab(opts$xaxis) + ylab("rate of operations (higher is better)")
  if (opts$log) p <- p + scale_x_log10() + scale_y_log10()
  ggsave(opts$plot, p, device = plotDevice, width = 7, height = 4.5)
}
