# MVM soak: VMS child VMs (default 4) for SECS seconds (default 60), each
# mixing what VMs share in one process: ENV (the process's environ),
# requires of MVM-safe extensions and of Ruby files, dynamic Symbols,
# encodings and transcoders, GC and compaction, threads, and signals (the
# first VM traps USR1 and sends it, the children trap USR2 and the first VM
# sends that, and every VM sends both to the process).  Meanwhile the first
# VM creates and joins short VMs.  Fails on a crash, a VM that does not end
# with 0, or a signal that does not arrive.
#
#   ruby tool/mvm-soak.rb [SECS] [VMS]
secs = Float(ARGV[0] || 60)
nvms = Integer(ARGV[1] || 4)
require "tmpdir"

child = <<~'CHILD'
  id, secs, dir, ready = RubyVM::ARGV
  got = Thread::Queue.new
  trap(:USR2) { got << :usr2 }
  IO.for_fd(ready, autoclose: false).tap { _1.sync = true }.puts id
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + secs
  libs = %w[stringio strscan json etc io/console monitor pathname ripper cgi/escape]
  encs = %w[UTF-16LE UTF-16BE UTF-32LE EUC-JP Shift_JIS ISO-8859-1 Windows-1252 IBM437 GB18030 EUC-KR]
  rb = File.join(dir, "lib_#{id}.rb")
  n = 0
  while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    n += 1
    # the environment: this VM's keys, and the whole of it
    key = "MVM_SOAK_#{id}_#{n % 50}"
    ENV[key] = "#{n}" * (n % 9 + 1)
    ENV.delete("MVM_SOAK_#{id}_#{(n + 25) % 50}")
    raise "ENV" unless ENV[key] == "#{n}" * (n % 9 + 1)
    ENV.to_h if n % 7 == 0
    # requires: extensions once, a Ruby file again and again
    require libs[n % libs.size]
    File.write(rb, "$soak_#{id} = #{n}\n")
    load rb
    raise "load" unless eval("$soak_#{id}") == n
    # Symbols the process shares, made and dropped
    s = "soak_#{id}_#{rand(5000)}".to_sym
    raise "Symbol" unless s.to_s.start_with?("soak_#{id}_")
    # encodings and transcoders, loaded as they are needed
    enc = encs[n % encs.size]
    str = "soak \u00e9#{n}"
    begin
      raise "encode" unless str.encode(enc, undef: :replace).encode("UTF-8", undef: :replace).start_with?("soak")
    rescue Encoding::ConverterNotFoundError
    end
    # threads and GC
    Thread.new { Array.new(100) { |i| i.to_s } }.join if n % 5 == 0
    GC.start if n % 200 == 0
    GC.compact if n % 1000 == 0 && GC.respond_to?(:compact)
    JSON.generate({"n" => n}) if defined?(JSON)
    Process.kill(:USR1, $$) if n % 300 == 0   # the first VM traps it
  end
  50.times { |i| ENV.delete("MVM_SOAK_#{id}_#{i}") }
  sleep 0.05 while got.empty? && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline + 5
  raise "no USR2 reached VM #{id}" if got.empty?
  exit 0
CHILD

Dir.mktmpdir do |dir|
  usr1 = Thread::Queue.new
  trap(:USR1) { usr1 << 1 }
  r, w = IO.pipe
  vms = nvms.times.map { |i| RubyVM.new("soak#{i}", "--disable-gems", "-e", child).start(i, secs, dir, w.fileno) }
  nvms.times { r.gets }                 # each traps USR2 now
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + secs
  short = 0
  while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    vm = RubyVM.new("short", "--disable-gems", "-e", 'ENV["MVM_SOAK_SHORT"] = "1"; "x".encode("UTF-16LE"); :"short_#{rand(100)}"').start
    ENV["MVM_SOAK_MAIN"] = short.to_s
    Process.kill(:USR2, $$) if short % 10 == 0     # the children trap it
    vm.join == 0 or abort "a short VM failed"
    short += 1
  end
  # every USR2 went out before this deadline, inside the children's
  statuses = vms.map(&:join)
  abort "VMs ended with #{statuses.inspect}" unless statuses.all?(0)
  abort "no USR1 reached the first VM" if usr1.empty?
  ENV.delete("MVM_SOAK_MAIN"); ENV.delete("MVM_SOAK_SHORT")
  puts "soak: #{nvms} VMs for #{secs} s, #{short} short VMs, #{usr1.size} USR1 in the first VM: ok"
end
