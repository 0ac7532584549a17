# What benchmark/yjit/icount.rb and ops.rb share: a run under cachegrind, runs
# in parallel, and the slope between two counts of iterations.
module Cachegrind
  module_function

  # Runs cmd (ruby and its arguments) under cachegrind, its counts into out
  # and its output into out.log, and returns its instructions (Ir); aborts,
  # naming what, when it fails.
  def ir(what, out, cmd, env: {}, chdir: Dir.pwd)
    vg = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--smc-check=all", "--cachegrind-out-file=#{out}"]
    abort "#{what} failed (#{out}.log)" unless system(env, *vg, *cmd, chdir: chdir, out: "#{out}.log", err: [:child, :out])
    File.foreach(out).grep(/\Asummary:/).first.split[1].to_i
  end

  # {job => yield(job)} for every job, parallel at a time (cachegrind's
  # counts do not depend on the load); each result is reported on stderr.
  def run_all(jobs, parallel)
    queue = Queue.new
    jobs.each { queue << _1 }
    queue.close
    results = {}
    lock = Mutex.new
    Array.new(parallel) do
      Thread.new do
        while (job = queue.pop)
          ir = yield(job)
          lock.synchronize { results[job] = ir }
          warn "#{job.flatten.map { File.basename(_1.to_s) }.join(" ")}: #{ir}"
        end
      end
    end.each(&:join)
    results
  end

  # The options both runners take, on an OptionParser o into the Hash h (whose
  # :iters is the default); file names the default table.
  def options(o, h, file)
    o.on("--iters A,B", Array, "iterations of the two runs (default #{h[:iters].join(",")})") { h[:iters] = _1.map { |s| Integer(s) } }
    o.on("--interp", "count the interpreters too") { h[:interp] = true }
    o.on("--parallel N", Integer, "runs at a time (default 2)") { h[:parallel] = _1 }
    o.on("--file FILE", "the table (default #{file})") { h[:file] = _1 }
  end

  # Instructions per iteration: the counts of a and b iterations, the
  # start-up and whatever else both runs did cancelled.
  def slope(ir_a, ir_b, a, b) = (ir_b - ir_a).fdiv(b - a)
end
