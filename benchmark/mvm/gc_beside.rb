# frozen_string_literal: true
# A GC in one VM stops no other: the time of a CPU-bound worker alone, and
# beside a GC-heavy worker (2.5 s of short-lived Strings), for VMs, for
# Ractors, and for processes (what the machine itself costs: two busy
# cores share caches and memory bandwidth).  Prints BENCH lines.
#
#   KIND=vm ruby benchmark/mvm/gc_beside.rb      (KIND: vm, ractor, process)
CPU = 'x = 0.0; i = 0; while i < 30_000_000; x += i * 0.5; i += 1; end'
GC_HEAVY = 'gc_t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC); loop { Array.new(2000) { "s" * 20 }; break if Process.clock_gettime(Process::CLOCK_MONOTONIC) - gc_t0 > 2.5 }'
kind = ENV.fetch("KIND")
Warning[:experimental] = false

def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def cpu_time(kind, beside)
  case kind
  when "vm"
    gc = RubyVM.new("gc", "--disable-gems", "-e", GC_HEAVY).start if beside
    sleep 0.2 if beside # the GC-heavy one is collecting
    t = now
    RubyVM.new("cpu", "--disable-gems", "-e", "#{CPU}; exit(GC.count < 5 ? 0 : 1)").start.join
    d = now - t
    gc&.join
    d
  when "ractor"
    gc = Ractor.new { eval(GC_HEAVY); GC.count } if beside
    sleep 0.2 if beside
    t = now
    Ractor.new { eval(CPU) }.take
    d = now - t
    gc&.take
    d
  when "process"
    gc = fork { eval(GC_HEAVY); exit!(0) } if beside
    sleep 0.2 if beside
    t = now
    Process.wait(fork { eval(CPU); exit!(0) })
    d = now - t
    Process.wait(gc) if gc
    d
  end
end

alone = cpu_time(kind, false)
beside = cpu_time(kind, true)
puts "BENCH alone_s=#{alone.round(4)}"
puts "BENCH beside_gc_s=#{beside.round(4)}"
puts "BENCH ratio=#{(beside / alone).round(3)}"
