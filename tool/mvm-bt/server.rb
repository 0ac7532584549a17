# bootstraptest in child VMs (MVM): one long-lived process runs each of
# bootstraptest's programs in a VM of its own (RubyVM.new), for the runner,
# whose target ruby is client.rb.  The program's $stdout and $stderr (and
# the STDOUT/STDERR of its VM) are files the client copies back.
#
#   ruby tool/mvm-bt/server.rb SOCKET
require "socket"
require "tmpdir"

path = ARGV.fetch(0)
File.unlink(path) if File.socket?(path)
server = UNIXServer.new(path)
# signals the programs send their own process reach this VM too
%w[INT TERM HUP USR1 USR2 QUIT ALRM].each { |sig| trap(sig) {} }
WRAPPER = <<~'RUBY'
  out, err, prog = RubyVM::ARGV
  $stdout = File.open(out, "w")
  $stderr = File.open(err, "w")
  $stdout.sync = $stderr.sync = true
  Object.send(:remove_const, :STDOUT)
  Object.send(:remove_const, :STDERR)
  STDOUT = $stdout
  STDERR = $stderr
  $0 = prog
  load prog
RUBY
# `ruby -c` prints "Syntax OK" with C's printf, on the process's stdout, and
# runs none of the options' code: check the program's syntax in the wrapper
SYNTAX_CHECK = <<~'RUBY'
  out, err, prog = RubyVM::ARGV
  begin
    RubyVM::AbstractSyntaxTree.parse_file(prog)
    File.write(out, "Syntax OK\n")
  rescue SyntaxError => e
    File.write(err, "#{e.message}\n")
    exit 1
  end
RUBY
$stdout.sync = true
puts "ready"
loop do
  conn = server.accept
  begin
    argv, cwd = Marshal.load(conn.read(Integer(conn.gets)))
    # ENV is the process's: each program starts with the server's, as each
    # ruby process would start with the runner's
    env = ENV.to_h
    Dir.mktmpdir("mvm-bt") do |tmp|
      out, err = File.join(tmp, "out"), File.join(tmp, "err")
      File.write(out, ""); File.write(err, "")
      prog = argv.last
      opts = argv[0..-2]
      status =
        if prog && !prog.start_with?("-") && File.file?(File.expand_path(prog, cwd))
          check = opts.delete("-c") # assert_valid_syntax's
          Dir.chdir(cwd) do
            RubyVM.new("bt", *opts, "-e", check ? SYNTAX_CHECK : WRAPPER).start(out, err, File.expand_path(prog, cwd)).join
          end
        else # -v and the like: run as is
          RubyVM.new("bt", *argv).start.join
        end
      res = Marshal.dump([status, File.binread(out), File.binread(err)])
      conn.write("#{res.bytesize}\n", res)
    end
  rescue => e
    res = Marshal.dump([1, "", "mvm-bt server: #{e.class}: #{e.message}\n"])
    conn.write("#{res.bytesize}\n", res) rescue nil
  ensure
    ENV.replace(env) if env
    conn.close
  end
end
