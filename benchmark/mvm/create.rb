# Seed 004 table 2 (and seed 001's first creation): create, run an empty
# program and wait, N times, by one METHOD; prints BENCH lines.
#
#   METHOD=vm N=500 ruby benchmark/mvm/create.rb
#
# METHOD: thread, ractor, fork, spawn, spawn_nogems (ruby --disable-gems),
# vm (RubyVM with ruby's default options), vm_nogems (--disable-gems).
require "rbconfig"
method = ENV.fetch("METHOD")
n = Integer(ENV.fetch("N", "500"))
ruby = RbConfig.ruby
Warning[:experimental] = false
once = case method
       when "thread"       then -> { Thread.new {}.join }
       when "ractor"       then -> { Ractor.new {}.take }
       when "fork"         then -> { Process.wait(fork {}) }
       when "spawn"        then -> { Process.wait(spawn(ruby, "-e", "")) }
       when "spawn_nogems" then -> { Process.wait(spawn(ruby, "--disable-gems", "-e", "")) }
       when "vm"           then -> { RubyVM.new("e", "-e", "").start.join }
       when "vm_nogems"    then -> { RubyVM.new("e", "--disable-gems", "-e", "").start.join }
       else abort "unknown METHOD #{method}"
       end
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
once.()
first = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
(n - 1).times { once.() }
total = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
puts "BENCH first_ms=#{(first * 1000).round(3)}"
puts "BENCH total_s=#{total.round(4)}"
puts "BENCH per_ms=#{(total * 1000 / n).round(4)}"
