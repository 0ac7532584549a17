# Seed 002, figs. 10/11: the select-based echo server of its fig. 11, one
# fiber per connection, over loopback: CONNECTIONS clients each send a line
# and wait for it to come back, until the server has echoed ECHOES lines
# (or TIME_LIMIT seconds have passed).  The event loop runs RECURSIVE
# levels deep in 1.times, as in the paper.  The clients are a child
# process with a select loop of their own.  Prints microseconds per echo.
require "socket"

CONNECTIONS = Integer(ENV["CONNECTIONS"] || 64)
ECHOES = Integer(ENV["ECHOES"] || 1_000_000)
RECURSIVE = Integer(ENV["RECURSIVE"] || 0)
TIME_LIMIT = Float(ENV["TIME_LIMIT"] || 120)

server = TCPServer.new("127.0.0.1", 0)
port = server.addr[1]

client = fork do
  server.close
  socks = Array.new(CONNECTIONS) { TCPSocket.new("127.0.0.1", port) }
  socks.each { |s| s.sync = true; s.write("hello, fiber\n") }
  loop do
    ready, = IO.select(socks)
    ready.each do |s|
      line = s.gets or exit!(0)
      s.write(line)
    end
  end
end

$fibers = {}
$sockets = {read: [], write: []}

def attach(socket, mode)
  $sockets[mode].push(socket)
  $fibers[socket] = Fiber.current
end

def detach(socket, mode)
  $sockets[mode].delete(socket)
  $fibers.delete(socket)
end

def mygets(socket)
  attach(socket, :read)
  Fiber.yield
  socket.gets.tap { detach(socket, :read) }
end

def myputs(socket, s)
  attach(socket, :write)
  Fiber.yield
  socket.write(s)
  detach(socket, :write)
end

def resume(ios)
  ios.each { |io| $fibers[io]&.resume }
end

$finish = 0
$done = false
def eventloop(recursive)
  if recursive == 0
    until $done
      if (result = IO.select($sockets[:read], $sockets[:write], nil, 1))
        resume(result[0])
        resume(result[1])
      end
    end
  else
    1.times { eventloop(recursive - 1) }
  end
end

CONNECTIONS.times do
  Fiber.new do
    s = server.accept
    s.sync = true
    loop do
      str = mygets(s)
      myputs(s, str)
      $finish += 1
      $done = true if $finish >= ECHOES || ($finish % 1024 == 0 && Process.clock_gettime(Process::CLOCK_MONOTONIC) > $deadline)
    end
  end.resume
end

t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
$deadline = t + TIME_LIMIT
eventloop(RECURSIVE)
t = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
Process.kill(:KILL, client)
Process.wait(client)
puts "BENCH echoes=#{$finish}"
puts "BENCH us_per_echo=#{(t / $finish * 1e6).round(3)}"
