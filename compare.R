#!/usr/bin/env Rscript
# benchrig compare.R: reads a compare CSV on stdin (columns "binary",
# "filename", "configuration", "rate"; any other columns are ignored) and
# prints, per configuration, Welch's t-test of new vs old: improvement in %
# of the old mean, stars from p, accuracy (the CI half-width in % of the old
# mean at 95/99/99.9%) and p. The JS analysis prints the same columns.
#
#   Rscript compare.R [--plot FILE] [--format table|csv] < compare.csv
# ggplot2 takes seconds to load: only when a plot is asked for.
suppressPackageStartupMessages(library(plyr))

usage <- "usage: Rscript compare.R [--plot FILE] [--format table|csv] < compare.csv
  --plot FILE    also save a box plot of the rates, each divided by the median
                 rate of old in its configuration (png, pdf, svg, jpg by extension)
  --format csv   print the table as CSV (full precision) instead of text"

args <- commandArgs(trailingOnly = TRUE)
opts <- list(format = "table")
i <- 1
while (i <= length(args)) {
  a <- args[i]
  if (a == "--help" || a == "-h") { cat(usage, "\n"); quit(status = 0) }
  if (a %in% c("--plot", "--format")) {
    if (i == length(args)) { message(sprintf("compare.R: %s needs a value\n%s", a, usage)); quit(status = 2) }
    opts[[sub("^--", "", a)]] <- args[i + 1]
    i <- i + 2
  } else {
    message(sprintf("compare.R: unknown argument %s\n%s", a, usage)); quit(status = 2)
  }
}

# The file name picks the format; check it before reading any data. SVG goes
# through grDevices::svg (cairo) when the svglite package is not installed.
if (!is.null(opts$plot) && !grepl("\\.(png|pdf|svg|jpe?g)$", opts$plot, ignore.case = TRUE)) {
  message(sprintf("%s: --plot %s: give a file name ending in .png, .pdf, .svg or .jpg (the extension picks the format)", "compare.R", opts$plot)); quit(status = 2)
}
plotDevice <- if (!is.null(opts$plot) && grepl("\\.svg$", opts$plot, ignore.case = TRUE) && !requireNamespace("svglite", quietly = TRUE)) grDevices::svg else NULL

# An empty or unreadable stdin (a forgotten "< file.csv") is a usage error
# with a hint, not read.table's traceback.
dat <- tryCatch(read.csv(file("stdin"), colClasses = "character", check.names = FALSE), error = function(e) {
  message(sprintf("compare.R: cannot read a CSV on stdin (%s); pipe a file made by compare.js: Rscript compare.R < out.csv", conditionMessage(e)))
  quit(status = 2)
})
needed <- c("binary", "filename", "configuration", "rate")
missing <- setdiff(needed, names(dat))
if (length(missing) > 0) {
  message(sprintf("compare.R: the CSV on stdin lacks the column(s) %s; pipe a file made by compare.js",
                  paste(missing, collapse = ", ")))
  quit(status = 2)
}
# The "measure" column (compare.js --measure) names what rate counts; rows of
# two measures are not comparable, and the plot's axis says which it is.
measures <- if ("measure" %in% names(dat)) unique(ifelse(dat$measure == "", "wall", dat$measure)) else "wall"
if (length(measures) > 1) {
  message(sprintf("compare.R: the CSV holds rows of more than one measure (%s); keep the rows of one value of the \"measure\" column",
                  paste(measures, collapse = ", ")))
  quit(status = 2)
}
rateLabel <- switch(measures[1],
  cpu = "operations per CPU-second (higher is better)",
  instructions = "operations per 10^9 instructions (higher is better)",
  "rate of operations (higher is better)")
quantity <- sub(" \\(higher is better\\)", "", rateLabel)
dat <- dat[, needed]
dat$rate <- as.numeric(dat$rate)
dat <- dat[!is.na(dat$rate), ]
dat$name <- ifelse(dat$configuration == "", dat$filename, paste(dat$filename, dat$configuration))

