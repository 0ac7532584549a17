# The anonymous memory a ruby's aobench process holds once booted and
# running (RUBY_GC_FREE_GROWTH_AFTER=1000000 holds the fork's floor off, as
# a memory cgroup under pressure does): malloc's [heap] and the rest, in KiB,
# from /proc/PID/smaps, the rubies alternating.  The bytes that decide how
# many processes fit in killrate.rb's 48 MiB.
#
#   ruby benchmark/heap/anon.rb ROUNDS DELAY RUBY...
abort "usage: #{$0} ROUNDS DELAY RUBY..." if ARGV.size < 3
rounds = Integer(ARGV.shift); delay = Float(ARGV.shift); rubies = ARGV
aobench = File.join(__dir__, "aobench.rb")
env = {"AO_SIZE" => "64", "RUBY_GC_FREE_GROWTH_AFTER" => "1000000"}
res = Hash.new { |h, k| h[k] = [] }
rounds.times do
  rubies.each do |rb|
    pid = Process.spawn(env, rb, aobench, out: File::NULL)
    sleep delay
    heap = other = 0
    name = nil
    File.foreach("/proc/#{pid}/smaps") do |l|
      if l =~ /\A\h+-\h+ \S+ \S+ \S+ \S+\s*(.*)$/
        name = $1
      elsif l =~ /\AAnonymous:\s+(\d+)/
        name == "[heap]" ? heap += $1.to_i : other += $1.to_i
      end
    end
    Process.kill(:KILL, pid)
    Process.wait(pid)
    res[rb] << [heap, other]
  end
end
med = ->(a) { a.sort[a.size / 2] }
res.each do |rb, s|
  printf "%-40s [heap] %5d  other %5d  total %5d KiB (median of %d; totals %s)\n", rb,
         med.(s.map(&:first)), med.(s.map(&:last)), med.(s.map(&:sum)), s.size, s.map(&:sum).sort.join(" ")
end
