# N aobench processes at once, of each of several rubies in turn, inside a
# memory cgroup (48 MiB) with swap, alternating the order round by round:
# the direct A/B behind heap/0004's trials of the floor (at four processes on
# two CPUs).  Prints each batch's wall time, the mean user time of its
# processes, how many ended with free growth's floor granted (fl) and the
# withdrawals they counted (wd), and per ruby the median batch time.
# A ruby may be a wrapper script that sets knobs and execs a ruby.
# AB_DETAIL=1 also prints each process's GC figures, faults and peak RSS.
#
#   ruby benchmark/heap/batch_ab.rb N ROUNDS RUBY... (as root)
abort "usage: #{$0} N ROUNDS RUBY..." if ARGV.size < 3
abort "needs root" unless Process.uid == 0
n = Integer(ARGV.shift); rounds = Integer(ARGV.shift); rubies = ARGV
require_relative "cgroup_swap"
aobench = File.join(__dir__, "aobench.rb")
hook = 'at_exit { s = GC.stat; puts "STAT fl=#{s[:free_growth_floor].to_i} wd=#{s[:free_growth_withdrawals].to_i} " \\
  "gc=#{s[:count]} minor=#{s[:minor_gc_count]} major=#{s[:major_gc_count]} gcms=#{s[:time]} pages=#{s[:heap_allocated_pages]} " \\
  "mode=#{s[:pressure_mode].to_i} ev=#{s[:pressure_events].to_i} rel=#{s[:arena_pages_released].to_i} " \\
  "whole=#{s[:whole_pages_freed].to_i} share=#{s[:gc_share].to_i}" }; load ARGV.shift'
detail = ENV["AB_DETAIL"] == "1"
res = Hash.new { |h, k| h[k] = [] }
with_cgroup_swap("ruby-heap-ab") do |cg|
  rounds.times do |r|
    (r.even? ? rubies : rubies.reverse).each do |rb|
      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      kids = n.times.map do
        rd, wr = IO.pipe
        pid = Process.spawn({"AO_SIZE" => "64"}, "sh", "-c",
                            "echo $$ > #{cg}/cgroup.procs && exec /usr/bin/time -f 'TIME u=%U s=%S maj=%F min=%R rss=%M' \"$0\" \"$@\"",
                            rb, "-e", hook, aobench, out: wr, err: wr)
        wr.close
        [pid, rd]
      end
      outs = kids.map { |pid, rd| o = rd.read; Process.wait(pid); o }
      tot = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
      u = outs.map { _1[/u=([\d.]+)/, 1].to_f }
      res[rb] << tot
      outs.each { |o| puts "  " + o.lines.grep(/^(STAT|TIME)/).map(&:chomp).join(" ") } if detail
      puts format("%-40s total=%.2f user=%.2f fl=%d wd=%d killed=%d", rb, tot, u.sum / u.size,
                  outs.count { _1.include?("fl=1") }, outs.sum { _1[/wd=(\d+)/, 1].to_i }, outs.count { !_1.include?("STAT") })
    end
  end
  res.each { |rb, t| puts "#{rb} median=#{t.sort[t.size / 2].round(2)}" }
end
