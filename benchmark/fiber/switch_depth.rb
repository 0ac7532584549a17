# Seed 002, figs. 4/5: the cost of a fiber switch against the depth of the
# machine stack.  One fiber recurses DEPTH levels through 1.times (each
# level is C frames as well as VM frames) and then yields in a loop; the
# main fiber resumes it COUNT times.  Prints ns per resume+yield.
depth = Integer(ENV["DEPTH"] || 0)
count = Integer(ENV["COUNT"] || 1_000_000)

def nest(i)
  if i == 0
    loop { Fiber.yield }
  else
    1.times { nest(i - 1) }
  end
end

fiber = Fiber.new { nest(depth) }
fiber.resume
10_000.times { fiber.resume } # warm up
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
count.times { fiber.resume }
t = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
puts "BENCH ns_per_switch=#{(t / count * 1e9).round(1)}"
