# The same code in N child VMs at once: [N, wall seconds, user, system].  Shows what
# does not scale across VMs, e.g. Fibers made and dropped (results/channel.md, Fig. 9):
#
#   ruby --disable-gems benchmark/channel/vms_at_once.rb '200_000.times { [1].each.next }' 1
#   ruby --disable-gems benchmark/channel/vms_at_once.rb '200_000.times { [1].each.next }' 2
code = ARGV[0]
n = Integer(ARGV[1])
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
vms = n.times.map { RubyVM.new("w", "--disable-gems", "-e", code).start }
vms.each(&:join)
p [n, (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t).round(3), Process.times.utime.round(2), Process.times.stime.round(2)]