if (!is.null(opts$plot)) {
  suppressPackageStartupMessages(library(ggplot2))
  # Each rate divided by the median rate of the old binary in its own
  # configuration, so configurations whose rates differ by orders of
  # magnitude share one (log) axis; one row per configuration in the CSV's
  # order, grouped by file; the height grows with the number of rows.
  box <- dat[dat$binary %in% c("old", "new"), ]
  old.median <- tapply(box$rate[box$binary == "old"], box$name[box$binary == "old"], median)
  box$relative <- box$rate / old.median[box$name]
  box <- box[is.finite(box$relative) & box$relative > 0, ]
  order <- unique(box$name)
  box$row <- factor(box$name, levels = rev(order))
  box$file <- factor(box$filename, levels = unique(box$filename))
  box$binary <- factor(box$binary, levels = c("new", "old"))
  first <- box[!duplicated(box$name), ]
  labels <- setNames(ifelse(first$configuration == "", basename(first$filename), first$configuration), first$name)
  p <- ggplot(box, aes(x = relative, y = row, fill = binary)) +
    geom_vline(xintercept = 1, colour = "grey40", linewidth = 0.3) +
    geom_boxplot(outlier.size = 0.6, linewidth = 0.3, position = position_dodge2(preserve = "single")) +
    scale_x_log10(labels = function(x) { v <- round((x - 1) * 100, 1); ifelse(v == 0, "0%", sprintf("%+g%%", v)) }) +
    scale_y_discrete(labels = labels) +
    scale_fill_manual(values = c(old = "#bdbdbd", new = "#6baed6"), breaks = c("old", "new")) +
    facet_grid(file ~ ., scales = "free_y", space = "free_y") +
    labs(x = sprintf("%s relative to the median of old in the same configuration (log scale; higher is better)", quantity),
         y = NULL, fill = NULL) +
    theme_bw(base_size = 10) +
    theme(legend.position = "top", legend.justification = "left", strip.text.y = element_text(angle = 0, hjust = 0),
          panel.grid.minor = element_blank(), plot.margin = margin(8, 12, 8, 8))
  width <- 7 + min(5, max(nchar(labels)) * 0.06)
  height <- 1.5 + 0.3 * length(order) + 0.3 * nlevels(box$file)
  ggsave(opts$plot, p, device = plotDevice, width = width, height = height, dpi = 100, limitsize = FALSE)
}

# Half-width of the Welch CI at 1 - risk, in % of the old mean.
accuracy <- function(se, df, old.mu, risk) {
  qt(1 - risk / 2, df) * se / old.mu * 100
}

stats <- ddply(dat, "name", function(sub) {
  old.rate <- sub$rate[sub$binary == "old"]
  new.rate <- sub$rate[sub$binary == "new"]
  old.mu <- mean(old.rate)
  res <- data.frame(improvement = (mean(new.rate) - old.mu) / old.mu * 100,
                    confidence = "", p.value = NA, a95 = NA, a99 = NA, a999 = NA,
                    stringsAsFactors = FALSE)
  if (length(old.rate) > 1 && length(new.rate) > 1 && (var(old.rate) > 0 || var(new.rate) > 0)) {
    w <- t.test(new.rate, old.rate)
    se <- sqrt(var(old.rate) / length(old.rate) + var(new.rate) / length(new.rate))
    res$p.value <- w$p.value
    res$confidence <- if (w$p.value < 0.001) "***" else if (w$p.value < 0.01) "**" else if (w$p.value < 0.05) "*" else ""
    res$a95 <- accuracy(se, w$parameter, old.mu, 0.05)
    res$a99 <- accuracy(se, w$parameter, old.mu, 0.01)
    res$a999 <- accuracy(se, w$parameter, old.mu, 0.001)
  }
  res
})

if (opts$format == "csv") {
  write.csv(stats, stdout(), row.names = FALSE)
  quit(status = 0)
}

fmt <- function(x) ifelse(is.na(x), "NA", sprintf("\u00b1%.2f%%", x))
table <- data.frame(confidence = stats$confidence,
                    improvement = sprintf("%.2f %%", stats$improvement),
                    "accuracy (*)" = fmt(stats$a95),
                    "(**)" = fmt(stats$a99),
                    "(***)" = fmt(stats$a999),
                    p = ifelse(is.na(stats$p.value), "NA", formatC(stats$p.value, format = "g", digits = 3)),
                    check.names = FALSE, stringsAsFactors = FALSE)
row.names(table) <- stats$name
options(width = 250)
print(table)
n <- nrow(stats)
cat(sprintf("\nWith %d comparisons, expect about %.2f false positives at * (5%%), %.2f at ** (1%%), %.2f at *** (0.1%%)
when nothing changed; benchrig analyze adjusts for this (q values).\n", n, n * 0.05, n * 0.01, n * 0.001))
