# bootstraptest in child VMs (MVM): one long-lived process runs each of
# bootstraptest's programs in a VM of its own (RubyVM.new), for the runner,
# whose target ruby is client.rb.  The client hands over its command line,
# its working directory and its stdin, stdout and stderr (SCM_RIGHTS): the
# VM runs that command line on those descriptors (RubyVM.new's in:, out:,
# err:), and the client exits with the VM's status.
#
#   ruby tool/mvm-bt/server.rb SOCKET
require "socket"

path = ARGV.fetch(0)
File.unlink(path) if File.socket?(path)
server = UNIXServer.new(path)
# signals the programs send their own process reach this VM too
%w[INT TERM HUP USR1 USR2 QUIT ALRM].each { |sig| trap(sig) {} }
$stdout.sync = true
puts "ready"
loop do
  conn = server.accept
  stdio = []
  begin
    stdio = Array.new(3) { conn.recv_io }
    argv, cwd = Marshal.load(conn.read(Integer(conn.gets)))
    # ENV and the working directory are the process's: each program starts
    # with the server's ENV and the client's directory, as a ruby process
    # started by the runner would
    env = ENV.to_h
    status = Dir.chdir(cwd) do
      RubyVM.new("bt", *argv, in: stdio[0], out: stdio[1], err: stdio[2]).start.join
    end
  rescue => e
    status = 1
    stdio[2]&.write("mvm-bt server: #{e.class}: #{e.message}\n") rescue nil
  ensure
    ENV.replace(env) if env
    stdio.each(&:close)
    conn.puts(status) rescue nil
    conn.close
  end
end
