# Gems with C extensions in child VMs (MVM), run by make check-mvm-gems with
# GEM_HOME holding msgpack and oj from RubyGems, built for this ruby: two VMs
# at once each load a private copy of their shared objects (they declare
# nothing) and use it, as the first VM uses the files themselves; then the
# bundled gems' extensions (racc, bigdecimal, debug, rbs; racc's, debug's and
# rbs's MVM-safe, one shared object for every VM).
code = <<~'CHILD'
  require "msgpack"
  require "oj"
  name = RubyVM.current.name
  data = {"vm" => name, "n" => (1..1000).to_a, "f" => 1.5, "s" => "x" * 100}
  2000.times do |i|
    abort "#{name}: msgpack" unless MessagePack.unpack(data.merge("i" => i).to_msgpack) == data.merge("i" => i)
    abort "#{name}: oj" unless Oj.load(Oj.dump(data.merge("i" => i), mode: :compat)) == data.merge("i" => i)
    GC.start if i % 500 == 0
  end
  # the bundled gems' extensions
  require "racc/cparse"
  require "bigdecimal"
  require "debug/frame_info"
  require "debug/debug"     # what debug/session loads
  require "rbs"
  abort "#{name}: rbs" unless RBS::Parser.parse_type("Integer | String").is_a?(RBS::Types::Union)
  _, _, decls = RBS::Parser.parse_signature(File.read(RBS::EnvironmentLoader::DEFAULT_CORE_ROOT + "string.rbs"))
  abort "#{name}: rbs's parse_signature" unless decls.map(&:class) == [RBS::AST::Declarations::Class,
    RBS::AST::Declarations::Interface, RBS::AST::Declarations::TypeAlias] &&
    decls[0].name.to_s == "String" && decls[0].members.size > 100 && decls[0].location.is_a?(RBS::Location)
  mt = RBS::Parser.parse_method_type("[T] (T, ?String s) { (T) -> bool } -> Array[T]")
  loc = RBS::Parser.parse_type("Hash[Symbol, String]").location
  abort "#{name}: rbs's method type and location" unless mt.to_s == "[T] (T, ?String s) { (T) -> bool } -> Array[T]" &&
    loc[:name].source == "Hash" && loc[:args].source == "[Symbol, String]" && loc.start_loc == [1, 0]
  error = (RBS::Parser.parse_signature("class Foo end end") rescue $!)
  abort "#{name}: rbs's ParsingError" unless error.is_a?(RBS::ParsingError) && error.location.is_a?(RBS::Location)
  abort "#{name}: bigdecimal" unless (BigDecimal("0.1") * 3).to_s == "0.3e0"
  abort "#{name}: bigdecimal's special values" unless BigDecimal::INFINITY.infinite? == 1 &&
    BigDecimal("NaN").nan? && BigDecimal("-0").sign == BigDecimal::SIGN_NEGATIVE_ZERO &&
    BigMath.exp(BigDecimal("1"), 10).round(9).to_s == "0.2718281828e1"
  abort "#{name}: racc/cparse" unless Racc::Parser.private_method_defined?(:_racc_do_parse_c) &&
    Racc::CparseParams.is_a?(Class)
  frames = DEBUGGER__.capture_frames("/nonexistent")
  abort "#{name}: debug" unless frames.all? { _1.is_a?(DEBUGGER__::FrameInfo) } && !frames.empty?
  # declared MVM-safe: one shared object for every VM, not a copy of its own
  # (bigdecimal here is RubyGems', which oj depends on: a copy)
  copies = File.readlines("/proc/self/maps").grep(%r{ruby-mvm-.*(cparse|debug|rbs_extension)\.so})
  abort "#{name}: private copies of #{copies.join}" unless copies.empty?
  puts "#{name}: ok"
CHILD
require "msgpack"
require "oj"
vms = 2.times.map { |i| RubyVM.new("vm#{i}", "-e", code).start }
status = vms.map(&:join)
abort "children: #{status.inspect}" unless status == [0, 0]
abort "first VM: msgpack" unless MessagePack.unpack([1, "a"].to_msgpack) == [1, "a"]
abort "first VM: oj" unless Oj.load(Oj.dump({"a" => 1})) == {"a" => 1}
require "rbs"
abort "first VM: rbs" unless RBS::Parser.parse_type("Integer | String").to_s == "Integer | String"
puts "first VM: ok"
