#!/usr/bin/env Rscript
# Reads a CSV on stdin the way Node core's R scripts and readers do, and
# prints what it read as CSV, so that a test can check that every CSV
# benchrig writes survives Node's contract.
#
#   Rscript node-contract.R compare < compare.csv
#     read.csv(stdin, colClasses = c('character','character','character',
#     'numeric','numeric')) as Node's compare.R does (R recycles the five
#     classes over further columns), then per configuration the mean rates
#     and Welch's t-test, as Node's compare.R computes them.
#   Rscript node-contract.R run < run.csv      4 columns: character x2, numeric x2 (", " separated)
#   Rscript node-contract.R scatter < scatter.csv   plain read.csv; mean rate per row key
kind <- commandArgs(trailingOnly = TRUE)[1]
if (kind == "compare") {
  dat <- read.csv(file("stdin"), colClasses = c("character", "character", "character", "numeric", "numeric"))
  dat$name <- paste(dat$filename, dat$configuration)
  out <- do.call(rbind, lapply(split(dat, dat$name), function(sub) {
    old <- sub$rate[sub$binary == "old"]
    new <- sub$rate[sub$binary == "new"]
    w <- t.test(new, old)
    data.frame(name = sub$name[1], rows = nrow(sub), improvement = (mean(new) - mean(old)) / mean(old) * 100,
               p.value = w$p.value, columns = ncol(sub) - 1, numeric = paste(names(sub)[sapply(sub, is.numeric)], collapse = " "))
  }))
} else if (kind == "run") {
  # run.js writes Node core's run.js layout, ", " after each comma: the spaces go
  dat <- read.csv(file("stdin"), colClasses = c("character", "character", "numeric", "numeric"), strip.white = TRUE)
  out <- data.frame(name = paste(dat$filename, dat$configuration), rate = dat$rate, time = dat$time)
} else if (kind == "scatter") {
  dat <- read.csv(file("stdin"))
  out <- data.frame(filename = dat$filename, rate = dat$rate, time = dat$time, columns = ncol(dat))
} else {
  stop("give compare, run or scatter")
}
write.csv(out, stdout(), row.names = FALSE)
