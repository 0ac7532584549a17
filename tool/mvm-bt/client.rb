# The runner's target ruby in bootstraptest's MVM mode: hands its command line
# to server.rb (MVM_BT_SOCKET), which runs it in a child VM, and gives back
# its output and exit status.
require "socket"
if ARGV == ["-v"] # the runner asks the target's version: the same binary
  puts RUBY_DESCRIPTION
  $stdout.flush
  exit!(0)
end
req = Marshal.dump([ARGV, Dir.pwd])
s = UNIXSocket.new(ENV.fetch("MVM_BT_SOCKET"))
s.write("#{req.bytesize}\n", req)
status, out, err = Marshal.load(s.read(Integer(s.gets)))
$stdout.write(out)
$stderr.write(err)
$stdout.flush
$stderr.flush
exit!(status)
