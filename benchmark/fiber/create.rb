# Seed 002, figs. 6/7, measured as seed 001's table 2: create BATCH fibers,
# then run each to its end, ROUNDS + 1 times.  "first" is the first round,
# on stacks the process has never used; "cached" is ((m+1)n - 1n) / mn,
# the later rounds, on stacks that earlier fibers left.  Microseconds per
# fiber (create, two switches, end).
batch = Integer(ENV["BATCH"] || 1)
total = Integer(ENV["TOTAL"] || 200_000)
rounds = [total / batch, 1].max
a = Array.new(batch)
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
round = -> do
  batch.times { |i| a[i] = Fiber.new {} }
  batch.times { |i| a[i].resume }
end
t0 = clock.()
round.()
t1 = clock.()
rounds.times { round.() }
t2 = clock.()
puts "BENCH first_us=#{((t1 - t0) / batch * 1e6).round(3)}"
puts "BENCH cached_us=#{((t2 - t1) / (rounds * batch) * 1e6).round(3)}"
