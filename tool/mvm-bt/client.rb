# The runner's target ruby in bootstraptest's MVM mode: hands its command
# line, its directory and its stdin, stdout and stderr to server.rb
# (MVM_BT_SOCKET), which runs the command line in a child VM on them, and
# exits with that VM's status.
require "socket"
req = Marshal.dump([ARGV, Dir.pwd])
s = UNIXSocket.new(ENV.fetch("MVM_BT_SOCKET"))
# the descriptors first: a buffered read of the request would drop them
[STDIN, STDOUT, STDERR].each { |io| s.send_io(io) }
s.write("#{req.bytesize}\n", req)
exit!(Integer(s.gets || 1))
