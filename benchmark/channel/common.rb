# What the drivers of benchmark/channel share beyond benchmark/lib/bench.rb.
module ChannelBench
  # why a cell's process failed: how it ended, and its [BUG] line or first lines of output
  def self.failure(status, err, out)
    why = err[/^.*\[BUG\].*$/] || (err + out).lines.grep_v(/^\s*$/).first(3).join(" ")
    "#{status.termsig ? "signal #{status.termsig}" : "exit #{status.exitstatus}"}: #{why.strip}"
  end
end
