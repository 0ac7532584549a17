# Seed 001, tables 3 and 4, with fibers: a value handed back and forth
# between two fibers through two Thread::Queues, which block a fiber (and
# switch to the other) through the fiber scheduler; and, for table 3, a
# push and pop on one queue that never blocks.  Microseconds per operation.
count = Integer(ENV["COUNT"] || 200_000)

# The least scheduler that Thread::Queue needs: blocked fibers are resumed
# in order from the main fiber's loop.
class PingPongScheduler
  def initialize = @ready = []
  def block(blocker, timeout = nil) = Fiber.yield
  def unblock(blocker, fiber) = @ready << fiber
  def fiber(&block) = Fiber.new(blocking: false, &block).tap { |f| @ready << f }
  def kernel_sleep(*) = Fiber.yield
  def io_wait(*) = raise(NotImplementedError)
  def close = run
  def run
    @ready.shift.resume until @ready.empty?
  end
end

clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }

q = Thread::Queue.new
t = clock.()
count.times { |i| q.push(i); q.pop }
puts "BENCH push_pop_us=#{((clock.() - t) / count * 1e6).round(3)}"

elapsed = nil
Thread.new do
  Fiber.set_scheduler(PingPongScheduler.new)
  ping, pong = Thread::Queue.new, Thread::Queue.new
  t = nil
  Fiber.schedule { count.times { |i| ping.push(i); pong.pop } ; elapsed = clock.() - t }
  Fiber.schedule { count.times { pong.push(ping.pop) } }
  t = clock.()
end.join
# one hand-off: a push that wakes the other fiber, and a pop that blocks
puts "BENCH handoff_us=#{(elapsed / (2 * count) * 1e6).round(3)}"
