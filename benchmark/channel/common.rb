# What the drivers of benchmark/channel share.
module ChannelBench
  # the median of a non-empty Array of numbers (the mean of the middle two for an even size)
  def self.median(a)
    s = a.sort
    s.size.odd? ? s[s.size / 2] : (s[s.size / 2 - 1] + s[s.size / 2]) / 2.0
  end

  # why a cell's process failed: how it ended, and its [BUG] line or first lines of output
  def self.failure(status, err, out)
    why = err[/^.*\[BUG\].*$/] || (err + out).lines.grep_v(/^\s*$/).first(3).join(" ")
    "#{status.termsig ? "signal #{status.termsig}" : "exit #{status.exitstatus}"}: #{why.strip}"
  end
end
