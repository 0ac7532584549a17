# A hello-world HTTP server whose workers serve the connections that one
# acceptor hands them, under wrk on loopback (issue 40's HTTP figure).
#
#   ruby benchmark/channel/http.rb MODE [WORKERS] [PORT]
#     vm       the first VM accepts, worker VMs serve the sockets it sends
#              them through a RubyVM::Channel (this fork only)
#     fork     prefork: forked workers accept on the shared listening socket
#     sendio   forked workers serve the sockets the parent accepts and
#              passes over a UNIX socket (UNIXSocket#send_io)
#     thread   threads of one process serve the sockets the main thread
#              accepts (a Thread::Queue)
#   Prints "ready PORT" when it listens; stops on SIGTERM.
#
# The driver that runs wrk against each, alternating fork and vanilla:
#   ruby benchmark/channel/http.rb driver --fork _install/bin/ruby \
#     --vanilla _vanilla/bin/ruby --runs 3 --duration 5 --out results/channel-http.md
require "socket"

# what every worker runs (evaluated here too, for fork and thread)
SERVE_SRC = <<~'RUBY'
  RESPONSE = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n" \
             "Connection: close\r\n\r\nHello world\n"
  def serve(sock)
    while (line = sock.gets) && line != "\r\n"; end
    sock.write(RESPONSE)
  rescue SystemCallError, IOError
  ensure
    sock.close
  end
RUBY
eval SERVE_SRC

def server(mode, workers, port)
  srv = TCPServer.new("127.0.0.1", port)
  srv.listen(1024)
  $stdout.puts "ready #{srv.addr[1]}"
  $stdout.flush
  case mode
  when "vm"
    conns = RubyVM::Channel.new(64)
    vms = workers.times.map do |i|
      RubyVM.new("worker#{i}", "--disable-gems", "-e", SERVE_SRC + <<~'RUBY').start(conns)
        RubyVM::ARGV[0].each { |sock| serve(sock) }
      RUBY
    end
    trap(:TERM) { conns.close; exit!(0) }
    loop do
      s = srv.accept
      conns << s
      s.close
    end
  when "fork"
    pids = workers.times.map { fork { trap(:TERM) { exit!(0) }; loop { serve(srv.accept) } } }
    trap(:TERM) { pids.each { |pid| Process.kill(:TERM, pid) }; exit!(0) }
    sleep
  when "sendio"
    pairs = workers.times.map { UNIXSocket.pair }
    pids = pairs.map do |parent, child|
      fork do
        trap(:TERM) { exit!(0) }
        srv.close
        loop { serve(child.recv_io(TCPSocket)) }
      end
    end
    trap(:TERM) { pids.each { |pid| Process.kill(:TERM, pid) }; exit!(0) }
    i = 0
    loop do
      s = srv.accept
      pairs[i % workers][0].send_io(s)
      s.close
      i += 1
    end
  when "thread"
    q = Thread::Queue.new
    workers.times.map { Thread.new { while (s = q.pop); serve(s); end } }
    trap(:TERM) { exit!(0) }
    loop { q << srv.accept }
  else
    abort "unknown mode #{mode}"
  end
end

def driver(argv)
  opts = {"--runs" => "3", "--duration" => "5", "--workers" => "2", "--connections" => "8"}
  argv.each_slice(2) { |k, v| opts[k] = v }
  rubies = {"fork" => opts.fetch("--fork"), "vanilla" => opts.fetch("--vanilla")}
  cells = [["fork", "vm"], ["fork", "fork"], ["vanilla", "fork"], ["fork", "sendio"],
           ["vanilla", "sendio"], ["fork", "thread"], ["vanilla", "thread"]]
  res = Hash.new { |h, k| h[k] = [] }
  Integer(opts["--runs"]).times do
    cells.each do |rb, mode|
      io = IO.popen([rubies[rb], "--disable-gems", __FILE__, mode, opts["--workers"], "0"])
      port = io.gets[/\d+/]
      out = `wrk -t1 -c#{opts["--connections"]} -d#{opts["--duration"]}s http://127.0.0.1:#{port}/ 2>&1`
      Process.kill(:TERM, io.pid)
      io.close
      rps = out[/Requests\/sec:\s+([\d.]+)/, 1].to_f
      errs = out[/Socket errors:.*|Non-2xx.*/]
      warn "#{rb} #{mode}: #{rps} req/s #{errs}"
      res[[rb, mode]] << rps
    end
  end
  names = {"vm" => "worker VMs, sockets through a Channel", "fork" => "prefork: forked workers accept",
           "sendio" => "forked workers, sockets through send_io", "thread" => "threads, sockets through a Queue"}
  med = ->(a) { a.sort[a.size / 2] }
  lines = ["| #{opts["--workers"]} workers, `Connection: close`, requests a second: median (min..max) of #{opts["--runs"]} | |", "|---|---|"]
  cells.each do |rb, mode|
    a = res[[rb, mode]]
    lines << "| #{names[mode]} (#{rb == "fork" ? "this fork" : "vanilla"}) | #{med.(a).round} (#{a.min.round}..#{a.max.round}) |"
  end
  md = lines.join("\n") + "\n"
  File.write(opts["--out"], md) if opts["--out"]
  puts md
end

if ARGV[0] == "driver"
  driver(ARGV.drop(1))
else
  server(ARGV[0], Integer(ARGV[1] || 2), Integer(ARGV[2] || 0))
end
