# Seed 004 fig. 11: a CPU-bound program split over K workers of one KIND,
# each computing its share of the rows of a Mandelbrot image (a stand-in for
# aobench: floating point, no allocation in the loop, no shared state).
# Every worker checks its count and ends with status 0; prints BENCH lines.
#
#   KIND=vm K=2 ruby benchmark/mvm/split.rb
#
# KIND: vm (RubyVM), ractor, process (fork), serial (K shares in a row).
K = Integer(ENV.fetch("K", "1"))
kind = ENV.fetch("KIND")
SIZE = Integer(ENV.fetch("SIZE", "600"))
WORK = <<~'RUBY'
  def mandel_rows(size, part, parts)
    count = 0
    y = part
    while y < size
      ci = 2.0 * y / size - 1.0
      x = 0
      while x < size
        cr = 2.0 * x / size - 1.5
        zr = zi = 0.0
        i = 0
        while i < 50 && zr * zr + zi * zi < 4.0
          zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
          i += 1
        end
        count += 1 if i == 50
        x += 1
      end
      y += parts
    end
    count
  end
RUBY
eval WORK
Warning[:experimental] = false
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
total = case kind
  when "serial"
    K.times.sum { |part| mandel_rows(SIZE, part, K) }
  when "vm"
    code = WORK + "c = mandel_rows(*RubyVM::ARGV); exit(c >= 0 ? 0 : 1)"
    vms = K.times.map { |part| RubyVM.new("w#{part}", "--disable-gems", "-e", code).start(SIZE, part, K) }
    abort "a VM failed" unless vms.map(&:join).all?(0)
    nil
  when "ractor"
    rs = K.times.map { |part| Ractor.new(SIZE, part, K) { |*a| mandel_rows(*a) } }
    rs.sum(&:take)
  when "process"
    pids = K.times.map { |part| fork { exit!(mandel_rows(SIZE, part, K) >= 0 ? 0 : 1) } }
    abort "a process failed" unless pids.all? { |pid| Process.wait2(pid)[1].success? }
    nil
  else abort "unknown KIND #{kind}"
  end
t = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
puts "BENCH time_s=#{t.round(4)}"
puts "BENCH count=#{total}" if total
