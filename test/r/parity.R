# Reference values for the parity tests, straight from R's own functions:
# per configuration of a compare CSV (argument 1), wilcox.test(conf.int = TRUE)
# on log rates (paired by the "pair" column when it is filled), and p.adjust
# (BH, holm) of those p-values across configurations, and the level the
# interval really has (attr "conf.level": lower than asked when R warns
# "requested conf.level not achievable"). Prints CSV.
args <- commandArgs(trailingOnly = TRUE)
dat <- read.csv(args[1], colClasses = "character")
dat$rate <- as.numeric(dat$rate)
dat$name <- paste(dat$filename, dat$configuration)
out <- NULL
for (nm in unique(dat$name)) {
  sub <- dat[dat$name == nm, ]
  old <- sub[sub$binary == "old", ]
  new <- sub[sub$binary == "new", ]
  if (all(sub$pair != "")) {
    m <- merge(old, new, by = "pair", suffixes = c(".old", ".new"))
    m <- m[order(as.numeric(m$pair)), ]
    w <- suppressWarnings(wilcox.test(log(m$rate.new / m$rate.old), conf.int = TRUE))
  } else {
    w <- suppressWarnings(wilcox.test(log(new$rate), log(old$rate), conf.int = TRUE))
  }
  out <- rbind(out, data.frame(name = nm, statistic = unname(w$statistic), p = w$p.value,
                               estimate = unname(w$estimate), lo = w$conf.int[1], hi = w$conf.int[2],
                               exact = !grepl("continuity", w$method),
                               level = attr(w$conf.int, "conf.level")))
}
out$bh <- p.adjust(out$p, "BH")
out$holm <- p.adjust(out$p, "holm")
write.csv(out, stdout(), row.names = FALSE)
