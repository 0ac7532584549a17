# What a child VM leaves behind once joined: RSS and address space per VM,
# over 200 VMs created and joined after 50 to warm up.
#
#   ruby benchmark/mvm/leak.rb [ruby options of the VMs, e.g. --disable-gems]
status = -> { File.read("/proc/self/status") }
rss = -> { status.()[/VmRSS:\s*(\d+)/, 1].to_i }   # KB
vsz = -> { status.()[/VmSize:\s*(\d+)/, 1].to_i }
opts = ARGV
50.times { RubyVM.new("w", *opts, "-e", "1").start.join }
r0, v0 = rss.(), vsz.()
200.times { RubyVM.new("w", *opts, "-e", "1").start.join }
printf("%s: %.1f KB RSS, %.1f KB address space per VM\n", opts.inspect, (rss.() - r0) / 200.0, (vsz.() - v0) / 200.0)
