# Seed 002, figs. 8/9: live suspended fibers.  Creates fibers that yield
# once and stay suspended, up to COUNT or until creation fails (vanilla:
# "can't set a guard page" at vm.max_map_count), with GC disabled as in
# the paper.  Prints the number reached and the RSS each added.
count = Integer(ENV["COUNT"] || 1_000_000)
def rss = File.read("/proc/self/status")[/^VmRSS:\s+(\d+)/, 1].to_i
def pte = File.read("/proc/self/status")[/^VmPTE:\s+(\d+)/, 1].to_i
GC.start
GC.disable
before, pte_before = rss, pte
fibers = []
error = nil
begin
  count.times { fibers << Fiber.new { Fiber.yield }.tap(&:resume) }
rescue FiberError, NoMemoryError => e
  error = e
end
n = fibers.size
warn "stopped at #{n}: #{error.class}: #{error.message}" if error
puts "BENCH fibers=#{n}"
puts "BENCH failed=#{error ? 1 : 0}"
puts "BENCH kb_per_fiber=#{((rss - before).to_f / n).round(2)}"
puts "BENCH pte_kb_per_fiber=#{((pte - pte_before).to_f / n).round(3)}"
