# Table 3's round trip of 1 (benchmark/channel/pingpong.rb channel int 10000)
# on an idle machine and with one CPU held by a busy loop, the Ractor of
# vanilla against Channels of two builds of the fork, alternating:
#
#   ruby benchmark/channel/spin_busy.rb [--runs 9] [--fork PATH] [--vanilla PATH] [--other LABEL=PATH]
#
# With every CPU busy, a waiter that spins holds the CPU that the thread
# which would wake it needs; --other names a second fork (say, one built
# before a change to the spinning) to compare in the same run.
require_relative "../lib/bench"

others = {}
opts = Bench.options({runs: 9}) do |o, _|
  o.on("--other LABEL=PATH") { |v| l, p = v.split("=", 2); others[l] = p }
end
script = File.join(__dir__, "pingpong.rb")
cfgs = {"Ractor (vanilla)" => [opts[:rubies]["vanilla"], "ractor"],
        "Channel (fork)" => [opts[:rubies]["fork"], "channel"]}
others.each { |l, p| cfgs["Channel (#{l})"] = [p, "channel"] }
rows = []
%w[idle busy].each do |cond|
  hog = cond == "busy" ? spawn("sh", "-c", "while :; do :; done") : nil
  res = Hash.new { |h, k| h[k] = [] }
  opts[:runs].times do |i|
    order = i.odd? ? cfgs.keys.reverse : cfgs.keys
    order.each do |k|
      ruby, mode = cfgs[k]
      out = IO.popen([ruby, "--disable-gems", script, mode, "int", "10000"], &:read)
      abort "#{k} failed" unless $?.success?
      res[k] << out.to_f
    end
  end
  if hog
    Process.kill(:KILL, hog)
    Process.wait(hog)
  end
  cfgs.each_key do |k|
    s = res[k].sort
    rows << format("| %s | %s | %.3f (%.3f..%.3f) |", cond, k, Stats.median(s), s.first, s.last)
  end
end
puts "| machine | round trips of `1`, 10,000 | seconds, median (min..max) of #{opts[:runs]} |", "|---|---|---|", rows
